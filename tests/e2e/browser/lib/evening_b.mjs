// Scenario evening_b (issue 22, points 2, 3 and 9): pacing a person can
// follow, the rules in the page, doubles that stay visible.  ann (North)
// plays a short game (uk-32 with house rules keeping No Tricks and Trumps,
// each twice: 4 deals of 8 tricks) against easy computer players at delay 0, with a
// trick pause, and checks:
//
// - a finished trick stays (#trick[data-finished="true"]) for the pause and
//   then goes by itself; a click on it sends it on at once;
// - the last trick (#last-trick) never overlaps the current trick (1280x800
//   and 390x844), closes when the next trick is over, and works at game over;
// - after each deal, the summary (#deal-summary) stays until closed, its
//   points and totals are the server's `score` message's (read off the
//   WebSocket), it lists the doubles settled, and says why a deal was not
//   played or ended early;
// - the review (button#review-btn, #deal-review) has every trick played with
//   its leader and winner, the winners agreeing with the server's tricks;
// - the rules dialog (dialog#rules) opens from the create form, the table's
//   bar, the contract chooser (#contract-KEY) and the doubling panel
//   (#doubling) at the right address and section;
// - the doubling panel says, before one passes, that an undoubled negative
//   contract is not played and how its points are shared (rule_set's
//   undoubled_text), and the bar shows the doubles during the play;
// - no positive figure is drawn in red (computed colours).

import { Agent } from './agent.mjs';
import { DESKTOP, PHONE, check, fail, frames, sleep } from './harness.mjs';

export const EVENING_B_SEED = 3;
const PAUSE = 1500;
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

/** The server's messages to a page, read off its WebSocket. */
function wsLog(p) {
  const log = { table: null, scores: [], view: null };
  p.page.on('websocket', (ws) => {
    ws.on('framereceived', (f) => {
      let m;
      try {
        m = JSON.parse(typeof f.payload === 'string' ? f.payload : f.payload.toString());
      } catch {
        return;
      }
      if (m.type === 'table') log.table = m;
      else if (m.type === 'score') log.scores.push(m);
      else if (m.type === 'view') log.view = m;
    });
  });
  return log;
}

/** Opens the rules dialog from a link and checks its address and section. */
async function rulesFrom(sc, p, sel, path, section, where) {
  const link = p.page.locator(sel).first();
  const href = await link.getAttribute('href', { timeout: 3000 }).catch(() => null);
  const want = section ? `${path}#${section}` : path;
  check(href === want, `${p.name}: the rules link in ${where} (${sel}) should lead to ${want}`, { expected: want, actual: href, page: p });
  await p.click(link, { what: `the rules link in ${where}` });
  await p.visible('dialog#rules[open]', `the rules dialog (dialog#rules) opened from ${where}`, 3000);
  const src = await p.page.locator('dialog#rules iframe').getAttribute('data-src');
  check(src === want, `${p.name}: the rules dialog's frame should show ${want}`, { expected: want, actual: src, page: p });
  const status = await p.page.evaluate((u) => fetch(u).then((r) => r.status), path);
  if (status === 200) {
    const found = await p.page
      .waitForFunction(
        (sec) => {
          const f = document.querySelector('dialog#rules iframe');
          const d = f?.contentDocument;
          if (!d || f.getAttribute('data-state') !== 'shown' || !d.body) return false;
          return sec ? !!d.getElementById(sec) : d.body.textContent.trim().length > 0;
        },
        section,
        { timeout: 5000 },
      )
      .then(() => true)
      .catch(() => false);
    check(found, `${p.name}: the rules page ${path} in the dialog has no section #${section}`, { expected: `#${section}`, page: p });
  } else {
    sc.note(`GET ${path} answered ${status}: this server has no rules pages yet, so only the dialog's address was checked (from ${where})`);
  }
  await sc.shot(p, `rules-dialog${section ? '-' + section.replace(/^contract-.*/, 'contract') : ''}`, { focus: 'dialog#rules' });
  await p.click('button#rules-close');
  const open = await p.page.locator('dialog#rules').evaluate((d) => d.open);
  check(!open, `${p.name}: button#rules-close should close the rules dialog`, { page: p });
}

