// The harness of the browser tests: the server, the browsers, the people
// (one Chromium profile each), failures that say what was expected and what
// the page showed, screenshots.  No test framework: run.mjs drives it.
//
// Everything on the page is found through the names web/README.md lists in
// "The page's contract with its tests" (and roles where natural).

import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const SEATS = ['N', 'E', 'S', 'W'];
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ------------------------------------------------------------- failures

/** A failed check: what was expected, what the page showed. */
export class Failure extends Error {
  constructor(what, { expected, actual, page } = {}) {
    super(what);
    this.expected = expected;
    this.actual = actual;
    this.page = page;
  }
}

export function fail(what, details) {
  throw new Failure(what, details);
}

export function check(ok, what, details) {
  if (!ok) fail(what, details);
}

export function show(x) {
  if (typeof x === 'string') return x;
  try {
    return JSON.stringify(x);
  } catch {
    return String(x);
  }
}

// ---------------------------------------------------------------- server

/** Starts `barbu serve` on 127.0.0.1 (port 0: the server takes a free one
 * and prints it) with its own database (or db); resolves once it is listening. */
export async function startServer({ barbu, web, dir, port = 0, extra = [], tls = null, db = null }) {
  // db: another database than the SQLite file in dir (a PostgreSQL URL).
  const args = ['serve', '--listen', `127.0.0.1:${port}`, '--db', db ?? join(dir, 'db.sqlite'), '--web', web, '--quiet', ...extra];
  // tls: {cert, key}: https:// and wss:// (barbu serve --tls-cert/--tls-key).
  if (tls) args.push('--tls-cert', tls.cert, '--tls-key', tls.key);
  const child = spawn(barbu, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const exited = new Promise((res) => child.on('exit', (code, signal) => res({ code, signal })));
  child.stderr.on('data', (d) => (err += d));
  const url = await new Promise((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`barbu serve did not print its "listening" line in 10 s; stdout: ${out} stderr: ${err}`)), 10000);
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (wss?):\/\/([^/\s]+)\/ws/.exec(out);
      if (m) {
        clearTimeout(timer);
        res(`${m[1] === 'wss' ? 'https' : 'http'}://${m[2]}/`);
      }
    });
    child.on('error', (e) => {
      clearTimeout(timer);
      rej(new Error(`cannot start ${barbu}: ${e.message}`));
    });
    exited.then(({ code, signal }) => {
      clearTimeout(timer);
      rej(new Error(`barbu serve exited (${code ?? signal}) before listening: ${err || out}`));
    });
  });
  return {
    url,
    child,
    stderr: () => err,
    /** SIGTERM; fails unless it exits 0 within 10 s. */
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) {
        const r = await exited;
        throw new Error(`barbu serve had already exited (${r.code ?? r.signal}) before the end of the test: ${err}`);
      }
      child.kill('SIGTERM');
      const r = await Promise.race([exited, sleep(10000).then(() => null)]);
      if (!r) {
        child.kill('SIGKILL');
        throw new Error('barbu serve did not stop within 10 s of SIGTERM');
      }
      if (r.code !== 0) throw new Error(`barbu serve exited with ${r.code ?? r.signal} after SIGTERM; stderr: ${err}`);
    },
  };
}

// ------------------------------------------------------------- browsers

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

let chromiumModule = null;
export function loadPlaywright(webdir) {
  if (!chromiumModule) {
    const require = createRequire(join(webdir, 'package.json'));
    chromiumModule = require('playwright-core').chromium;
  }
  return chromiumModule;
}

/** What one scenario owns: its server, its people, its screenshots. */
export class Scenario {
  static running = new Set();

  constructor(name, opts) {
    Scenario.running.add(this);
    this.name = name;
    this.opts = opts; // {barbu, web, webdir, shots, port}
    this.people = [];
    this.dirs = [];
    this.shots = new Set();
    this.stats = { deals: 0, clicks: 0, reloads: 0, illegal: 0 };
    this.notes = [];
    this.load = null;
    this.t0 = Date.now();
  }

  log(...a) {
    const t = ((Date.now() - this.t0) / 1000).toFixed(1).padStart(6);
    console.log(`[${this.name} ${t}s]`, ...a);
  }

  note(s) {
    this.notes.push(s);
    this.log('note:', s);
  }

  /** A check that --lenient only notes (the scenario still fails at its end). */
  soft(ok, what, details) {
    if (ok) return;
    if (this.opts.lenient) this.problem(`${what}: ${show(details?.actual)}`);
    else fail(what, details);
  }

