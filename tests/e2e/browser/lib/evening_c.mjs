// Issue 22, points 4 and 7 and the accessibility audit (the "evening_c"
// scenario): Chinese Poker as good as in the terminal, a phone that is a
// real table, and axe-core on the lobby, the create form, a table in play,
// the score window and a rules page, each at 1280x800 and 390x844.
//
// Seed 1 of the `chinese` rule set: ann (North) declares first and declares
// Chinese Poker.  While arranging, each row's name (.row-name[data-row]) is
// compared with lib/poker.mjs as the rows are built; a fouled setting shows
// the warning (#arrange-foul); #arrange-suggest fills valid rows (the
// server's `suggestion`).  After the deal, #showdown names every row as
// lib/poker.mjs does and its units are the ones lib/poker.mjs counts; the
// next deal (Trumps, ann again) is played at 390x844 with tap-then-confirm:
// every card of the hand at least 44x44 px and uncovered at its centre,
// also with a card raised; #showdown-btn opens the last showdown again;
// the score window's .row-result are the per-row units.

import { Agent } from './agent.mjs';
import { audit, auditBoth } from './axe.mjs';
import { check, DESKTOP, fail, frames, PHONE, sleep } from './harness.mjs';
import { CATEGORY, compare, describe, evaluate, fouled, wrongRows } from './poker.mjs';
import { cardsTouchable } from './phone.mjs';
import { putRows } from './scenarios.mjs';

const ROWS = ['back', 'middle', 'front'];
const SIZE = { back: 5, middle: 5, front: 3 };
const TITLE = { back: 'Back', middle: 'Middle', front: 'Front' };
const SCOOP = 3; // docs/rules.md: the standard 1-6 scoring

/** The category lib/poker.mjs gives a row, as the page names it ("Full House"). */
function category(cards) {
  return CATEGORY[evaluate(cards)[0]];
}

/** What a .row-name says, split: its row and its category (lower case). */
function parseName(text) {
  const m = /^(Back|Middle|Front): ([A-Za-z ]+?)(?:,|$)/.exec(text.trim());
  return m ? { row: m[1].toLowerCase(), category: m[2].toLowerCase() } : null;
}

/** Units of rows a against rows b, as docs/rules.md scores them. */
function units(a, b) {
  const fa = fouled(a);
  const fb = fouled(b);
  if (fa && fb) return { rows: [0, 0, 0], units: 0 };
  if (fa || fb) {
    const o = fa ? -1 : 1;
    return { rows: [o, o, o], units: o * (3 + SCOOP) };
  }
  const rows = ROWS.map((r) => Math.sign(compare(a[r], b[r])));
  const won = rows.filter((x) => x > 0).length;
  const lost = rows.filter((x) => x < 0).length;
  return { rows, units: won - lost + (won === 3 ? SCOOP : 0) - (lost === 3 ? SCOOP : 0) };
}

/** The rows the builder holds now, and the row names it shows. */
async function builderNow(p) {
  return p.page.evaluate(() => {
    const out = { rows: {}, names: {} };
    for (const r of ['back', 'middle', 'front']) {
      out.rows[r] = [...document.querySelectorAll(`#row-${r} [data-card]`)].map((e) => e.getAttribute('data-card'));
      out.names[r] = document.querySelector(`#arrange .row-name[data-row=${r}]`)?.textContent ?? null;
    }
    const foul = document.querySelector('#arrange-foul');
    out.foul = foul ? { text: foul.textContent.trim(), cls: foul.className } : null;
    out.scoring = document.querySelector('#arrange-scoring')?.textContent ?? null;
    return out;
  });
}

/** Every complete row's name is lib/poker.mjs's category; an incomplete one says how many cards are to come. */
function checkNames(p, b, when) {
  for (const r of ROWS) {
    const cards = b.rows[r];
    const text = b.names[r];
    check(text !== null, `${p.name}: #arrange should show .row-name[data-row=${r}] (${when})`, { actual: b, page: p });
    if (cards.length === SIZE[r]) {
      const got = parseName(text);
      const want = category(cards);
      check(got && got.row === r && got.category === want, `${p.name}: .row-name[data-row=${r}] should name ${cards.join(' ')} "${TITLE[r]}: ${want}" (${when})`, { expected: `${TITLE[r]}: ${want}`, actual: text, page: p });
    } else if (cards.length > 0) {
      const left = SIZE[r] - cards.length;
      check(text.includes(`${left} more card`), `${p.name}: .row-name[data-row=${r}] of an incomplete row should say ${left} more card(s) are to come (${when})`, { actual: text, page: p });
    }
  }
}

