// The accessibility audit: axe-core (web/node_modules/axe-core, a pinned
// devDependency of web/) put into a person's page and run there.  A
// serious or critical violation fails; the others are noted.  Each
// violation is reported with its rule, its impact, its help text and the
// nodes it found (their CSS selectors and axe's summary of what is wrong).

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fail } from './harness.mjs';

const BLOCKING = new Set(['serious', 'critical']);

/** Runs axe on p's page as it is now; `what` names the page for the report
 * ("the lobby at 390x844").  Fails on a serious or critical violation. */
export async function audit(sc, p, what, { exclude = [] } = {}) {
  const file = join(sc.opts.webdir, 'node_modules', 'axe-core', 'axe.min.js');
  if (!existsSync(file)) fail(`no axe-core at ${file}: run web/build.sh (npm ci installs it from web/package-lock.json)`);
  const page = p.page;
  // The page's Content-Security-Policy (script-src 'self') refuses an
  // injected <script> (page.addScriptTag); evaluated through the DevTools
  // protocol, as the tests' own code is, the script runs.
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(`${readFileSync(file, 'utf8')}\n;void 0`);
  const result = await page.evaluate(async (exclude) => {
    const r = await window.axe.run(
      { include: [document], exclude: exclude.map((s) => [s]) },
      // axe's default rules: WCAG 2.x A and AA and its best practices
      // (its experimental rules stay off, as in any axe tool's audit).
      { resultTypes: ['violations'] },
    );
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: (n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 300) })),
    }));
  }, exclude);
  const bad = result.filter((v) => BLOCKING.has(v.impact));
  const minor = result.filter((v) => !BLOCKING.has(v.impact));
  sc.stats.axe = (sc.stats.axe ?? 0) + 1;
  for (const v of minor) sc.log(`axe, ${what}: ${v.impact} ${v.id} (${v.help}) on ${v.nodes.length} node(s): ${v.nodes.slice(0, 3).map((n) => n.target).join(', ')}`);
  if (bad.length) {
    const lines = bad.map((v) => `${v.impact} ${v.id}: ${v.help}; ${v.nodes.length} node(s): ${v.nodes.slice(0, 5).map((n) => `${n.target} [${n.summary}]`).join(' | ')}`);
    fail(`axe found ${bad.length} serious or critical violation(s) on ${what}: ${lines.join(' || ')}`, { expected: 'no serious or critical violation', actual: bad, page: p });
  }
  sc.log(`axe, ${what}: no serious or critical violation (${minor.length} minor)`);
  return result;
}

/** The audit at both widths (1280x800 and 390x844), back at 1280 after. */
export async function auditBoth(sc, p, what, opts) {
  const { DESKTOP, PHONE, frames } = await import('./harness.mjs');
  for (const size of [DESKTOP, PHONE]) {
    await p.page.setViewportSize(size);
    await frames(p.page);
    await audit(sc, p, `${what} at ${size.width}x${size.height}`, opts);
  }
  await p.page.setViewportSize(DESKTOP);
  await frames(p.page);
}