  /** A failure noted under --lenient: the run goes on, the scenario fails at its end. */
  problem(s) {
    this.problems ??= [];
    if (!this.problems.includes(s)) {
      this.problems.push(s);
      this.log('PROBLEM (--lenient):', s);
    }
  }

  tmp(prefix) {
    const d = mkdtempSync(join(tmpdir(), `barbu-browser-${prefix}-`));
    this.dirs.push(d);
    return d;
  }

  /** tls: {cert, key} serves the page over https:// (the browsers then
   * accept the test's self-signed certificate: ignoreHTTPSErrors). */
  async start({ tls = null } = {}) {
    if (this.server) return;
    this.tls = tls;
    // `serverArgs`: more flags for barbu serve (a scenario's --admin).
    this.server = await startServer({ barbu: this.opts.barbu, web: this.opts.web, dir: this.tmp('db'), port: this.opts.port ?? 0, extra: this.serverArgs ?? [], tls });
    this.log('server at', this.server.url);
  }

  /** A person: a fresh Chromium profile (--user-data-dir) and one page.
   * `settings`: the page's settings (web/src/settings.ts) put in its
   * storage before the page starts; by default no trick pause, so that the
   * agent's checks see each trick as the server sends it, and the deal
   * summary only for a moment (scenarios that test pacing pass their own). */
  async person(name, { settings = { trickPause: 0, summaryPause: 0.05 } } = {}) {
    const chromium = loadPlaywright(this.opts.webdir);
    const dir = this.tmp('profile');
    const context = await chromium.launchPersistentContext(dir, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: DESKTOP,
      ignoreHTTPSErrors: !!this.tls,
    });
    if (settings) {
      await context.addInitScript((st) => {
        try {
          const old = JSON.parse(window.localStorage.getItem('barbu.settings') || '{}');
          // Once: a reload keeps what the page changed since.
          if (!old.__test) window.localStorage.setItem('barbu.settings', JSON.stringify({ ...old, ...st, __test: 1 }));
        } catch {
          /* storage off */
        }
      }, settings);
    }
    const page = context.pages()[0] ?? (await context.newPage());
    const p = new Person(this, name, context, page);
    this.people.push(p);
    return p;
  }

  /** Screenshots at 1280x800 and 390x844, once per name (force: again). */
  async shot(p, name, { focus, force } = {}) {
    if (this.shots.has(name) && !force) return;
    this.shots.add(name);
    mkdirSync(this.opts.shots, { recursive: true });
    const page = p.page;
    for (const size of [DESKTOP, PHONE]) {
      if (size !== DESKTOP) await page.setViewportSize(size);
      await frames(page);
      if (focus) {
        await page
          .locator(focus)
          .first()
          .scrollIntoViewIfNeeded({ timeout: 1000 })
          .catch(() => {});
      }
      const file = join(this.opts.shots, `${this.name}-${name}-${size.width}x${size.height}.png`);
      await page.screenshot({ path: file, timeout: 10000 });
    }
    await page.setViewportSize(DESKTOP);
    await frames(page);
  }

  /** On a failure: every page's screenshot and what it showed. */
  async capture(tag) {
    mkdirSync(this.opts.shots, { recursive: true });
    for (const p of this.people) {
      if (p.closed) continue;
      try {
        const file = join(this.opts.shots, `FAIL-${this.name}-${p.name}${tag ? '-' + tag : ''}.png`);
        await p.page.screenshot({ path: file, fullPage: true, timeout: 5000 });
        console.log(`  screenshot of ${p.name}'s page: ${file}`);
        const s = await p.state().catch(() => null);
        console.log(`  ${p.name}'s page: ${show(s)}`);
        const html = await p.page.content().catch(() => '');
        writeFileSync(join(this.opts.shots, `FAIL-${this.name}-${p.name}.html`), html);
        if (p.errors.length) console.log(`  ${p.name}'s page errors: ${p.errors.join(' | ')}`);
      } catch (e) {
        console.log(`  (no screenshot of ${p.name}: ${e.message.split('\n')[0]})`);
      }
    }
  }

  async close() {
    Scenario.running.delete(this);
    for (const p of this.people) await p.close();
    let stopErr = null;
    if (this.server) {
      try {
        await this.server.stop();
      } catch (e) {
        stopErr = e;
      }
    }
    for (const d of this.dirs) rmSync(d, { recursive: true, force: true });
    if (stopErr) throw stopErr;
  }
}

export async function frames(page) {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
}

// ---------------------------------------------------------------- people