/** Rows of a build-up: back complete, then middle, then front, checking the names at each step. */
async function buildChecking(sc, p, rows, when) {
  const partial = { back: rows.back, middle: rows.middle.slice(0, 2), front: [] };
  await putRows(sc, p, partial);
  checkNames(p, await builderNow(p), `${when}, the back set and two cards in the middle`);
  await putRows(sc, p, rows);
  const b = await builderNow(p);
  checkNames(p, b, `${when}, all three rows set`);
  return b;
}

/** The showdown's seats as the page shows them: each row's cards and name, the units. */
async function readShowdown(p) {
  return p.page.evaluate(() => {
    const out = {};
    for (const seat of document.querySelectorAll('#showdown .showdown-seat[data-seat]')) {
      const s = seat.getAttribute('data-seat');
      const rows = {};
      const names = {};
      const beats = {};
      for (const row of seat.querySelectorAll('.rows-view-row[data-row-name]')) {
        const r = row.getAttribute('data-row-name');
        rows[r] = [...row.querySelectorAll('[data-card]')].map((e) => e.getAttribute('data-card'));
        names[r] = row.querySelector('.row-name')?.textContent ?? null;
        beats[r] = row.querySelector('.row-beats')?.textContent ?? null;
      }
      const u = seat.querySelector('[data-units]');
      out[s] = { rows, names, beats, units: u ? Number(u.getAttribute('data-units')) : null, text: seat.textContent };
    }
    return out;
  });
}

/** The showdown names every row as lib/poker.mjs does, says who beat whom,
 * and counts the units lib/poker.mjs counts.  Returns the units by seat. */
function checkShowdown(p, sd, when) {
  const seats = Object.keys(sd);
  check(seats.length === 4, `${p.name}: #showdown should show the four seats' rows (${when})`, { actual: sd, page: p });
  const result = {};
  for (const s of seats) {
    const rows = sd[s].rows;
    for (const r of ROWS) {
      check(rows[r]?.length === SIZE[r], `${p.name}: #showdown should show ${s}'s ${r} row of ${SIZE[r]} cards (${when})`, { actual: sd[s], page: p });
      const got = parseName(sd[s].names[r] ?? '');
      check(got && got.category === category(rows[r]), `${p.name}: #showdown should name ${s}'s ${r} row (${rows[r].join(' ')}) ${category(rows[r])} (${when})`, { expected: category(rows[r]), actual: sd[s].names[r], page: p });
      check(/beats|loses to|ties/.test(sd[s].beats[r] ?? ''), `${p.name}: #showdown should say whom ${s}'s ${r} row beat or lost to (${when})`, { actual: sd[s].beats[r], page: p });
    }
    let u = 0;
    const byRow = [0, 0, 0];
    for (const o of seats) {
      if (o === s) continue;
      const m = units(rows, sd[o].rows);
      u += m.units;
      m.rows.forEach((x, i) => (byRow[i] += x));
    }
    check(sd[s].units === u, `${p.name}: #showdown should give ${s} ${u} units (lib/poker.mjs) (${when})`, { expected: u, actual: sd[s].units, page: p });
    result[s] = { units: u, byRow };
  }
  return result;
}

/** A person's settings (web/src/settings.ts): through the settings dialog
 * when the page has it, else the stored settings and a reload. */
