// The club's hand viewer (issue 24, point 5): a whole finished game of four
// computer players (a short seeded uk-32 game, made over the protocol) opened
// at /club/viewer#game=ID and walked deal by deal, step by step, with the
// keys and the buttons; every step's hands and trick checked against the
// game's record (downloaded from /club/api/game/ID/record and parsed here,
// not by the engine); steps back give the same tables; the address keeps
// the place.  Then record files picked from disk or dropped on the page: a
// Fife game with its Silly Round (cuts, Pass-ons), Chinese Poker (rows;
// dropped), a Domino deal (the layout), and a broken record, whose
// sentence is the one `barbu replay` prints.  Screenshots at 1280x800 and 390x844; axe on each.

import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { check, fail, SEATS } from './harness.mjs';
import { auditBoth } from './axe.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const GOLDEN = resolve(here, '..', '..', '..', 'golden');

// A short game: No Tricks and Trumps twice each (four deals of 8 tricks),
// no compulsory doubles, so that some deal is doubled and some is not.
const HOUSE = [
  'mandatory-doubles = 0',
  'domino.per-player = 0',
  'no-king.per-player = 0',
  'no-last-two.per-player = 0',
  'no-hearts.per-player = 0',
  'no-queens.per-player = 0',
  'trumps.per-trick = 2',
  'trumps.times = 2',
  'no-tricks.per-trick = -2',
  'no-tricks.times = 2',
  '',
].join('\n');

const SUIT_ORDER = ['S', 'H', 'D', 'C'];

/** "AQ.KT9.-.J8" (spades, hearts, diamonds, clubs) -> ["AS", "QS", "KH", ...]. */
function pbnHand(text) {
  const parts = text.split('.');
  if (parts.length !== 4) fail(`a hand of the record is not four suits: ${text}`);
  const cards = [];
  parts.forEach((ranks, i) => {
    if (ranks === '-') return;
    for (const r of ranks) cards.push(r + SUIT_ORDER[i]);
  });
  return cards;
}

/** The record's deals as this test reads them: declarer, the hands as
 * dealt (the Hands tag starts at its seat and goes clockwise), the bids,
 * the tricks (leader and cards in order), Score and Final. */
export function parseRecord(text) {
  const deals = [];
  let d = null;
  let section = null;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('%')) continue;
    const tag = /^\[(\w+) "([^"]*)"\]$/.exec(line);
    if (tag) {
      const [, k, v] = tag;
      if (k === 'Deal') {
        d = { deal: Number(v), declarer: null, hands: {}, contract: null, bids: [], tricks: [], score: null, final: null };
        deals.push(d);
        section = null;
      } else if (d && k === 'Declarer') d.declarer = v;
      else if (d && k === 'Contract') d.contract = v;
      else if (d && k === 'Hands') {
        const [first, ...hands] = v.replace(/^([NESW]):/, '$1 ').split(' ');
        const at = SEATS.indexOf(first);
        hands.forEach((hnd, i) => (d.hands[SEATS[(at + i) % 4]] = pbnHand(hnd)));
      } else if (d && (k === 'Score' || k === 'Final')) {
        const m = v.match(/[NESW] [+-]?\d+/g) ?? [];
        const o = {};
        for (const x of m) o[x[0]] = Number(x.slice(2));
        d[k === 'Score' ? 'score' : 'final'] = o;
      }
      continue;
    }
    const sec = /^\[(\w+)\]$/.exec(line);
    if (sec) {
      section = sec[1];
      continue;
    }
    if (!d) continue;
    if (section === 'Bidding') d.bids.push({ seat: line[0], text: line.slice(2) });
    else if (section === 'Play') {
      const m = /^([NESW]): (.*)$/.exec(line);
      if (!m) fail(`a play line of the record that this test does not read: ${line}`);
      d.tricks.push({ leader: m[1], cards: m[2].split(' ') });
    }
  }
  return deals;
}

/** What the viewer should show after each step of a deal, from the record
 * alone: the hands, and the trick (the one under way, or the one just
 * finished with its winner: the next trick's leader). */