/** Reads, in the page, everything the tests look at, in one go. */
function readPage() {
  const $ = (s) => document.querySelector(s);
  const $$ = (s) => [...document.querySelectorAll(s)];
  const t = $('#table');
  const notice = $('#notice');
  const enabled = (b) => !!b && !b.disabled && b.getAttribute('aria-disabled') !== 'true';
  const num = (x) => (x === undefined || x === null || x === '' ? null : Number(x));
  return {
    conn: $('#conn')?.getAttribute('data-state') ?? null,
    notice: notice && notice.textContent.trim() ? { text: notice.textContent.trim(), alert: notice.getAttribute('role') === 'alert' } : null,
    login: !!$('form#login'),
    lobby: !!$('#lobby'),
    table: !!t,
    phase: t?.getAttribute('data-phase') ?? null,
    at: num(t?.getAttribute('data-at')),
    kind: t?.getAttribute('data-kind') ?? null,
    toMove: t?.getAttribute('data-to-move') || null,
    you: t?.getAttribute('data-you') ?? null,
    deal: num(t?.getAttribute('data-deal')),
    hand: $$('#hand button.card[data-card]').map((b) => ({
      card: b.getAttribute('data-card'),
      disabled: b.getAttribute('aria-disabled') === 'true',
      pressed: b.getAttribute('aria-pressed') === 'true',
    })),
    trick: $$('#trick .played[data-card]').map((e) => ({ seat: e.getAttribute('data-seat'), card: e.getAttribute('data-card') })),
    // Layout rows that have started: their suit, ends and the cards shown.
    layout: $$('#layout [data-suit]')
      .map((e) => ({ suit: e.getAttribute('data-suit'), lo: e.getAttribute('data-lo'), hi: e.getAttribute('data-hi'), cards: [...e.querySelectorAll('[data-card]')].map((c) => c.getAttribute('data-card')) }))
      .filter((r) => r.lo || r.cards.length),
    groups: $$('button.group[data-cards]').filter(enabled).map((b) => b.getAttribute('data-cards')),
    panels: {
      declare: !!$('#declare'),
      bid: !!$('#bid'),
      fife: !!$('#fife'),
      arrange: !!$('#arrange'),
      pass: enabled($('button#pass')),
      cut: enabled($('button#cut')),
      passOn: !!$('#pass-on-submit'),
      score: !!$('#score'),
      summary: !!$('#deal-summary'),
    },
    finished: !!$('#trick[data-finished="true"]'),
  };
}

export class Person {
  constructor(sc, name, context, page) {
    this.sc = sc;
    this.name = name;
    this.context = context;
    this.page = page;
    this.seat = null;
    this.errors = [];
    this.closed = false;
    page.on('pageerror', (e) => {
      this.errors.push(e.message);
      sc.log(`${name}: page error: ${e.message}`);
    });
    page.on('console', (m) => {
      if (m.type() === 'error') sc.log(`${name}: console error: ${m.text()}`);
    });
  }

  async close() {
    if (this.closed) return;
    this.closed = true;
    await this.context.close().catch(() => {});
  }

  state() {
    return this.page.evaluate(readPage);
  }

  /** Polls the page until pred(state) holds; fails with the last state seen. */
  async until(pred, what, ms = 20000, every = 30) {
    const end = Date.now() + ms;
    let s;
    for (;;) {
      s = await this.state();
      if (pred(s)) return s;
      if (Date.now() > end) fail(`${this.name}: waited ${ms / 1000} s for ${what}`, { expected: what, actual: s, page: this });
      await sleep(every);
    }
  }

  async visible(sel, what, ms = 10000) {
    try {
      await this.page.locator(sel).first().waitFor({ state: 'visible', timeout: ms });
    } catch {
      const s = await this.state().catch(() => null);
      fail(`${this.name}: ${what ?? sel} did not appear within ${ms / 1000} s`, { expected: `${sel} visible`, actual: s, page: this });
    }
  }

  /** Waits (the page redraws on the next frame) until sel's attribute is value; returns whether it came. */
  async attrBecomes(sel, name, value, ms = 2000) {
    const end = Date.now() + ms;
    for (;;) {
      const v = await this.page.locator(sel).first().getAttribute(name, { timeout: 1000 }).catch(() => undefined);
      if (v === value) return true;
      if (Date.now() > end) return false;
      await sleep(20);
    }
  }

  async count(sel) {
    return this.page.locator(sel).count();
  }

  async attr(sel, name) {
    return this.page.locator(sel).first().getAttribute(name, { timeout: 2000 });
  }