async function tapConfirmOn(sc, p) {
  if ((await p.count('button#settings-btn')) > 0) {
    await p.click('button#settings-btn');
    await p.visible('dialog#settings', 'the settings dialog (dialog#settings)');
    await p.page.locator('input#set-tap-confirm').check();
    await p.page.keyboard.press('Escape');
    sc.log('tap-then-confirm set in dialog#settings');
    return;
  }
  const before = await p.state();
  await p.page.evaluate(() => {
    const s = JSON.parse(localStorage.getItem('barbu.settings') || '{}');
    s.tapConfirm = true;
    localStorage.setItem('barbu.settings', JSON.stringify(s));
  });
  await p.page.reload({ waitUntil: 'load' });
  await p.until((x) => x.conn === 'open' && x.table && x.at === before.at, 'the table back after the reload', 15000);
  sc.log('tap-then-confirm set in the stored settings (barbu.settings), page reloaded');
}

export async function eveningC(sc) {
  await sc.start();
  const ann = await sc.person('ann');
  await ann.open(true);
  await auditBoth(sc, ann, 'the handle form');
  await ann.login('ann-evening');
  await auditBoth(sc, ann, 'the lobby');
  await ann.click('#new-table');
  await ann.visible('form#create', 'the new-table form (form#create)');
  await auditBoth(sc, ann, 'the create form');
  await ann.click('#new-table');
  await ann.page.locator('form#create').first().waitFor({ state: 'hidden', timeout: 3000 }).catch(() => {});
  await ann.createTable(sc, { rules: 'chinese', seed: 1, delay: 30 });

  const st = { chineseDeal: null, arranged: false, trumpsDeal: null, tap: null, phone: 0, auditedPlay: false, suggested: null };
  const agent = new Agent(sc, ann, {
    seed: 5,
    illegalPerDeal: 0,
    chooseContract: (a, keys, s) => {
      if (st.chineseDeal === null) {
        check(keys.includes('chinese'), 'ann: #declare should offer Chinese Poker', { actual: keys, page: ann });
        st.chineseDeal = s.deal;
        return 'chinese';
      }
      st.trumpsDeal = s.deal;
      return keys.includes('trumps') ? 'trumps' : keys[0];
    },
    onTurn: async (a, s) => {
      if (s.phase === 'declare' && st.chineseDeal === null) {
        await auditBoth(sc, ann, 'a table in play (the contract chooser)');
      }
      if (s.phase === 'declare' && st.chineseDeal !== null && s.deal > st.chineseDeal && !st.showdownSeen) {
        await showdownAfterDeal(sc, ann, st);
      }
      if (s.phase === 'play' && st.trumpsDeal !== null && s.deal === st.trumpsDeal && !st.tap) {
        await phoneHand(sc, ann, st, s);
        return true;
      }
      return false;
    },
    arrange: async (a, s) => {
      await arrange(sc, ann, st, s);
      const before = await ann.state();
      await ann.click('#arrange-submit');
      await a.moved(before, 'setting the suggested rows');
      st.arranged = true;
    },
  });
  await agent.run((x) => st.tap !== null && x.deal === st.trumpsDeal && x.phase === 'play' && st.reopened, { limitMs: 90000, what: 'the Chinese deal, its showdown, and the next deal played at 390x844' });

  // The score window: per-row results of the Chinese deal.
  await ann.openScore();
  await ann.page.locator('#score .row-result').first().waitFor({ state: 'visible', timeout: 5000 }).catch(() => fail("ann: the score window should show the Chinese deal's per-row results (.row-result)", { page: ann }));
  const rr = await ann.page.evaluate(() =>
    Object.fromEntries([...document.querySelectorAll('#score .row-result[data-seat]')].map((e) => [e.getAttribute('data-seat'), [...e.querySelectorAll('[data-row]')].map((x) => [x.getAttribute('data-row'), { units: Number(x.getAttribute('data-units')), text: x.textContent }])])),
  );
  for (const [seat, r] of Object.entries(st.showdown)) {
    const got = Object.fromEntries(rr[seat] ?? []);
    const want = r.byRow;
    const shown = ROWS.map((row) => got[row]?.units);
    check(JSON.stringify(shown) === JSON.stringify(want), `ann: the score window's .row-result for ${seat} should give the units by row (back, middle, front) lib/poker.mjs counts`, { expected: want, actual: got, page: ann });
  }
  await sc.shot(ann, 'score', { focus: '#score .row-result' });
  await auditBoth(sc, ann, 'the score window');
  await ann.closeScore();

  // The rules page, from the server (docs/protocol.md "Rules pages").
  const res = await ann.page.request.get(new URL('/rules/uk', sc.server.url).href);
  check(res.status() === 200, 'GET /rules/uk should answer the rules page (200)', { expected: 200, actual: res.status() });
  const rules = await sc.person('reader');
  await rules.page.goto(new URL('/rules/uk', sc.server.url).href, { waitUntil: 'load' });
  await auditBoth(sc, rules, 'the rules page /rules/uk');
  await sc.shot(rules, 'rules-page');
  sc.stats.extra = `axe-audits=${sc.stats.axe} suggested="${st.suggested}" phone-cards=${st.phone}`;
}

