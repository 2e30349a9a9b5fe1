// Issue 22, points 8 and 10 (the kibitzers, and the small things seen), in
// one scenario, `evening_d`, with three people:
//
// - table 1 (classic, seed 1: North declares first; every hand may be
//   watched; a household's, since every browser here is at 127.0.0.1): ann
//   (North) and bob (East), two computer players.  kib watches every hand
//   before the first card: the four hands and seats fit at 1280x800 and
//   390x844 (bounding boxes: inside the viewport, no two overlapping); kib's
//   chat line shows in the kibitzers' log, ann's in the players' log, and
//   ann's page never shows kib's line.  No prompt is drawn red before the
//   first action (computed colour).  bob doubles ann: her page says
//   "doubled you".  After ann's declaration, her bid and her card the focus
//   is in #hand.  bob leaves on his turn: the page says East's seat is empty
//   and that bob left (not "East to play"), and the chat has one system
//   line; ann seats a computer player there: a second line.  Offline (the
//   page's connection cut): every action button is disabled with a title
//   saying why; back online, the buttons work again and no system line
//   repeats.
// - bob, having left, makes a Fife table (seed 6: he is the first Caller):
//   the Calls panel's prompt is not red before he picks anything, and is red
//   once his choice is wrong.
// - kib, meanwhile: a Fife table of four computer players (made over the
//   protocol from a second tab), watched to its end: the panel says how many
//   Sets were played, never "Set 2 of 1".  Then a short game of his own
//   (No King only, the 32-card pack: four deals) played to its end; back in
//   the lobby he watches it: his seat reads "you, watching", not "offline".

import { check, DESKTOP, fail, frames, PHONE, sleep } from './harness.mjs';

/** A game of four deals of No King with the 32-card pack (every other
 * contract left out, its scores 0 so the game still sums to zero), no
 * compulsory doubles. */
export const SHORT_RULES = [
  'preset = uk-32',
  'mandatory-doubles = 0',
  'no-tricks.per-player = 0',
  'no-hearts.per-player = 0',
  'no-queens.per-player = 0',
  'no-last-two.per-player = 0',
  'trumps.per-player = 0',
  'domino.per-player = 0',
  'no-king.card.all = 0',
  'no-king.rules = hearts-lead',
  '',
].join('\n');

// ---------------------------------------------------------------- pieces

async function joined(sc, name, handle, { cuttable = false } = {}) {
  const p = await sc.person(name);
  if (cuttable) await cuttableNet(p);
  await p.open();
  await p.login(handle);
  return p;
}

/** The lobby row of a table (by a player's handle or the table's id). */
function row(p, { handle, id }) {
  const rows = p.page.locator(id !== undefined ? `#lobby [data-table="${id}"]` : '#lobby [data-table]');
  return handle ? rows.filter({ hasText: handle }).first() : rows.first();
}

/** The page's connection to the server goes through Playwright, so the
 * test can cut it (`p.net.cut(true)`: the socket closes and every new one
 * is refused, the browser is offline) and give it back. */
async function cuttableNet(p) {
  const live = new Set();
  let cut = false;
  await p.page.routeWebSocket(/\/ws$/, (ws) => {
    if (cut) {
      ws.close({ code: 4000, reason: 'the test cut the network' });
      return;
    }
    live.add(ws);
    ws.onClose(() => live.delete(ws));
    ws.connectToServer();
  });
  p.net = {
    async cut(on) {
      cut = on;
      await p.context.setOffline(on);
      if (on) for (const ws of [...live]) await ws.close({ code: 4000, reason: 'the test cut the network' });
    },
  };
}

async function clickIn(p, loc, what) {
  await loc.waitFor({ state: 'visible', timeout: 10000 }).catch(() => fail(`${p.name}: ${what} did not show`, { page: p }));
  await p.click(loc, { what });
}

/** Leaves the table (answering a confirmation dialog if the page asks).
 * The table is drawn afresh on every move, so a click may fall between two
 * drawings: a person would click again. */