  /** A person's click: a little pause first (human pace), counted. */
  async click(sel, { force = false, what } = {}) {
    await sleep(40);
    const loc = typeof sel === 'string' ? this.page.locator(sel).first() : sel;
    try {
      await loc.click({ force, timeout: 5000 });
    } catch (e) {
      const s = await this.state().catch(() => null);
      if (this.sc.opts.lenient && (await loc.count().catch(() => 0)) > 0) {
        // --lenient: note it (the scenario fails at its end) and go on with a DOM click.
        this.sc.problem(`${this.name}: a person cannot click ${what ?? sel}: ${e.message.split('\n')[0]}`);
        await loc.dispatchEvent('click');
        this.sc.stats.clicks++;
        return;
      }
      fail(`${this.name}: cannot click ${what ?? sel}: ${e.message.split('\n')[0]}`, { expected: `${what ?? sel} clickable`, actual: s, page: this });
    }
    this.sc.stats.clicks++;
  }

  /** Opens the page; the first person's load also measures the page. */
  async open(measure = false) {
    const url = this.sc.server.url;
    await this.page.goto(url, { waitUntil: 'load' });
    await this.visible('form#login', 'the handle form (form#login)', 15000);
    if (measure) {
      this.sc.load = await this.page.evaluate(() => {
        const nav = performance.getEntriesByType('navigation')[0];
        const res = performance.getEntriesByType('resource');
        const size = (n) => {
          const r = res.find((e) => new URL(e.name).pathname.endsWith('/' + n));
          return r ? { transfer: r.transferSize, body: r.encodedBodySize, decoded: r.decodedBodySize } : null;
        };
        return {
          domContentLoaded: Math.round(nav.domContentLoadedEventEnd),
          load: Math.round(nav.loadEventEnd),
          loginVisible: Math.round(performance.now()),
          appJs: size('app.js'),
          styleCss: size('style.css'),
        };
      });
    }
  }

  async login(handle) {
    this.handle = handle;
    await this.page.locator('input#handle').fill(handle);
    await this.click(this.page.locator('form#login').getByRole('button').first(), { what: 'the handle form\'s submit button' });
    await this.until((s) => s.lobby && s.conn === 'open', '#lobby with #conn[data-state=open] after joining', 10000);
  }

  /** The lobby's form: a new table with computer players, sitting at `sit`. */
  async createTable(sc, { rules, seed, kibitz = 'seat', bots = ['E', 'S', 'W'], level = 'easy', delay = 50, sit = 'N', household = false }) {
    await this.click('#new-table');
    await this.visible('form#create', 'the new-table form (form#create)');
    const page = this.page;
    await page.locator('select#create-rules').selectOption(rules);
    await page.locator('input#create-seed').fill(String(seed));
    await page.locator('select#create-kibitz').selectOption(kibitz);
    if (household) await page.locator('input#create-household').check();
    for (const s of ['E', 'S', 'W']) {
      const box = page.locator(`form#create input[name=bot][value=${s}]`);
      if (bots.includes(s)) await box.check();
      else await box.uncheck();
    }
    await page.locator('select#create-level').selectOption(level);
    await page.locator('input#create-delay').fill(String(delay));
    await page.locator('select#create-sit').selectOption(sit);
    await sc.shot(this, 'create-form', { focus: 'form#create' });
    await this.click('#create-submit');
    this.seat = sit;
    return this.until((s) => s.table && s.you === sit && s.at !== null && s.phase, `#table[data-you=${sit}] with data-phase and data-at after creating the table`, 15000);
  }

  /** Opens the score window (#score) unless it is open. */
  async openScore() {
    if ((await this.count('#score')) === 0 || !(await this.page.locator('#score').first().isVisible())) {
      await this.click('button#score-btn');
    }
    await this.visible('#score', 'the score window (#score)');
  }

  async closeScore() {
    const close = this.page.locator('#score').getByRole('button', { name: /close/i });
    if ((await close.count()) > 0) await this.click(close.first(), { what: "the score window's close button" });
    else if (await this.page.locator('button#score-btn').isVisible()) await this.click('button#score-btn');
    else await this.page.keyboard.press('Escape');
    await this.page
      .locator('#score')
      .first()
      .waitFor({ state: 'hidden', timeout: 3000 })
      .catch(() => this.sc.note(`${this.name}: the score window did not close`));
  }
}

// ------------------------------------------------------- small helpers

/** A small deterministic random source, so the person's choices repeat. */
export function rng(seed) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 4294967296;
  };
}

/** "−12" (U+2212), "+5", "0" to numbers. */
export function numbers(text) {
  return [...String(text).replace(/\u2212/g, '-').matchAll(/[+-]?\d+/g)].map((m) => Number(m[0]));
}

export function sameSet(a, b) {
  if (a.length !== b.length) return false;
  const s = new Set(a);
  return b.every((x) => s.has(x));
}