/** Leaf elements showing a positive figure ("+12", "total +5") drawn in a red. */
function redPositives(page) {
  return page.evaluate(() => {
    const out = [];
    for (const e of document.querySelectorAll('body *')) {
      if (e.children.length > 0 || e.closest('svg')) continue;
      const t = (e.textContent || '').trim();
      if (!/(^|\s)\+\d/.test(t)) continue;
      const m = getComputedStyle(e).color.match(/[\d.]+/g);
      if (!m) continue;
      const [r, g, b] = m.map(Number);
      if (r >= 130 && r - g >= 60 && r - b >= 60) out.push({ text: t, color: getComputedStyle(e).color, cls: e.className });
    }
    return out;
  });
}

async function noRedPositive(p, where) {
  const red = await redPositives(p.page);
  check(red.length === 0, `${p.name}: a positive figure is drawn in red (${where})`, { expected: 'no red positive figures', actual: red, page: p });
}

function overlaps(a, b) {
  return !(a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y);
}

async function boxes(page) {
  return page.evaluate(() => {
    const r = (s) => {
      const e = document.querySelector(s);
      if (!e) return null;
      const b = e.getBoundingClientRect();
      return { x: b.x, y: b.y, w: b.width, h: b.height };
    };
    return { last: r('#last-trick'), trick: r('#trick') };
  });
}

/** The last trick beside the trick in play, at both widths. */
async function lastTrickApart(sc, p, what) {
  for (const size of [DESKTOP, PHONE]) {
    await p.page.setViewportSize(size);
    await frames(p.page);
    const b = await boxes(p.page);
    check(b.last, `${p.name}: #last-trick should be shown (${what}, ${size.width}px)`, { page: p });
    if (b.trick) check(!overlaps(b.last, b.trick), `${p.name}: #last-trick overlaps #trick at ${size.width}px (${what})`, { expected: 'apart', actual: b, page: p });
  }
  await p.page.setViewportSize(DESKTOP);
  await frames(p.page);
}

async function create(sc, ann) {
  const page = ann.page;
  await ann.click('#new-table');
  await ann.visible('form#create', 'the new-table form (form#create)');
  await page.locator('select#create-rules').selectOption('uk-32');
  await rulesFrom(sc, ann, 'form#create a.rules-link', '/rules/uk-32', '', 'the create form');
  await page.locator('form#create details.house summary').click();
  await page.locator('textarea#create-house').fill(HOUSE);
  await page.locator('input#create-seed').fill(String(EVENING_B_SEED));
  for (const s of ['E', 'S', 'W']) await page.locator(`form#create input[name=bot][value=${s}]`).check();
  await page.locator('select#create-level').selectOption('easy');
  await page.locator('input#create-delay').fill('0');
  await page.locator('select#create-sit').selectOption('N');
  await ann.click('#create-submit');
  ann.seat = 'N';
  return ann.until((s) => s.table && s.you === 'N' && s.at !== null && s.phase, '#table[data-you=N] after creating the table', 15000);
}

/** The review's hands as dealt (from the game record): 8 cards each, 32 in all, none twice. */
async function handsAsDealt(p) {
  const ok = await p.page
    .waitForFunction(
      () => {
        const lis = [...document.querySelectorAll('#review-hands li[data-seat]')];
        const cards = lis.flatMap((l) => [...l.querySelectorAll('[data-card]')].map((c) => c.getAttribute('data-card')));
        return lis.length === 4 && lis.every((l) => l.querySelectorAll('[data-card]').length === 8) && new Set(cards).size === 32;
      },
      null,
      { timeout: 5000 },
    )
    .then(() => true)
    .catch(() => false);
  check(ok, `${p.name}: #deal-review should show the four hands as dealt (#review-hands, 8 cards each)`, { page: p });
}