async function leave(p) {
  for (let i = 0; ; i++) {
    await p.click('button#leave-btn');
    const yes = p.page.locator('dialog[open] #confirm-yes');
    if (await yes.waitFor({ state: 'visible', timeout: 800 }).then(() => true, () => false)) await p.click(yes, { what: '#confirm-yes' });
    const gone = await p.until((x) => x.lobby && !x.table, '#lobby after leaving the table', i < 2 ? 3000 : 10000).then(() => true, (e) => (i < 2 ? false : Promise.reject(e)));
    if (gone) return;
    p.sc.log(`${p.name}: still at the table after clicking #leave-btn: clicking again`);
  }
}

/** The table form with house rules and any options. */
export async function create(sc, p, { rules, seed, house, bots, level = 'easy', delay = 0, kibitz = 'seat', household = false, sit = 'N' }) {
  await p.click('#new-table');
  await p.visible('form#create', 'the new-table form (form#create)');
  const page = p.page;
  await page.locator('select#create-rules').selectOption(rules);
  if (seed !== undefined) await page.locator('input#create-seed').fill(String(seed));
  await page.locator('select#create-kibitz').selectOption(kibitz);
  if (household) await page.locator('input#create-household').check();
  if (house) {
    await page.evaluate(() => {
      const d = document.querySelector('#create-house')?.closest('details');
      if (d) d.open = true;
    });
    await page.locator('#create-house').fill(house);
  }
  await page.locator('select#create-sit').selectOption(sit);
  for (const s of ['N', 'E', 'S', 'W']) {
    const box = page.locator(`form#create input[name=bot][value=${s}]`);
    if ((await box.count()) === 0 || !(await box.isEnabled())) continue;
    if (bots.includes(s)) await box.check();
    else await box.uncheck();
  }
  await page.locator('select#create-level').selectOption(level);
  await page.locator('input#create-delay').fill(String(delay));
  await p.click('#create-submit');
  p.seat = sit;
  return p.until((s) => s.table && s.you === sit && s.at !== null && s.phase, `#table[data-you=${sit}] after creating the table`, 15000);
}

/** Text whose computed colour is red (an error's colour), among the
 * prompts and panels of the table; suit symbols and cards are not text. */