function expectedSteps(d) {
  const hands = Object.fromEntries(SEATS.map((s) => [s, [...d.hands[s]]]));
  const snap = (trick) => ({ hands: Object.fromEntries(SEATS.map((s) => [s, [...hands[s]].sort().join(' ')])), trick });
  const steps = [];
  steps.push({ kind: 'declare', seat: d.declarer, ...snap(null) });
  for (const b of d.bids) steps.push({ kind: 'bid', seat: b.seat, ...snap(null) });
  d.tricks.forEach((t, k) => {
    const start = SEATS.indexOf(t.leader);
    t.cards.forEach((c, i) => {
      const seat = SEATS[(start + i) % 4];
      const at = hands[seat].indexOf(c);
      if (at < 0) fail(`the record's deal ${d.deal} has ${seat} play ${c}, not in the hand as parsed`);
      hands[seat].splice(at, 1);
      const done = i === t.cards.length - 1;
      const winner = done ? (d.tricks[k + 1]?.leader ?? null) : null;
      steps.push({ kind: 'play', seat, card: c, ...snap({ leader: t.leader, cards: t.cards.slice(0, i + 1).join(' '), winner, done }) });
    });
  });
  return steps;
}

/** What the page shows now. */
async function shown(page) {
  return page.evaluate(() => {
    const v = document.querySelector('#viewer');
    const hands = {};
    for (const el of document.querySelectorAll('.vhand[data-seat]')) hands[el.dataset.seat] = (el.dataset.cards ?? '').split(' ').filter(Boolean).sort().join(' ');
    const t = document.querySelector('#viewer-trick');
    return {
      deal: Number(v?.dataset.deal),
      step: Number(v?.dataset.step),
      steps: Number(v?.dataset.steps),
      phase: v?.dataset.phase,
      hands,
      trick: t ? { leader: t.dataset.leader ?? null, cards: t.dataset.cards ?? '', winner: t.dataset.winner ?? null } : null,
      words: document.querySelector('#viewer-step')?.textContent ?? '',
      kind: document.querySelector('#viewer-step')?.dataset.kind ?? '',
      hash: location.hash,
      result: document.querySelector('#viewer-result')?.hidden === false,
    };
  });
}

function sameHands(got, want, where) {
  for (const s of SEATS) check(got.hands[s] === want.hands[s], `${where}: ${s}'s hand should be the record's`, { expected: want.hands[s], actual: got.hands[s] });
}

function checkStep(got, want, where) {
  check(got.kind === want.kind, `${where}: the step should be a ${want.kind}`, { expected: want.kind, actual: got.kind });
  sameHands(got, want, where);
  if (want.kind === 'play') {
    check(!!got.trick, `${where}: a trick should show`, { actual: got });
    const tr = want.trick;
    check(got.trick.cards === tr.cards, `${where}: the trick's cards should be the record's, in order`, { expected: tr.cards, actual: got.trick.cards });
    check(got.trick.leader === tr.leader, `${where}: the trick's leader`, { expected: tr.leader, actual: got.trick.leader });
    if (tr.done && tr.winner) check(got.trick.winner === tr.winner, `${where}: the finished trick's winner should lead the next`, { expected: tr.winner, actual: got.trick.winner });
    if (!tr.done) check(got.trick.winner === null, `${where}: a trick under way has no winner`, { actual: got.trick });
    const short = want.card.replace(/^T/, '10').slice(0, -1);
    check(got.words.includes(`${want.seat} plays ${short}`), `${where}: the step read out should name the card`, { expected: `${want.seat} plays ${short}...`, actual: got.words });
  }
}

/** Makes the game over the protocol in a tab of p's browser and waits for
 * the archive to list it over; returns its game number. */
export async function makeGame(sc, p) {
  const page = await p.context.newPage();
  await page.goto(sc.server.url);
  const table = await page.evaluate(async (house) => {
    const ws = new WebSocket(`${location.origin.replace(/^http/, 'ws')}/ws`);
    await new Promise((res, rej) => {
      ws.onopen = res;
      ws.onerror = rej;
    });
    const next = (pred) =>
      new Promise((res) => {
        const f = (e) => {
          const m = JSON.parse(e.data);
          if (pred(m)) {
            ws.removeEventListener('message', f);
            res(m);
          }
        };
        ws.addEventListener('message', f);
      });
    ws.send(JSON.stringify({ type: 'hello', version: 1, name: 'robo-v' }));
    await next((m) => m.type === 'welcome' || m.type === 'error');
    ws.send(JSON.stringify({ type: 'create', rules: 'uk-32', house, bots: ['N', 'E', 'S', 'W'], level: 'easy', delay: 0, kibitz: 'all', seed: '3' }));
    const m = await next((m) => m.type === 'created' || m.type === 'error');
    return m.type === 'created' ? m.table : `${m.code}: ${m.text}`;
  }, HOUSE);
  check(typeof table === 'number', 'a uk-32 table of four computer players should be created over the protocol', { actual: table });
  let row = null;
  const t0 = Date.now();
  for (let i = 0; i < 150 && !row; i++) {
    const got = await page.evaluate(async () => (await fetch('/club/api/games')).json());
    row = got.rows?.find((r) => r.status === 'over') ?? null;
    if (!row) await page.waitForTimeout(100);
  }
  sc.log(`the archive lists game ${row?.id} as over after ${Date.now() - t0} ms`);
  check(!!row, 'the game of four computer players should be over and in the archive within 15 s', { actual: row });
  await page.close();
  return row.id;
}