export async function eveningB(sc) {
  await sc.start();
  const ann = await sc.person('ann', { settings: { trickPause: PAUSE, summaryPause: 0 } });
  const log = wsLog(ann);
  await ann.open(true);
  await ann.login('ann-evening-b');
  await create(sc, ann);
  const t = log.table;
  check(t && t.rule_set, 'ann: no table message with rule_set', { actual: t, page: ann });
  const rulesUrl = t.rule_set.rules_url ?? `/rules/table/${t.id}`;
  if (!t.rule_set.rules_url) sc.note('the table message has no rule_set.rules_url (server without the rules pages): the client falls back to /rules/table/ID');
  await rulesFrom(sc, ann, '#table .table-bar a.rules-link', rulesUrl, '', "the table's bar");

  const seen = { chooser: false, bidLink: false, undoubled: false, natural: false, skipped: 0, lastOpen: false, lastClosed: false, summaries: 0, review: false, barDoubles: false, unplayed: 0, early: 0 };
  const agent = new Agent(sc, ann, {
    seed: 11,
    illegalPerDeal: 0,
    // ann doubles on odd deals (someone to settle with), passes on even ones.
    bid: (a, bs, s) => ({ press: s.deal % 2 === 1 ? bs.filter((b) => b.enabled && !b.pressed && b.type === 'double').slice(0, 1) : [] }),
    onTurn: async (a, s) => {
      if (s.phase === 'declare' && !seen.chooser) {
        seen.chooser = true;
        await ann.visible('#declare', 'the contract chooser');
        const key = await ann.page.locator('#declare button[data-contract]').first().getAttribute('data-contract');
        await rulesFrom(sc, ann, `#declare a.rules-link[data-section="contract-${key}"]`, rulesUrl, `contract-${key}`, 'the contract chooser');
      }
      if (s.phase === 'bid' && (await ann.count('#bid #bid-submit')) > 0) {
        const v = log.view?.view;
        const nobody = v && Object.values(v.doubles ?? {}).every((d) => !d.length);
        const negative = v && v.contracts.includes('no-tricks');
        if (nobody && negative && !seen.undoubled) {
          if (t.rule_set.undoubled_shared) {
            const text = await ann.page.locator('#bid-undoubled').textContent({ timeout: 2000 }).catch(() => null);
            check(text && /not played/.test(text), 'ann: the doubling panel should say that an undoubled No Tricks is not played (#bid-undoubled)', { actual: text, page: ann });
            if (t.rule_set.undoubled_text) check(text.includes(t.rule_set.undoubled_text), 'ann: #bid-undoubled should give rule_set.undoubled_text', { expected: t.rule_set.undoubled_text, actual: text, page: ann });
            seen.undoubled = true;
            await sc.shot(ann, 'doubling-undoubled', { focus: '#bid' });
          } else if (!seen.undoubledNoted) {
            seen.undoubledNoted = true;
            sc.note('the table message has no rule_set.undoubled_shared (server without it): #bid-undoubled not checked');
          }
        }
        if (!seen.bidLink) {
          seen.bidLink = true;
          await rulesFrom(sc, ann, '#bid a.rules-link[data-section="doubling"]', rulesUrl, 'doubling', 'the doubling panel');
        }
      }
      return false;
    },
  });

  let lastDeal = -1;
  for (;;) {
    const s = await agent.run((x) => x.finished || x.panels.summary, { limitMs: 150000, what: 'a finished trick or the deal summary' });
    if (s.finished) {
      const t0 = Date.now();
      if ((await ann.count('#last-trick')) > 0 && seen.lastOpen && !seen.lastClosed) {
        fail('ann: #last-trick should close when the next trick is over', { page: ann });
      }
      if (seen.lastOpen && !seen.lastClosed) seen.lastClosed = true;
      if (!seen.natural) {
        await sc.shot(ann, 'finished-trick', { focus: '#trick' });
        const x = await ann.until((x) => !x.finished, `the finished trick to go by itself (trickPause ${PAUSE} ms)`, PAUSE + 5000, 25);
        const took = Date.now() - t0;
        check(took >= PAUSE - 600, `ann: the finished trick went after ${took} ms, before the pause of ${PAUSE} ms`, { actual: x, page: ann });
        seen.natural = true;
        sc.log(`the finished trick stayed ${took} ms, then went`);
      } else {
        const d = log.view?.view;
        if (!seen.barDoubles && d && d.phase === 'play' && Object.values(d.doubles ?? {}).some((l) => l.length)) {
          const text = (await ann.page.locator('#bar-doubles').textContent({ timeout: 1000 }).catch(() => '')) ?? '';
          for (const [a, l] of Object.entries(d.doubles)) for (const b of l) check(text.includes(`${a}\u00d7${b}`), `ann: the bar (#bar-doubles) should show ${a}\u00d7${b} during the play`, { actual: text, page: ann });
          seen.barDoubles = true;
        }
        await ann.click('#trick[data-finished="true"]', { what: 'the finished trick' });
        await ann.until((x) => !x.finished, 'the finished trick to go at once after a click on it', 1500, 20);
        seen.skipped++;
        // Then the last trick, beside the trick in play.
        if (!seen.lastOpen && seen.skipped >= 2) {
          const y = await ann.state();
          if (y.phase === 'play' && !y.panels.summary && (await ann.page.locator('#last-trick-btn').isEnabled())) {
            await ann.click('#last-trick-btn');
            await ann.visible('#last-trick', 'the last trick (#last-trick) after #last-trick-btn');
            await lastTrickApart(sc, ann, 'during the play');
            await sc.shot(ann, 'last-trick', { focus: '#last-trick' });
            seen.lastOpen = true;
          }
        }
      }
      continue;
    }
    if (s.panels.summary) {
      const info = await ann.page.locator('#deal-summary').evaluate((e) => ({
        deal: Number(e.getAttribute('data-deal')),
        ended: e.getAttribute('data-ended'),
        why: e.querySelector('#summary-why')?.textContent ?? null,
        rows: [...e.querySelectorAll('.summary-row')].map((r) => ({ seat: r.getAttribute('data-seat'), points: Number(r.getAttribute('data-points')), total: Number(r.getAttribute('data-total')) })),
        doubles: [...e.querySelectorAll('#summary-doubles li')].map((l) => l.textContent),
      }));
      check(info.deal > lastDeal, `ann: a summary for deal ${info.deal} again`, { page: ann });
      lastDeal = info.deal;
      // The server's score message (asked for by the score window).
      const before = log.scores.length;
      await ann.openScore();
      const deadline = Date.now() + 5000;
      while (log.scores.length === before && Date.now() < deadline) await sleep(25);
      check(log.scores.length > before, 'ann: no score message after opening the score window', { page: ann });
      await ann.closeScore();
      const score = log.scores[log.scores.length - 1];
      const d = score.deals.find((x) => x.deal === info.deal);
      check(d, `ann: the score message has no deal ${info.deal}`, { actual: score, page: ann });
      const totals = [0, 0, 0, 0];
      for (const x of score.deals) if (x.deal <= info.deal) for (let i = 0; i < 4; i++) totals[i] += x.score[i];
      const seats = ['N', 'E', 'S', 'W'];
      for (let i = 0; i < 4; i++) {
        const r = info.rows.find((r) => r.seat === seats[i]);
        check(r && r.points === d.score[i], `ann: the summary's points for ${seats[i]} should be the score message's ${d.score[i]}`, { expected: d.score, actual: info.rows, page: ann });
        check(r.total === totals[i], `ann: the summary's total for ${seats[i]} should be ${totals[i]}`, { expected: totals, actual: info.rows, page: ann });
      }
      const pairs = new Set();
      for (const [a, l] of Object.entries(d.doubles ?? {})) for (const b of l) pairs.add([a, b].sort().join());
      if (pairs.size > 0) check(info.doubles.length === pairs.size && info.doubles.every((x) => /doubled/.test(x)), `ann: the summary should list the ${pairs.size} double(s) settled`, { expected: [...pairs], actual: info.doubles, page: ann });
      if (!d.played) {
        check(info.ended === 'unplayed' && /not played/.test(info.why ?? ''), 'ann: the summary of a deal not played should say why (#summary-why)', { actual: info, page: ann });
        seen.unplayed++;
      } else if ((d.tricks_left ?? 0) > 0) {
        check(info.ended === 'early' && /early/.test(info.why ?? ''), 'ann: the summary of a deal that ended early should say why (#summary-why)', { actual: info, page: ann });
        seen.early++;
      }
      seen.summaries++;
      if (seen.summaries === 1 || (pairs.size > 0 && !seen.shotDoubles)) {
        if (pairs.size > 0) seen.shotDoubles = true;
        // It stays (summaryPause 0: until closed).
        await sleep(1200);
        check((await ann.count('#deal-summary')) > 0, 'ann: the summary went by itself with summaryPause 0', { page: ann });
        await sc.shot(ann, pairs.size > 0 ? 'deal-summary-doubles' : 'deal-summary', { focus: '#deal-summary', force: true });
        await noRedPositive(ann, 'the deal summary');
      }
      await ann.click('button#summary-close');
      await ann.until((x) => !x.panels.summary, 'the summary to close after button#summary-close', 2000, 20);
      if (!seen.review && d.played && d.tricks) {
        await ann.click('button#review-btn');
        await ann.visible('#deal-review', 'the review of the last deal (#deal-review)');
        const tricks = await ann.page.locator('#deal-review .review-trick').evaluateAll((ls) =>
          ls.map((l) => ({ leader: l.getAttribute('data-leader'), winner: l.getAttribute('data-winner'), cards: l.querySelectorAll('[data-card]').length })),
        );
        const played = d.tricks.reduce((a, b) => a + b, 0);
        check(tricks.length === played, `ann: #deal-review should list the ${played} tricks played`, { actual: tricks, page: ann });
        check(tricks.every((x) => x.leader && x.winner && x.cards === 4), 'ann: each trick in #deal-review should have its leader, its winner and four cards', { actual: tricks, page: ann });
        for (let i = 0; i < 4; i++) {
          const n = tricks.filter((x) => x.winner === seats[i]).length;
          check(n === d.tricks[i], `ann: #deal-review gives ${seats[i]} ${n} tricks, the server ${d.tricks[i]}`, { expected: d.tricks, actual: tricks, page: ann });
        }
        for (let k = 1; k < tricks.length; k++) check(tricks[k].leader === tricks[k - 1].winner, `ann: in #deal-review trick ${k + 1} should be led by the winner of trick ${k}`, { actual: tricks, page: ann });
        await handsAsDealt(ann);
        await sc.shot(ann, 'deal-review', { focus: '#deal-review' });
        await ann.click('button#review-close');
        seen.review = true;
      }
      continue;
    }
    if (s.phase === 'over') break;
  }
  // Game over: the last trick still shows, and nothing positive in red.
  await ann.until((x) => x.phase === 'over' && !x.finished && !x.panels.summary, 'the game over panel', 10000);
  await ann.click('#last-trick-btn');
  await ann.visible('#last-trick', 'the last trick (#last-trick) at game over');
  await lastTrickApart(sc, ann, 'at game over');
  await sc.shot(ann, 'game-over-last-trick', { focus: '#last-trick' });
  await noRedPositive(ann, 'the game over panel');
  await ann.openScore();
  await noRedPositive(ann, 'the score window');
  await ann.closeScore();
  // After a reload the review of the last deal comes from the game record.
  await ann.page.reload();
  await ann.until((x) => x.table && x.phase === 'over', 'the table again after a reload at game over', 15000);
  await ann.click('button#review-btn');
  await ann.visible('#deal-review', 'the review (#deal-review) after a reload');
  const last = log.scores[log.scores.length - 1].deals.at(-1);
  if (last.played && last.tricks) {
    const want = last.tricks.reduce((a, b) => a + b, 0);
    const got = await ann.page
      .waitForFunction((n) => document.querySelectorAll('#deal-review .review-trick[data-winner]').length === n, want, { timeout: 5000 })
      .then(() => true)
      .catch(() => false);
    check(got, `ann: after a reload, #deal-review should list the last deal's ${want} tricks with their winners (from the game record)`, { page: ann });
  }
  await handsAsDealt(ann);
  await sc.shot(ann, 'deal-review-reloaded', { focus: '#deal-review' });
  await ann.click('button#review-close');
  check(seen.natural && seen.skipped > 0, 'ann: no finished trick seen going by itself and by a click', { actual: seen });
  check(seen.lastOpen && seen.lastClosed, 'ann: the last trick was not opened and closed by the next trick', { actual: seen });
  check(seen.review, 'ann: no deal reviewed', { actual: seen });
  check(seen.chooser && seen.bidLink, 'ann: the rules links of the chooser and the doubling panel were not tried', { actual: seen });
  sc.stats.extra = `summaries=${seen.summaries} skipped=${seen.skipped} unplayed=${seen.unplayed} early=${seen.early} undoubled-note=${seen.undoubled}`;
}