function redPrompts(p) {
  return p.page.evaluate(() => {
    const red = (c) => {
      const m = /rgba?\((\d+), (\d+), (\d+)/.exec(c);
      if (!m) return false;
      const [r, g, b] = m.slice(1).map(Number);
      return r >= 110 && r > 2 * g && r > 2 * b;
    };
    const sel = '#table .panel p, #table .panel h2, #table .panel-status, #table .bar-turn, #table .centre-note, #table .hand-note, #table .advice';
    return [...document.querySelectorAll(sel)]
      .filter((e) => e.offsetParent !== null && e.textContent.trim() && !e.closest('.suit, svg, .card, .mini-card'))
      .filter((e) => red(getComputedStyle(e).color))
      .map((e) => ({ text: e.textContent.trim().slice(0, 80), color: getComputedStyle(e).color, cls: e.className }));
  });
}

async function noRedPrompt(p, when) {
  const reds = await redPrompts(p);
  check(reds.length === 0, `${p.name}: ${when}, nothing the player has done is wrong, yet a prompt is drawn red`, { expected: 'no red text', actual: reds, page: p });
}

/** Where the keyboard focus is: an element of #hand? */
function focusInHand(p) {
  return p.page.evaluate(() => {
    const a = document.activeElement;
    return { inHand: !!a?.closest?.('#hand'), card: a?.getAttribute?.('data-card') ?? null, tag: a?.tagName ?? null, id: a?.id ?? null };
  });
}

async function focusReturned(p, after) {
  // The view after the action comes within a frame or two of the answer.
  let f;
  for (let i = 0; i < 40; i++) {
    f = await focusInHand(p);
    if (f.inHand) return f;
    await sleep(50);
  }
  fail(`${p.name}: after ${after} the keyboard focus should be back in #hand`, { expected: 'document.activeElement inside #hand', actual: f, page: p });
}

/** The all-hands view at one size: every seat and every hand inside the
 * viewport (the felt scrolled to the top), no two seats and no two hands
 * overlapping, no hand wider than its seat. */
async function handsFit(p, size) {
  await p.page.setViewportSize(size);
  await frames(p.page);
  await p.page.evaluate(() => document.querySelector('#table .felt')?.scrollIntoView({ block: 'start' }));
  await frames(p.page);
  const r = await p.page.evaluate(() => {
    const box = (e) => {
      const b = e.getBoundingClientRect();
      return { x: Math.round(b.left), y: Math.round(b.top), r: Math.round(b.right), b: Math.round(b.bottom), w: Math.round(b.width), h: Math.round(b.height) };
    };
    const shown = (e) => !!e && e.getClientRects().length > 0 && getComputedStyle(e).display !== 'none' && e.getBoundingClientRect().width > 0;
    const seats = [...document.querySelectorAll('#table .seat[data-seat]')].map((e) => {
      const seat = e.getAttribute('data-seat');
      const bottom = e.getAttribute('data-place') === 'bottom';
      let hand = null;
      let cards = [];
      if (bottom) {
        const el = document.querySelector('#hand');
        hand = el ? box(el) : null;
        cards = [...document.querySelectorAll('#hand .card')].map(box);
      } else {
        const pics = e.querySelector('.seat-hand-cards');
        const text = e.querySelector('.seat-hand-text');
        const el = shown(pics) ? pics : shown(text) ? text : null;
        hand = el ? { ...box(el), as: el === pics ? 'cards' : 'text', clipped: el.scrollWidth > el.clientWidth + 1 } : null;
        cards = el === pics ? [...pics.querySelectorAll('.mini-card')].map(box) : [];
      }
      return { seat, bottom, box: box(e), hand, cards, n: bottom ? document.querySelectorAll('#hand .card').length : e.querySelectorAll('.seat-hand-cards .mini-card').length };
    });
    return { vw: innerWidth, vh: innerHeight, seats };
  });
  const bad = [];
  const inView = (b) => b.x >= 0 && b.y >= 0 && b.r <= r.vw && b.b <= r.vh;
  const meet = (a, b) => a.x < b.r && b.x < a.r && a.y < b.b && b.y < a.b;
  check(r.seats.length === 4, `${p.name}: four .seat[data-seat] on the table`, { actual: r.seats.map((s) => s.seat), page: p });
  for (const s of r.seats) {
    if (!s.hand) bad.push(`${s.seat}: no hand shown`);
    else {
      if (!inView(s.hand)) bad.push(`${s.seat}'s hand ${JSON.stringify(s.hand)} is not inside the ${r.vw}x${r.vh} viewport`);
      if (s.hand.clipped) bad.push(`${s.seat}'s hand is clipped (wider than its box)`);
      if (!s.bottom && (s.hand.x < s.box.x - 1 || s.hand.r > s.box.r + 1)) bad.push(`${s.seat}'s hand ${JSON.stringify(s.hand)} sticks out of its seat ${JSON.stringify(s.box)}`);
    }
    if (!inView(s.box)) bad.push(`${s.seat}'s seat ${JSON.stringify(s.box)} is not inside the viewport`);
    for (const c of s.cards) if (!inView(c)) bad.push(`a card of ${s.seat} at ${JSON.stringify(c)} is outside the viewport`);
  }
  for (let i = 0; i < r.seats.length; i++) {
    for (let j = i + 1; j < r.seats.length; j++) {
      const a = r.seats[i];
      const b = r.seats[j];
      if (meet(a.box, b.box)) bad.push(`the seats ${a.seat} and ${b.seat} overlap`);
      if (a.hand && b.hand && meet(a.hand, b.hand)) bad.push(`the hands of ${a.seat} and ${b.seat} overlap`);
      // The bottom hand lies under its seat's box; no other seat may cover it.
      if (a.bottom && a.hand && meet(a.hand, b.box)) bad.push(`${b.seat}'s seat covers the hand of ${a.seat}`);
      if (b.bottom && b.hand && meet(b.hand, a.box)) bad.push(`${a.seat}'s seat covers the hand of ${b.seat}`);
    }
  }
  check(bad.length === 0, `${p.name}: at ${size.width}x${size.height} the all-hands view should fit: ${bad.join('; ')}`, { expected: 'every seat and hand inside the viewport, none overlapping', actual: r, page: p });
  return r;
}

/** The chat lines of a log ([data-channel=players|kibitzers]). */
function lines(p, channel) {
  return p.page.evaluate((c) => {
    const sec = document.querySelector(`#chat-log [data-channel=${c}]`);
    if (!sec || sec.hidden) return null;
    return [...sec.querySelectorAll('li')].map((li) => li.textContent.trim());
  }, channel);
}

async function say(p, text) {
  await p.page.locator('input#chat-text').fill(text);
  await p.page.locator('input#chat-text').press('Enter');
}

async function heard(p, channel, text, what) {
  const end = Date.now() + 5000;
  let got;
  for (;;) {
    got = await lines(p, channel);
    if (got?.some((l) => l.includes(text))) return got;
    if (Date.now() > end) fail(`${p.name}: ${what}`, { expected: `"${text}" in #chat-log [data-channel=${channel}]`, actual: got, page: p });
    await sleep(50);
  }
}

function systemLines(p) {
  return p.page.locator('#chat-log li.system-line').allTextContents();
}

/** Runs the protocol in a page of its own (a second tab of `p`'s browser):
 * the four computer players' Fife table, made and left running.  Its
 * players wait 5 ms a move (some 1,500 moves): with no wait at all the
 * game could end, and its table close, before the kibitzer's click. */
async function botsOnlyFife(sc, p) {
  const page = await p.context.newPage();
  await page.goto(sc.server.url);
  const id = await page.evaluate(async () => {
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
    ws.send(JSON.stringify({ type: 'hello', version: 1, name: 'robo-d' }));
    await next((m) => m.type === 'welcome' || m.type === 'error');
    ws.send(JSON.stringify({ type: 'create', rules: 'fife', bots: ['N', 'E', 'S', 'W'], level: 'random', delay: 5, kibitz: 'all', seed: '5' }));
    const m = await next((m) => m.type === 'created' || m.type === 'error');
    return m.type === 'created' ? m.table : `${m.code}: ${m.text}`;
  });
  check(typeof id === 'number', 'a Fife table of four computer players should be created over the protocol', { actual: id });
  await page.close();
  return id;
}

/** Plays the short game to its end as fast as a person clicks: No King,
 * no doubles, the King of Hearts as soon as it may go (the deal ends when
 * it is taken), else the first card that may be played. */
export async function playToEnd(sc, p, limitMs) {
  const end = Date.now() + limitMs;
  let n = 0;
  for (;;) {
    const s = await p.state();
    if (s.phase === 'over') return { state: s, actions: n };
    if (Date.now() > end) fail(`${p.name}: the short game did not end within ${limitMs / 1000} s`, { actual: s, page: p });
    if (s.conn !== 'open' || s.toMove !== p.seat) {
      await sleep(25);
      continue;
    }
    if (s.phase === 'declare') {
      if ((await p.count('#declare button[data-contract="no-king"]')) === 0) {
        await sleep(25);
        continue;
      }
      await p.click('#declare button[data-contract="no-king"]');
    } else if (s.phase === 'bid') {
      if ((await p.count('#bid-submit:enabled')) === 0) {
        await sleep(25);
        continue;
      }
      await p.click('#bid-submit');
    } else if (s.phase === 'play') {
      const ok = s.hand.filter((c) => !c.disabled).map((c) => c.card);
      if (ok.length === 0) {
        await sleep(25);
        continue;
      }
      const card = ok.includes('KH') ? 'KH' : ok[0];
      await p.click(`#hand button.card[data-card="${card}"]`);
    } else {
      fail(`${p.name}: an unexpected phase ${s.phase} in the short game`, { actual: s, page: p });
    }
    n++;
    await p.until((x) => x.at !== s.at || x.phase === 'over' || (x.notice?.alert && x.notice.text !== s.notice?.text), `data-at to move on from ${s.at}`, 10000, 15);
  }
}

// -------------------------------------------------------------- scenario

async function evening_d(sc) {
  await sc.start();
  // Three people, their browsers started side by side.
  const [ann, bob, kib] = await Promise.all([
    joined(sc, 'ann', 'ann-d', { cuttable: true }),
    joined(sc, 'bob', 'bob-d'),
    joined(sc, 'kib', 'kib-d'),
  ]);
  const s0 = await create(sc, ann, { rules: 'classic', seed: 1, bots: ['S', 'W'], kibitz: 'all', household: true, delay: 150 });
  check(s0.phase === 'waiting', 'table 1 should wait for East', { actual: s0, page: ann });
  const t1 = Number((await ann.attr('#table', 'aria-label')).replace(/\D+/g, ''));
  sc.log(`ann made table ${t1}`);

  await clickIn(bob, row(bob, { id: t1 }).locator('button[data-sit=E]'), `table ${t1}'s button[data-sit=E]`);
  bob.seat = 'E';
  await bob.until((x) => x.table && x.you === 'E' && x.phase === 'declare', "bob at East, North to declare", 10000);
  sc.log('bob sits at East: the game starts');

  // ------------------------------------------ the kibitzer, every hand
  await clickIn(kib, row(kib, { id: t1 }).locator('button[data-kibitz=all]'), `table ${t1}'s button[data-kibitz=all]`);
  kib.seat = 'kibitz';
  await kib.until((x) => x.table && x.you === 'kibitz' && x.phase === 'declare' && x.hand.length === 13, 'the kibitzer at table 1 with a 13-card hand before the first card', 10000);
  for (const size of [DESKTOP, PHONE]) {
    const r = await handsFit(kib, size);
    sc.log(`all hands at ${size.width}x${size.height}: ${r.seats.map((s) => `${s.seat} ${s.hand.as ?? 'hand'} ${s.hand.w}px/${s.box.w}px`).join(', ')}`);
  }
  await kib.page.setViewportSize(DESKTOP);

  // The kibitzers' talk apart from the players'.
  await say(kib, 'psst, from the rail');
  await heard(kib, 'kibitzers', 'psst, from the rail', "the kibitzer's line should show in the kibitzers' log");
  await say(ann, 'good luck, all');
  await heard(kib, 'players', 'good luck, all', "ann's line should show in the players' log of the kibitzer's page");
  const kt = await kib.page.locator('#chat-log [data-channel] .chat-channel-title').allTextContents();
  check(kt.length === 2 && /players/i.test(kt[0]) && /kibitzers/i.test(kt[1]), "kib: the two logs should be labelled (Players, Kibitzers)", { actual: kt, page: kib });
  const kibLog = await lines(kib, 'kibitzers');
  check(!kibLog.some((l) => l.includes('good luck')), "kib: a player's line should not be in the kibitzers' log", { actual: kibLog, page: kib });
  const annPlayers = await lines(ann, 'players');
  const annKib = await lines(ann, 'kibitzers');
  check(annKib === null && annPlayers.some((l) => l.includes('good luck')) && !annPlayers.some((l) => l.includes('psst')), "ann: during the game a player sees the players' log only, without the kibitzer's line", { actual: { annPlayers, annKib }, page: ann });
  await sc.shot(kib, 'all-hands', { focus: '#table .felt' });
  // On a phone the chat folds away: open it for the picture.
  await kib.page.setViewportSize(PHONE);
  await kib.click('#chat-toggle');
  await kib.page.setViewportSize(DESKTOP);
  await sc.shot(kib, 'kibitzer-chat', { focus: '#chat-area' });

  // From here ann and bob go on at table 1 while kib, done watching, checks
  // the end of a Fife game and then plays a short game of his own.
  await Promise.all([playersAtTable1(sc, ann, bob), (async () => {
    await leave(kib);
    await fifeOver(sc, kib);
    await ownFinished(sc, kib);
  })()]);
}

/** Table 1 from the first declaration: the prompts, "you", the focus, bob
 * leaving, offline; then bob's Fife Calls. */
async function playersAtTable1(sc, ann, bob) {

  // ------------------------------------ ann declares; bob doubles her
  await ann.visible('#declare button[data-contract="no-hearts"]', 'the contract chooser');
  await noRedPrompt(ann, 'at the contract chooser');
  let s = await ann.state();
  await ann.click('#declare button[data-contract="no-hearts"]');
  await ann.until((x) => x.at > s.at, 'the declaration accepted', 5000);
  await focusReturned(ann, 'declaring (the chooser is gone)');

  await bob.until((x) => x.toMove === 'E' && x.phase === 'bid', "bob's turn to bid", 10000);
  await bob.visible('#bid button[data-double=N]', "bob's Double North");
  await noRedPrompt(bob, 'at the doubling panel');
  await bob.click('#bid button[data-double=N]');
  await bob.attrBecomes('#bid button[data-double=N]', 'aria-pressed', 'true');
  s = await bob.state();
  await bob.click('#bid-submit');
  await bob.until((x) => x.at > s.at, "bob's bid accepted", 5000);
  const doubled = ann.page.locator('.seat[data-seat=E] .seat-bids');
  await doubled.waitFor({ state: 'visible', timeout: 5000 }).catch(() => fail("ann: East's seat should say whom East doubled (.seat-bids)", { page: ann }));
  const dtext = (await doubled.textContent()).trim();
  check(/\bdoubled you\b/.test(dtext) && !/You/.test(dtext), `ann: East's seat should say "doubled you" (lower case in the middle of the phrase), not "${dtext}"`, { expected: 'doubled you', actual: dtext, page: ann });

  // ann's turn to redouble (or not): a prompt, not an error.
  s = await ann.until((x) => x.toMove === 'N' && x.phase === 'bid', "ann's turn to redouble", 10000);
  await ann.visible('#bid-submit', "ann's doubling panel");
  await noRedPrompt(ann, 'at the redoubling panel');
  await sc.shot(ann, 'doubled-you', { focus: '.seat[data-seat=E]' });
  await ann.click('#bid-submit');
  s = await ann.until((x) => x.phase === 'play' && x.toMove === 'N', 'play to start with ann to lead', 10000);
  await focusReturned(ann, 'bidding (the doubling panel is gone)');
  const card = s.hand.find((c) => !c.disabled).card;
  await ann.click(`#hand button.card[data-card="${card}"]`);
  await ann.until((x) => !x.hand.some((c) => c.card === card), `${card} to leave the hand`, 5000);
  const f = await focusReturned(ann, `playing ${card}`);
  sc.log(`focus after ann's card: ${JSON.stringify(f)}`);

  // ----------------------------------------- bob leaves on his turn
  await bob.until((x) => x.toMove === 'E' && x.phase === 'play', "bob's turn to play", 10000);
  await leave(bob);
  const bobsPart = fifeCalls(sc, bob);
  bobsPart.catch(() => {}); // awaited below; a failure meanwhile is not unhandled
  await ann.until((x) => x.toMove === 'E', 'East still to move on ann\'s page', 5000);
  await ann.page.locator('.seat[data-seat=E].empty').waitFor({ timeout: 5000 }).catch(() => fail("ann: East's seat should be empty after bob left", { page: ann }));
  const turn = (await ann.page.locator('#table .bar-turn').textContent()).trim();
  check(/East's seat is empty/.test(turn) && /bob-d left/.test(turn) && !/East (to play|is deciding)/.test(turn), `ann: the turn line should say East's seat is empty and that bob left, not "${turn}"`, { actual: turn, page: ann });
  const centreNote = await ann.page.locator('#table .centre-note.absent').first().textContent({ timeout: 3000 }).catch(() => '');
  check(/East's seat is empty: bob-d left the table\./.test(centreNote), 'ann: the centre should say that East\'s seat is empty and what the game waits for', { actual: centreNote, page: ann });
  let sys = [];
  for (let i = 0; i < 40 && sys.length < 1; i++) {
    sys = await systemLines(ann);
    await sleep(50);
  }
  check(sys.length === 1 && /bob-d left the table/.test(sys[0]) && /East/.test(sys[0]), "ann: the chat should have one system line saying bob left East's seat", { actual: sys, page: ann });
  await sc.shot(ann, 'empty-seat', { focus: '#table .felt' });

  await ann.click('button[data-bot=E]');
  await ann.page.locator('.seat[data-seat=E]:not(.empty)').waitFor({ timeout: 5000 }).catch(() => fail('ann: a computer player should sit at East', { page: ann }));
  for (let i = 0; i < 40 && sys.length < 2; i++) {
    sys = await systemLines(ann);
    await sleep(50);
  }
  check(sys.length === 2 && /computer player/i.test(sys[1]) && /East/.test(sys[1]), "ann: a second system line should say a computer player took East's seat", { actual: sys, page: ann });

  // ------------------------------------------------- offline
  await ann.net.cut(true);
  await ann.until((x) => x.conn !== 'open', '#conn[data-state] to leave "open" once the network is cut', 15000);
  await frames(ann.page);
  const off = await ann.page.evaluate(() => {
    const local = '#score-btn, #last-trick-btn, [data-offline-ok], [data-focus="last-trick-close"], #chat-toggle, #settings-btn, #review-btn, #summary-close, #showdown-btn, #copy-invite, #confirm-no';
    return [...document.querySelectorAll('#table button, #chat-send')]
      .filter((b) => !b.matches(local) && b.offsetParent !== null)
      .map((b) => ({ id: b.id || b.getAttribute('data-card') || b.textContent.trim().slice(0, 30), disabled: b.disabled || b.getAttribute('aria-disabled') === 'true', title: b.title }));
  });
  const live = off.filter((b) => !b.disabled);
  const mute = off.filter((b) => b.disabled && b.id !== 'chat-send' && !/Not connected/.test(b.title) && !/^[2-9TJQKA][SHDC]$/.test(b.id));
  check(off.length > 0 && live.length === 0, 'ann: while disconnected every action button should be disabled', { expected: 'none enabled', actual: live, page: ann });
  const leaveBtn = off.find((b) => b.id === 'leave-btn');
  check(leaveBtn && /Not connected/.test(leaveBtn.title), 'ann: while disconnected #leave-btn should say why it is disabled (title)', { actual: leaveBtn, page: ann });
  sc.log(`offline: ${off.length} buttons disabled${mute.length ? ` (${mute.length} were disabled already)` : ''}`);
  await sc.shot(ann, 'offline', { focus: '#table' });
  await ann.net.cut(false);
  await ann.until((x) => x.conn === 'open' && x.table, '#conn[data-state=open] again, at the table', 20000);
  await ann.page.waitForFunction(() => !document.querySelector('#leave-btn')?.disabled, null, { timeout: 5000 }).catch(() => fail('ann: #leave-btn should work again once connected', { page: ann }));
  await sleep(300);
  const sys2 = await systemLines(ann);
  check(sys2.length === 2, 'ann: coming back online should repeat no system line', { expected: sys, actual: sys2, page: ann });
  await leave(ann);
  sc.log('table 1 checked: the prompts, "you", the focus, the empty seat, offline');
  await bobsPart;
}

/** bob's Fife table (seed 6: North is the first Caller): the Calls panel's
 * prompt is not red before a Call is picked, and red once the choice is wrong. */
async function fifeCalls(sc, bob) {
  await create(sc, bob, { rules: 'fife', seed: 6, bots: ['E', 'S', 'W'], level: 'easy', delay: 0 });
  await bob.visible('#declare button[data-call]', "bob's Calls panel (seed 6: North is the first Caller)", 10000);
  await noRedPrompt(bob, 'at the Calls panel before any Call is picked');
  await sc.shot(bob, 'calls-prompt', { focus: '#declare' });
  const calls = await bob.page.locator('#declare button[data-call]').evaluateAll((bs) => bs.map((b) => b.getAttribute('data-call')));
  const neg = calls.find((k) => !k.startsWith('patience'));
  const pat = calls.find((k) => k.startsWith('patience'));
  await bob.click(`#declare button[data-call="${neg}"]`);
  await bob.click(`#declare button[data-call="${pat}"]`);
  const warned = await bob.page.waitForFunction(() => document.querySelector('#declare-reason.is-warn'), null, { timeout: 3000 }).then(() => true, () => false);
  const reds = await redPrompts(bob);
  check(warned && reds.some((r) => /never played together/.test(r.text)), 'bob: a negative Call with a Patience should be refused in red (#declare-reason)', { actual: reds, page: bob });
  await sc.shot(bob, 'calls-wrong', { focus: '#declare' });
  await bob.close();
  sc.log('the Calls prompt checked');
}

/** A Fife game of four computer players, watched to its end: the Set counter. */
async function fifeOver(sc, kib) {
  const fifeId = await botsOnlyFife(sc, kib);
  await clickIn(kib, row(kib, { id: fifeId }).locator('button[data-kibitz=all]'), `the Fife table ${fifeId}'s button[data-kibitz=all]`);
  await kib.until((x) => x.table && x.phase === 'over', 'the four computer players\' Fife game over', 60000);
  const kicker = (await kib.page.locator('#fife .panel-kicker').textContent({ timeout: 5000 })).trim();
  const title = (await kib.page.locator('#fife #fife-title').textContent()).trim();
  check(kicker === '1 Set played' && title === 'The game is over', `kib: the Fife panel at the end should say "1 Set played" and "The game is over", not "${kicker}" / "${title}"`, { actual: { kicker, title }, page: kib });
  check(!/Set 2 of 1/.test(await kib.page.locator('#table').textContent()), 'kib: the page should never say "Set 2 of 1"', { page: kib });
  await sc.shot(kib, 'fife-over', { focus: '#fife' });
  await leave(kib);
  sc.log('the Fife game over checked');
}

/** Table 2, a short game played to its end by `ann` (any person), then
 * watched from the lobby: their seat is theirs, not "offline". */
async function ownFinished(sc, p) {
  await create(sc, p, { rules: 'uk-32', seed: 3, house: SHORT_RULES, bots: ['E', 'S', 'W'], level: 'random', delay: 0, kibitz: 'all' });
  const t2 = Number((await p.attr('#table', 'aria-label')).replace(/\D+/g, ''));
  const { state: end, actions } = await playToEnd(sc, p, 60000);
  sc.log(`table ${t2}: the short game over after ${actions} actions of ${p.name}`);
  // After the game the kibitzers talk to everybody: a player sees both logs.
  const split = await p.page.waitForFunction(() => document.querySelector('#chat-log')?.getAttribute('data-split') === 'true' && !document.querySelector('#chat-log [data-channel=kibitzers]')?.hidden, null, { timeout: 3000 }).then(() => true, () => false);
  check(split, `${p.name}: once the game is over a player's chat should show the players' and the kibitzers' logs apart`, { expected: '#chat-log[data-split=true] with [data-channel=kibitzers] shown', page: p });
  await p.click('[data-focus=over-leave]');
  await p.until((x) => x.lobby && !x.table, 'the lobby after the game', 10000);
  await clickIn(p, row(p, { id: t2 }).locator('button[data-kibitz=all]'), `table ${t2}'s button[data-kibitz=all] (their finished game)`);
  await p.until((x) => x.table && x.you === 'kibitz' && x.phase === 'over', 'watching their own finished table', 10000);
  const mine = (await p.page.locator('.seat[data-seat=N] .seat-status').textContent({ timeout: 3000 }).catch(() => '')).trim();
  check(mine === 'you, watching', `${p.name}: watching their own finished table, their seat should read "you, watching", not "${mine}"`, { expected: 'you, watching', actual: mine, page: p });
  await sc.shot(p, 'own-finished-table', { focus: '.seat[data-seat=N]' });
  sc.stats.deals = 4;
}

export const EVENING_D = { evening_d };
