// Builds the browser client into a folder the server serves:
//   node build.mjs OUTDIR
// index.html, club.html and the icon are copied from static/; src/main.ts
// and what it imports become app.js, src/app.css becomes style.css, the
// club's pages (src/club/main.ts) club.js and club.css (the CSS it
// imports), all minified.
// Each file gets a gzipped copy beside it (app.js.gz, ...):
// barbu serve sends it to a browser that accepts gzip (docs/protocol.md).
// Nothing is fetched from the network at run time: no fonts, no images.
import { build } from 'esbuild';
import { cpSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants, gzipSync } from 'node:zlib';
import { readFileSync, writeFileSync } from 'node:fs';

const here = dirname(fileURLToPath(import.meta.url));
const out = resolve(process.argv[2] ?? join(here, '..', 'build', 'web'));
mkdirSync(out, { recursive: true });
cpSync(join(here, 'static'), out, { recursive: true });

await build({
  entryPoints: { app: join(here, 'src', 'main.ts'), style: join(here, 'src', 'app.css'), club: join(here, 'src', 'club', 'main.ts') },
  outdir: out,
  bundle: true,
  minify: true,
  format: 'iife',
  target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
  legalComments: 'none',
  logLevel: 'warning',
});

// Level 9 and no file name or time in the header, so a build is repeatable.
for (const f of ['app.js', 'style.css', 'index.html', 'icon.svg', 'club.js', 'club.css', 'club.html']) {
  const p = join(out, f);
  const raw = statSync(p).size;
  const gz = gzipSync(readFileSync(p), { level: constants.Z_BEST_COMPRESSION });
  writeFileSync(`${p}.gz`, gz);
  console.log(`web: ${f} ${raw} bytes (${gz.length} gzipped)`);
}
