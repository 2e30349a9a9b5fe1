#!/usr/bin/env node
// The browser end-to-end tests of barbu serve's page (see README.md here).
//
//   node tests/e2e/browser/run.mjs --barbu BUILD/barbu --web BUILD/web --shots DIR
//        [--only NAME[,NAME]] [--src WEBSRC] [--port N] [--list]
//
// Each scenario starts its own server (its own database, a free port) and
// its own Chromium profiles, and prints one summary line.  Exit status 0
// when every scenario selected passed, 1 otherwise, 2 on a usage error.

import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Failure, Scenario, show } from './lib/harness.mjs';
import { ALIASES, SCENARIOS, SEEDS } from './lib/scenarios.mjs';
import { eveningA, eveningAgain } from './lib/evening_a.mjs';
import { EVENING_D } from './lib/evening_d.mjs';
import { ACCOUNTS, SERVER_ARGS } from './lib/accounts.mjs';
import { TLS_SCENARIOS } from './lib/tls.mjs';
import { CLUB_PAGES, CLUB_PAGES_ARGS } from './lib/club_pages.mjs';
import { CLUB_VIEWER } from './lib/club_viewer.mjs';
import { CLUB_ANALYSIS } from './lib/club_analysis.mjs';
import { PREFS } from './lib/prefs.mjs';
import { HINT } from './lib/hint.mjs';
import { NODES } from './lib/nodes.mjs';

Object.assign(SCENARIOS, { evening_a: eveningA, evening_again: eveningAgain }, EVENING_D, ACCOUNTS);
Object.assign(SCENARIOS, TLS_SCENARIOS);
Object.assign(SCENARIOS, CLUB_PAGES);
Object.assign(SERVER_ARGS, { club_pages: CLUB_PAGES_ARGS });
Object.assign(SCENARIOS, CLUB_VIEWER);
Object.assign(SCENARIOS, CLUB_ANALYSIS);
Object.assign(SCENARIOS, PREFS);
Object.assign(SCENARIOS, HINT);
Object.assign(SCENARIOS, NODES);

const here = dirname(fileURLToPath(import.meta.url));

function usage(msg) {
  if (msg) console.error(`run.mjs: ${msg}`);
  console.error('usage: node tests/e2e/browser/run.mjs --barbu BUILD/barbu --web BUILD/web --shots DIR [--only NAME[,NAME]] [--src WEBSRC] [--port N] [--seed NAME=N] [--lenient] [--list]');
  console.error(`scenarios: ${Object.keys(SCENARIOS).join(', ')}`);
  process.exit(2);
}

const opts = { webdir: resolve(here, '..', '..', '..', 'web') };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  const val = () => argv[++i] ?? usage(`${a} needs a value`);
  if (a === '--barbu') opts.barbu = resolve(val());
  else if (a === '--web') opts.web = resolve(val());
  else if (a === '--shots') opts.shots = resolve(val());
  else if (a === '--only') opts.only = val();
  else if (a === '--src') opts.webdir = resolve(val());
  else if (a === '--port') opts.port = Number(val());
  else if (a === '--seed') {
    // --seed NAME=N: another seed for a scenario (to explore; the defaults are the tested ones)
    const [n, v] = val().split('=');
    if (!(n in SEEDS) || !/^\d+$/.test(v ?? '')) usage(`--seed wants NAME=NUMBER with NAME one of ${Object.keys(SEEDS).join(', ')}`);
    SEEDS[n] = Number(v);
  }
  else if (a === '--lenient') opts.lenient = true;
  else if (a === '--list') {
    console.log(Object.keys(SCENARIOS).join('\n'));
    process.exit(0);
  } else usage(`unknown argument ${a}`);
}
if (!opts.barbu || !opts.web || !opts.shots) usage('--barbu, --web and --shots are required');
if (!existsSync(opts.barbu)) usage(`no server program at ${opts.barbu}`);
if (!existsSync(join(opts.web, 'index.html'))) usage(`no built page at ${opts.web} (index.html missing)`);
if (!existsSync(join(opts.webdir, 'node_modules', 'playwright-core'))) usage(`no playwright-core in ${opts.webdir}/node_modules (run web/build.sh, or pass --src)`);
if (!existsSync('/usr/bin/chromium')) usage('Debian\'s /usr/bin/chromium is needed (apt-get install chromium)');

let names = Object.keys(SCENARIOS);
if (opts.only) {
  names = opts.only.split(',').map((n) => ALIASES[n] ?? n);
  for (const n of names) if (!SCENARIOS[n]) usage(`no scenario "${n}"`);
}

const LIMIT_MS = 175000; // a scenario must end well under ctest's 3 minutes

function fmtLoad(l) {
  if (!l) return 'load: not measured';
  const sz = (x) => (x ? `${x.transfer}B (body ${x.body}B, ${x.decoded}B unpacked)` : 'not seen');
  return `load: domContentLoaded=${l.domContentLoaded}ms load=${l.load}ms login-visible=${l.loginVisible}ms app.js=${sz(l.appJs)} style.css=${sz(l.styleCss)}`;
}

async function runOne(name) {
  const sc = new Scenario(name, opts);
  // More flags for this scenario's barbu serve (an administrator named).
  sc.serverArgs = SERVER_ARGS[name] ?? [];
  let error = null;
  let timer;
  try {
    await sc.start();
    await Promise.race([
      SCENARIOS[name](sc),
      new Promise((_, rej) => {
        timer = setTimeout(() => rej(new Failure(`the scenario took longer than ${LIMIT_MS / 1000} s`)), LIMIT_MS);
      }),
    ]);
  } catch (e) {
    error = e;
  } finally {
    clearTimeout(timer);
  }
  if (!error && sc.problems?.length) error = new Failure(`${sc.problems.length} problem(s) noted under --lenient: ${sc.problems.join(' | ')}`);
  // Uncaught exceptions in the page are failures too.
  for (const p of sc.people) if (!error && p.errors.length) error = new Failure(`${p.name}'s page threw: ${p.errors.join(' | ')}`);
  if (error) {
    console.log(`FAIL ${name}: ${error.message}`);
    if (error instanceof Failure) {
      if (error.expected !== undefined) console.log(`  expected: ${show(error.expected)}`);
      if (error.actual !== undefined) console.log(`  the page showed: ${show(error.actual)}`);
    } else console.log(error.stack);
    await sc.capture();
  }
  try {
    await sc.close();
  } catch (e) {
    if (!error) error = e;
    console.log(`FAIL ${name}: ${e.message}`);
  }
  const t = ((Date.now() - sc.t0) / 1000).toFixed(1);
  const st = sc.stats;
  console.log(
    `browser ${name}: ${error ? 'FAIL' : 'ok'} deals=${st.deals} clicks=${st.clicks} reloads=${st.reloads}${st.reloadMs ? ` (back in ${st.reloadMs}ms)` : ''} illegal-clicks=${st.illegal} time=${t}s ${st.extra ?? ''}`,
  );
  console.log(`browser ${name}: ${fmtLoad(sc.load)}`);
  for (const n of sc.notes) console.log(`browser ${name}: note: ${n}`);
  return !error;
}

// Killed (ctest's timeout, ^C): stop the servers and browsers, remove the temp dirs.
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, async () => {
    console.log(`run.mjs: ${sig}: stopping`);
    for (const sc of Scenario.running) await sc.close().catch(() => {});
    process.exit(1);
  });
}

let ok = true;
for (const n of names) ok = (await runOne(n)) && ok;
process.exit(ok ? 0 : 1);