export async function fetchText(page, url) {
  return page.evaluate(async (u) => {
    const r = await fetch(u);
    return { status: r.status, type: r.headers.get('content-type'), text: await r.text() };
  }, url);
}

async function step(p, how) {
  const page = p.page;
  if (how === 'key') await page.keyboard.press('ArrowRight');
  else await page.locator('#viewer-next').click();
  p.sc.stats.clicks++;
}

async function openFile(p, file) {
  await p.page.locator('#viewer-file').setInputFiles(file);
}

async function club_viewer(sc) {
  const p = await sc.person('ann');
  p.sc = sc;
  const page = p.page;
  const id = await makeGame(sc, p);
  sc.log(`game ${id} over`);

  await page.goto(new URL(`/club/viewer#game=${id}`, sc.server.url).href);
  const rec = await fetchText(page, `/club/api/game/${id}/record`);
  check(rec.status === 200 && /^text\/plain/.test(rec.type ?? ''), 'the game\'s record should download as text', { actual: rec.status });
  const deals = parseRecord(rec.text);
  check(deals.length === 4, 'the short game should have four deals', { actual: deals.length });
  await page.locator('#viewer[data-state=shown]').waitFor({ timeout: 10000 });
  const options = await page.locator('#viewer-deal option').count();
  check(options === deals.length, 'the deal selector should list every deal of the record', { expected: deals.length, actual: options });

  // Every deal, every step, forward: the button on every third step, the
  // key on the others; each table as the record has it.
  const seen = [];
  let notPlayed = 0;
  for (const d of deals) {
    const want = expectedSteps(d);
    let got = await shown(page);
    check(got.deal === d.deal && got.step === 0, `deal ${d.deal} should open at its first step`, { actual: got });
    check(got.steps === want.length, `deal ${d.deal}: the viewer's steps should be the record's actions`, { expected: want.length, actual: got.steps });
    sameHands(got, { hands: Object.fromEntries(SEATS.map((s) => [s, [...d.hands[s]].sort().join(' ')])) }, `deal ${d.deal} as dealt`);
    const mine = [got];
    for (let k = 0; k < want.length; k++) {
      await step(p, k % 3 === 1 ? 'button' : 'key');
      got = await shown(page);
      check(got.step === k + 1 && got.deal === d.deal, `deal ${d.deal}: the step after ${k} should be ${k + 1}`, { actual: got });
      checkStep(got, want[k], `deal ${d.deal}, step ${k + 1}`);
      check(got.hash === `#game=${id}&deal=${d.deal}&step=${k + 1}`, 'the address should keep the place', { actual: got.hash });
      mine.push(got);
      if (k === 10) await sc.shot(p, 'trick', { focus: '#viewer-table' });
    }
    check(got.result, `deal ${d.deal}: its points should show at its last step`, { actual: got });
    const points = await page.evaluate(() =>
      Object.fromEntries([...document.querySelectorAll('#viewer-result tr[data-seat]')].map((tr) => [tr.dataset.seat, { raw: tr.querySelector('.raw')?.textContent, score: tr.querySelector('.score')?.textContent }])),
    );
    const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `\u2212${-n}` : '0');
    for (const s of SEATS) {
      check(points[s]?.raw === signed(d.score[s]), `deal ${d.deal}: ${s}'s points before doubles should be the record's Score`, { expected: signed(d.score[s]), actual: points[s] });
      check(points[s]?.score === signed(d.final[s]), `deal ${d.deal}: ${s}'s points after doubles should be the record's Final`, { expected: signed(d.final[s]), actual: points[s] });
    }
    if (d.tricks.length === 0) notPlayed++;
    if (d.tricks.length > 0 && !sc.shots.has('deal-end')) await sc.shot(p, 'deal-end', { focus: '#viewer-result' });
    seen.push(mine);
    sc.stats.deals++;
    // Next from a deal's last step opens the next deal.
    if (d !== deals[deals.length - 1]) await step(p, 'button');
  }
  check(await page.locator('#viewer-next').isDisabled(), 'Next should be off at the game\'s last step');

  // Back: every step of the last deal with the left arrow and the button,
  // each table the one seen going forward; then across into the deal before.
  const lastDeal = deals[deals.length - 1];
  const mine = seen[seen.length - 1];
  for (let k = mine.length - 2; k >= 0; k--) {
    if (k % 3) await page.keyboard.press('ArrowLeft');
    else await page.locator('#viewer-prev').click();
    const got = await shown(page);
    check(got.step === k, `back to step ${k} of deal ${lastDeal.deal}`, { actual: got });
    check(JSON.stringify({ ...got, hash: '', words: '', result: false }) === JSON.stringify({ ...mine[k], hash: '', words: '', result: false }), `deal ${lastDeal.deal}, step ${k}: stepping back should restore the table seen going forward`, { expected: mine[k], actual: got });
  }
  await page.locator('#viewer-prev').click();
  let got = await shown(page);
  const before = seen[seen.length - 2];
  check(got.deal === lastDeal.deal - 1 && got.step === before.length - 1, 'back from a deal\'s first step should go to the end of the deal before', { actual: got });
  // Home and End, the first and last buttons.
  await page.keyboard.press('Home');
  got = await shown(page);
  check(got.step === 0, 'Home should go to the deal as dealt', { actual: got });
  await page.keyboard.press('End');
  got = await shown(page);
  check(got.step === before.length - 1, 'End should go to the deal\'s last step', { actual: got });
  await page.locator('#viewer-first').click();
  check((await shown(page)).step === 0, '#viewer-first should go to the first step');
  await page.locator('#viewer-last').click();
  check((await shown(page)).step === before.length - 1, '#viewer-last should go to the last step');
  // The deal selector, and an address opened afresh at a step.
  await page.locator('#viewer-deal').selectOption('1');
  got = await shown(page);
  check(got.deal === 2 && got.step === 0, 'the deal selector should open deal 2', { actual: got });
  const played = deals.findIndex((d) => d.tricks.length > 0);
  const at = Math.min(9, seen[played].length - 1);
  await page.goto(new URL(`/club/viewer#game=${id}&deal=${played + 1}&step=${at}`, sc.server.url).href);
  await page.locator('#viewer[data-state=shown]').waitFor({ timeout: 10000 });
  got = await shown(page);
  check(JSON.stringify({ ...got.hands }) === JSON.stringify(seen[played][at].hands) && got.step === at, 'the address should open the viewer at its deal and step', { expected: seen[played][at], actual: got });
  await auditBoth(sc, p, 'the hand viewer at a trick');

  // A record file from disk: the Fife game's Silly Round.
  const fifeText = readFileSync(join(GOLDEN, 'fife-worked-silly-round.txt'), 'utf8');
  const fifeDeals = (fifeText.match(/^\[Deal "/gm) ?? []).length;
  await openFile(p, join(GOLDEN, 'fife-worked-silly-round.txt'));
  await page.locator('#viewer-deal option').nth(fifeDeals - 1).waitFor({ state: 'attached', timeout: 10000 });
  check((await page.locator('#viewer-deal option').count()) === fifeDeals, 'a Fife record picked from disk should show all its deals', { expected: fifeDeals });
  check((await page.locator('#viewer-error').isHidden()), 'a good record shows no error');
  const silly = await page.evaluate(() => [...document.querySelectorAll('#viewer-deal option')].findIndex((o) => /Silly Round/.test(o.textContent ?? '')));
  check(silly >= 0, 'the Fife record\'s deal list should name the Silly Round');
  await page.locator('#viewer-deal').selectOption(String(silly));
  await page.evaluate(() => document.activeElement?.blur());
  // Forward until the cuts have made a Pass-on and the Pass-on is done.
  for (let k = 0; k < 40; k++) {
    if ((await page.locator('#viewer-pass-ons li[data-pass-on]').count()) > 0) break;
    await page.keyboard.press('ArrowRight');
  }
  check((await page.locator('#viewer-cuts li').count()) > 0, 'the Silly Round should show its cuts with what they meant');
  check((await page.locator('#viewer-pass-ons li[data-pass-on] .vcard').count()) >= 12, 'a Pass-on should show each seat\'s cards');
  const callsText = await page.locator('#viewer-calls').textContent();
  check(/Calls: \S/.test(callsText ?? ''), 'the Calls should show', { actual: callsText });
  await sc.shot(p, 'fife-cuts', { focus: '#viewer-fife' });
  await page.locator('#viewer-last').click();
  check(await page.locator('#viewer-result').isVisible(), 'the Silly Round deal\'s points should show at its end');

  // Chinese Poker, dropped on the page: the rows at the showdown.
  const dropped = readFileSync(join(GOLDEN, 'chinese-rows-scoop.txt'), 'utf8');
  const dt = await page.evaluateHandle((text) => {
    const d = new DataTransfer();
    d.items.add(new File([text], 'chinese-rows-scoop.txt', { type: 'text/plain' }));
    return d;
  }, dropped);
  await page.locator('#viewer').dispatchEvent('dragover', { dataTransfer: dt });
  await page.locator('#viewer').dispatchEvent('drop', { dataTransfer: dt });
  await page.waitForFunction(() => document.querySelector('.viewer-title')?.textContent?.includes('chinese-rows-scoop.txt'), null, { timeout: 10000 });
  await page.locator('#viewer-last').click();
  const rows = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll('#viewer-rows .vrows')].map((r) => [r.dataset.seat, [...r.querySelectorAll('.vrow')].map((x) => x.querySelectorAll('.vcard').length)])));
  for (const s of SEATS) check(JSON.stringify(rows[s]) === '[5,5,3]', `the showdown should show ${s}'s back, middle and front rows`, { actual: rows[s] });
  await sc.shot(p, 'chinese-rows', { focus: '#viewer-rows' });

  // Domino: the layout.
  await openFile(p, join(GOLDEN, 'deck32-no-hearts-domino.txt'));
  await page.waitForFunction(() => document.querySelector('.viewer-title')?.textContent?.includes('deck32-no-hearts-domino.txt'), null, { timeout: 10000 });
  const domino = await page.evaluate(() => [...document.querySelectorAll('#viewer-deal option')].findIndex((o) => /Domino/.test(o.textContent ?? '')));
  check(domino >= 0, 'the Domino record should list its Domino deal');
  await page.locator('#viewer-deal').selectOption(String(domino));
  await page.evaluate(() => document.activeElement?.blur());
  for (let k = 0; k < 8; k++) await page.keyboard.press('ArrowRight');
  check((await page.locator('#viewer-layout li[data-suit]').count()) === 4, 'a Domino deal should show its layout, a line a suit');
  await sc.shot(p, 'domino-layout', { focus: '#viewer-layout' });

  // A broken record: a card played twice.  The page shows the server's
  // sentence, which is the one barbu replay prints for the file.
  const broken = rec.text.replace(/(\[Play\]\n[NESW]: )(\S+) (\S+)/, (_, a, c1) => `${a}${c1} ${c1}`);
  check(broken !== rec.text, 'the test should make a broken record');
  const dir = sc.tmp('viewer');
  const file = join(dir, 'broken.txt');
  writeFileSync(file, broken);
  const cli = spawnSync(sc.opts.barbu, ['replay', file], { encoding: 'utf8' });
  const said = /broken\.txt:(\d+): (.*)/.exec(cli.stderr ?? '');
  check(cli.status === 1 && said, 'barbu replay should refuse the broken record', { actual: cli.stderr });
  await openFile(p, file);
  await page.locator('#viewer-error').waitFor({ state: 'visible', timeout: 10000 });
  const err = (await page.locator('#viewer-error').textContent()) ?? '';
  check(err.includes(`line ${said[1]}: ${said[2]}`), 'the page should show the record reader\'s sentence with its line', { expected: `line ${said[1]}: ${said[2]}`, actual: err });
  await sc.shot(p, 'error', { focus: '#viewer-error' });
  await auditBoth(sc, p, 'the hand viewer with a refused record');
  sc.stats.extra = `game=${id} steps=${seen.reduce((n, m) => n + m.length - 1, 0)} not-played=${notPlayed}`;
}

export const CLUB_VIEWER = { club_viewer };