/** The arrangement: names while building, the foul warning, the suggestion. */
async function arrange(sc, ann, st, s) {
  await ann.visible('#arrange', "the rows (#arrange) on ann's turn to arrange");
  const hand = s.hand.map((h) => h.card);
  check(hand.length === 13, 'ann: 13 cards to arrange', { actual: hand, page: ann });
  let b = await builderNow(ann);
  check(/unit/i.test(b.scoring ?? '') && /scoop/i.test(b.scoring ?? '') && /4 points/.test(b.scoring ?? ''), 'ann: #arrange should explain the scoring (units a row, the scoop, 4 points a unit)', { actual: b.scoring, page: ann });
  // The scoring links to the table's rules, at Chinese Poker.
  const href = await ann.page.locator('#arrange-scoring a.rules-link').first().getAttribute('href', { timeout: 2000 }).catch(() => null);
  check(/^\/rules\/table\/\d+#chinese$/.test(href ?? ''), "ann: #arrange-scoring should link (a.rules-link) to the table's rules page at #chinese", { expected: '/rules/table/ID#chinese', actual: href, page: ann });
  const page = await ann.page.request.get(new URL(href, sc.server.url).href);
  check(page.status() === 200 && (await page.text()).includes('id="chinese"'), `ann: ${href} should answer the rules page with its Chinese Poker section (id="chinese")`, { actual: page.status(), page: ann });
  // A fouled setting, built row by row: the names, then the warning.
  const wrong = wrongRows(hand);
  sc.log(`fouled: back ${describe(wrong.back)}, middle ${describe(wrong.middle)}, front ${describe(wrong.front)}`);
  b = await buildChecking(sc, ann, wrong, 'a fouled setting');
  check(b.foul && /foul/i.test(b.foul.text) && /is-foul/.test(b.foul.cls) && /beats the (back|middle)/.test(b.foul.text), 'ann: with the rows out of order #arrange-foul should warn that they foul and say which row beats which', { expected: 'These rows foul. The middle row (...) beats the back row (...)', actual: b.foul, page: ann });
  await sc.shot(ann, 'rows-foul-warning', { focus: '#arrange' });
  await auditBoth(sc, ann, 'a table in play (the rows being set)');
  // The computer's suggestion fills valid rows.
  await ann.click('button#arrange-suggest');
  const end = Date.now() + 8000;
  for (;;) {
    b = await builderNow(ann);
    const same = ROWS.every((r) => b.rows[r].length === SIZE[r] && b.rows[r].every((c) => wrong[r].includes(c)));
    if (ROWS.every((r) => b.rows[r].length === SIZE[r]) && !same) break;
    if (Date.now() > end) fail("ann: #arrange-suggest should fill the rows with the computer's suggestion (the server's `suggestion`)", { actual: b, page: ann });
    await sleep(50);
  }
  const all = [...b.rows.back, ...b.rows.middle, ...b.rows.front];
  check(all.length === 13 && hand.every((c) => all.includes(c)), "ann: the suggestion's rows should hold exactly the hand's 13 cards", { expected: hand, actual: b.rows, page: ann });
  check(!fouled(b.rows), 'ann: the suggested rows should be in order (not fouled, lib/poker.mjs)', { actual: ROWS.map((r) => describe(b.rows[r])), page: ann });
  checkNames(ann, b, 'the suggested rows');
  check(b.foul && /is-ready/.test(b.foul.cls), 'ann: with the suggested rows #arrange-foul should say the rows are in order', { actual: b.foul, page: ann });
  st.suggested = ROWS.map((r) => b.names[r]).join(' / ');
  sc.log(`suggested: ${st.suggested}`);
  await sc.shot(ann, 'rows-suggested', { focus: '#arrange' });
}

/** After the Chinese deal: the showdown read and checked. */
async function showdownAfterDeal(sc, ann, st) {
  await ann.visible('#showdown', 'the showdown (#showdown) after the Chinese Poker deal');
  const summary = ann.page.locator('#showdown > summary');
  if ((await summary.count()) > 0 && !(await ann.page.locator('#showdown').first().evaluate((e) => e.open))) await ann.click(summary.first(), { what: "the showdown's summary" });
  const sd = await readShowdown(ann);
  st.showdown = checkShowdown(ann, sd, 'after the deal');
  const sum = Object.values(st.showdown).reduce((x, r) => x + r.units, 0);
  check(sum === 0, 'the showdown units should sum to zero', { actual: st.showdown });
  sc.log(`showdown units: ${Object.entries(st.showdown).map(([s, r]) => `${s} ${r.units}`).join(', ')}`);
  await sc.shot(ann, 'showdown', { focus: '#showdown' });
  st.showdownSeen = true;
}

/** The next deal at 390x844: touch targets, tap-then-confirm, the showdown again. */
async function phoneHand(sc, ann, st, s) {
  const page = ann.page;
  await tapConfirmOn(sc, ann);
  await page.setViewportSize(PHONE);
  await frames(page);
  await page.evaluate(() => window.scrollTo(0, 0));
  let x = await ann.until((y) => y.toMove === 'N' && y.phase === 'play', "ann's turn to play after the settings", 15000);
  const cards = await cardsTouchable(ann, 'the hand at 390x844');
  st.phone = cards.length;
  sc.log(`390x844: ${cards.length} cards, each ${cards[0].w}x${cards[0].h} px, none covered`);
  // The first tap raises a playable card; nothing is played.
  const card = x.hand.find((h) => !h.disabled).card;
  await ann.click(`#hand button.card[data-card="${card}"]`);
  const raised = await ann.attrBecomes(`#hand button.card[data-card="${card}"]`, 'data-raised', 'true');
  check(raised, `ann: with tap-then-confirm a first tap on ${card} should raise it (data-raised="true")`, { page: ann });
  const y = await ann.state();
  check(y.at === x.at && y.hand.some((h) => h.card === card), `ann: a first tap on ${card} should not play it`, { expected: x, actual: y, page: ann });
  await cardsTouchable(ann, `with ${card} raised`);
  await page.screenshot({ path: `${sc.opts.shots}/${sc.name}-tap-raised-390x844.png` });
  // The showdown of the Chinese deal, again, now that the next deal has started.
  await ann.click('button#showdown-btn');
  await ann.visible('#showdown[role=dialog]', 'the last showdown (#showdown) opened from #showdown-btn');
  const again = checkShowdown(ann, await readShowdown(ann), 'opened again from #showdown-btn');
  check(JSON.stringify(again) === JSON.stringify(st.showdown), 'ann: the showdown opened again should be the Chinese deal\'s', { expected: st.showdown, actual: again, page: ann });
  await page.screenshot({ path: `${sc.opts.shots}/${sc.name}-showdown-again-390x844.png` });
  await audit(sc, ann, 'the showdown opened again at 390x844');
  await ann.click('button#showdown-close');
  await ann.page.locator('#showdown[role=dialog]').first().waitFor({ state: 'detached', timeout: 3000 }).catch(() => fail('ann: #showdown-close should close the showdown', { page: ann }));
  st.reopened = true;
  // The second tap plays it.
  const raisedStill = await ann.attr(`#hand button.card[data-card="${card}"]`, 'data-raised');
  if (raisedStill !== 'true') await ann.click(`#hand button.card[data-card="${card}"]`);
  await ann.click(`#hand button.card[data-card="${card}"]`);
  await ann.until((z) => !z.hand.some((h) => h.card === card) || z.at > x.at, `${card} played by the second tap`, 10000);
  st.tap = card;
  sc.log(`tap-then-confirm: ${card} raised by the first tap, played by the second`);
  await page.setViewportSize(DESKTOP);
  await frames(page);
}
