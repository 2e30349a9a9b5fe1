// The scenario `club_pages` (issue 24, point 4): the club's pages in the
// browser, over a small history made through a real server.
//
// The history, over the protocol in a tab of its own (a WebSocket per
// person, as a program would):
// - Zoë, Ann, Bob and Cy register; Ann makes a ladder table (uk-32 with
//   house rules: four deals of No Tricks and Trumps), the four sit and
//   leave at once: the table's takeover is "bot", so random computer
//   players finish the game for them, each credited with their seat's
//   total (credit "record");
// - Zoë makes a rated table with three random computer players and leaves
//   it likewise (a second rated game for her, a first for the level);
// - Root, an administrator (--admin Root), makes 26 tables of four computer
//   players at the uk rule set and closes each once started (abandoned
//   games), and leaves one running.
// Then in the browser, Zoë signs in: her create form has #create-rated
// (hidden for a guest), ticked and disabled with a title while
// #create-ladder is, and #create-credit; she makes a rated table from it
// and leaves (a third rated game); the lobby's #club-link reaches the
// ladder.  The pages, each at 1280x800 and 390x844 with screenshots, no
// horizontal scrolling at 390 px and axe (no serious or critical
// violation): the ladder (its rows and totals the API's, the year's
// ladder), Zoë's page (the chart has a point per rated game, the rating
// the API's), a game's page (a score row per deal, the totals the API's,
// the record downloads), a running game's page (players only), the
// archive (25 a page, the next page, a player's filter and a rule set's
// narrowing the rows, the address keeping the filters), the ratings, and a
// refusal's sentence shown whole.

import { auditBoth } from './axe.mjs';
import { check, DESKTOP, fail, frames, PHONE, sleep } from './harness.mjs';

const PW = 'club pages password 1';
/** Four deals of 8 tricks: No Tricks and Trumps twice each, no compulsory doubles. */
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
const ABANDONED = 26;

export const CLUB_PAGES_ARGS = ['--admin', 'Root', '--ladder-min-games', '1'];

// ------------------------------------------------------------ protocol

/** Puts a small protocol client in the tab: sessions by key, each a
 * WebSocket with its messages kept; req sends and waits for an answer. */
async function installClient(page) {
  await page.evaluate(() => {
    const sessions = {};
    const wait = (s, pred, ms) =>
      new Promise((res, rej) => {
        const end = Date.now() + ms;
        const look = () => {
          for (let i = s.at; i < s.log.length; i++) {
            if (pred(s.log[i])) {
              s.at = i + 1;
              return res(s.log[i]);
            }
          }
          if (Date.now() > end) return rej(new Error(`no answer in ${ms} ms; last: ${JSON.stringify(s.log.slice(-3))}`));
          setTimeout(look, 10);
        };
        look();
      });
    window.__club = {
      async open(key, hello) {
        const ws = new WebSocket(`${location.origin.replace(/^http/, 'ws')}/ws`);
        const s = { ws, log: [], at: 0 };
        ws.onmessage = (e) => s.log.push(JSON.parse(e.data));
        await new Promise((res, rej) => {
          ws.onopen = res;
          ws.onerror = () => rej(new Error('the WebSocket did not open'));
        });
        sessions[key] = s;
        ws.send(JSON.stringify({ type: 'hello', version: 1, ...hello }));
        return wait(s, (m) => m.type === 'welcome' || m.type === 'error' || m.type === 'bye', 10000);
      },
      async req(key, msg, types, ms = 10000) {
        const s = sessions[key];
        s.ws.send(JSON.stringify(msg));
        return wait(s, (m) => types.includes(m.type) || m.type === 'error', ms);
      },
      /** Waits for a message (the game's start: a table playing). */
      async until(key, type, field, value, ms = 10000) {
        return wait(sessions[key], (m) => m.type === type && (field === null || m[field] === value), ms);
      },
    };
  });
}

async function req(page, key, msg, types, what) {
  const m = await page.evaluate(([k, x, t]) => window.__club.req(k, x, t), [key, msg, types]).catch((e) => fail(`${key}: ${what}: ${e.message}`));
  check(types.includes(m.type), `${key}: ${what}`, { expected: types.join(' or '), actual: m });
  return m;
}

async function hello(page, key, name, register) {
  const m = await page.evaluate(([k, h]) => window.__club.open(k, h), [key, { name, password: PW, ...(register ? { register: true } : {}) }]);
  check(m.type === 'welcome', `${name} should be welcomed${register ? ' as a new registered player' : ''}`, { expected: 'welcome', actual: m });
}

/** Waits until this session's table has its game under way. */
async function started(page, key, id) {
  await page
    .evaluate(([k]) => window.__club.until(k, 'view', null, null, 10000), [key])
    .catch((e) => fail(`${key}: the game of table ${id} did not start: ${e.message}`));
}

// ----------------------------------------------------------------- api

async function api(sc, path) {
  const r = await fetch(new URL(path, sc.server.url));
  const body = await r.json().catch(() => null);
  return { status: r.status, body };
}

async function apiOk(sc, path) {
  const r = await api(sc, path);
  check(r.status === 200 && r.body && !r.body.error, `GET ${path} should answer 200 with JSON`, { expected: 200, actual: r });
  return r.body;
}

async function gameOver(sc, id, ms = 30000) {
  const end = Date.now() + ms;
  for (;;) {
    const r = await api(sc, `/club/api/game/${id}`);
    if (r.status === 200 && r.body.status === 'over') return r.body;
    if (Date.now() > end) fail(`game ${id} should be over within ${ms / 1000} s (computer players finishing it)`, { actual: r });
    await sleep(100);
  }
}

// ---------------------------------------------------------------- page

/** Opens a club address and waits for the page drawn from its JSON. */
async function visit(p, path, page) {
  await p.page.goto(new URL(path, p.sc.server.url).href, { waitUntil: 'load' });
  await shown(p, page);
}

async function shown(p, page) {
  try {
    await p.page.locator(`#club-main[data-page="${page}"]:not([data-state="loading"])`).waitFor({ timeout: 10000 });
  } catch {
    const s = await p.page.evaluate(() => ({ url: location.href, main: document.querySelector('#club-main')?.outerHTML.slice(0, 400) }));
    fail(`${p.name}: the club's ${page} page did not come`, { expected: `#club-main[data-page=${page}] drawn`, actual: s, page: p });
  }
}

/** Screenshots at both sizes; at 390 px the page must not scroll sideways. */
async function look(sc, p, name) {
  await sc.shot(p, name);
  await p.page.setViewportSize(PHONE);
  await frames(p.page);
  const w = await p.page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth, wide: [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1 && !e.closest('.club-scroll, .sheet-frame-box')).slice(0, 5).map((e) => `${e.tagName.toLowerCase()}#${e.id}.${e.className}`) }));
  await p.page.setViewportSize(DESKTOP);
  await frames(p.page);
  check(w.scroll <= w.client, `the ${name} page should not scroll sideways at 390 px`, { expected: `scrollWidth <= ${w.client}`, actual: w, page: p });
}

const texts = (p, sel) => p.page.locator(sel).allTextContents();
const attrs = (p, sel, name) => p.page.locator(sel).evaluateAll((els, n) => els.map((e) => e.getAttribute(n)), name);

// ------------------------------------------------------------ scenario

async function clubPages(sc) {
  await sc.start(); // with --admin Root --ladder-min-games 1 (SERVER_ARGS)
  const zoe = await sc.person('zoe');
  await zoe.open(true);

  // The history, over the protocol in a second tab.
  const tab = await zoe.context.newPage();
  await tab.goto(new URL('/icon.svg', sc.server.url).href);
  await installClient(tab);
  for (const [k, n] of [['zoe', 'Zoë'], ['ann', 'Ann'], ['bob', 'Bob'], ['cy', 'Cy'], ['root', 'Root']]) await hello(tab, k, n, true);

  const ladder = await req(tab, 'ann', { type: 'create', rules: 'uk-32', house: HOUSE, ladder: true, level: 'random', delay: 0, takeover: 'bot', grace: 0, sit: 'N' }, ['created'], 'a ladder table should be made');
  const L = ladder.table;
  for (const [k, seat] of [['bob', 'E'], ['cy', 'S'], ['zoe', 'W']]) await req(tab, k, { type: 'sit', table: L, seat }, ['table'], `sitting at the ladder table ${L}`);
  await started(tab, 'ann', L);
  for (const k of ['ann', 'bob', 'cy', 'zoe']) await req(tab, k, { type: 'leave' }, ['lobby'], `leaving the ladder table ${L} to a computer player`);

  const rated = await req(tab, 'zoe', { type: 'create', rules: 'uk-32', house: HOUSE, rated: true, credit: 'record', bots: ['E', 'S', 'W'], level: 'random', delay: 0, takeover: 'bot', grace: 0, sit: 'N' }, ['created'], 'a rated table should be made');
  const B = rated.table;
  await started(tab, 'zoe', B);
  await req(tab, 'zoe', { type: 'leave' }, ['lobby'], `leaving the rated table ${B}`);

  // Abandoned games (closed by an administrator once started), and one left running.
  const abandoned = [];
  for (let i = 0; i <= ABANDONED; i++) {
    const m = await req(tab, 'root', { type: 'create', rules: 'uk', bots: ['N', 'E', 'S', 'W'], level: 'random', delay: 5000 }, ['created'], 'a table of four computer players');
    await sleep(30);
    if (i === ABANDONED) {
      abandoned.running = m.table;
      break;
    }
    await req(tab, 'root', { type: 'mod_close', table: m.table, text: 'Closed for the club test' }, ['done'], `closing table ${m.table}`);
    abandoned.push(m.table);
  }
  const R = abandoned.running;
  await req(tab, 'zoe', { type: 'logout' }, ['bye'], 'Zoë logs out of the protocol tab');
  await tab.close();
  sc.log(`history: ladder game ${L}, rated game ${B}, ${abandoned.length} abandoned, running ${R}`);

  // Zoë in the browser: the create form's rated game and credit.
  await zoe.click('#mode-signin');
  await zoe.page.locator('input#handle').fill('Zoë');
  await zoe.page.locator('input#password').fill(PW);
  await zoe.click('#join');
  await zoe.until((s) => s.lobby && s.conn === 'open', '#lobby after signing in as Zoë', 15000);
  await zoe.click('#new-table');
  await zoe.visible('form#create', 'the new-table form');
  const form = zoe.page.locator('form#create');
  await zoe.visible('input#create-rated', '#create-rated for a registered player');
  await form.locator('input#create-ladder').check();
  check((await zoe.page.locator('input#create-rated').isDisabled()) && (await zoe.page.locator('input#create-rated').isChecked()), '#create-rated should be ticked and disabled while #create-ladder is', { page: zoe });
  check(/ladder/i.test((await zoe.attr('input#create-rated', 'title')) ?? ''), "#create-rated's title should say a ladder game is rated", { actual: await zoe.attr('input#create-rated', 'title'), page: zoe });
  await sc.shot(zoe, 'create-ladder-rated', { focus: 'input#create-rated' });
  await form.locator('input#create-ladder').uncheck();
  check(!(await zoe.page.locator('input#create-rated').isDisabled()), '#create-rated should be enabled again with #create-ladder off', { page: zoe });
  await form.locator('input#create-rated').check();
  check(await zoe.page.locator('input#create-seed').isDisabled(), 'a rated game takes no seed: #create-seed disabled', { page: zoe });
  const creditOpts = await attrs(zoe, 'select#create-credit option', 'value');
  check(creditOpts.join() === 'record,deals', '#create-credit should offer record and deals', { actual: creditOpts, page: zoe });
  await zoe.page.locator('select#create-credit').selectOption('record');
  await zoe.page.locator('select#create-rules').selectOption('uk-32');
  await form.locator('details.house summary').click();
  await zoe.page.locator('textarea#create-house').fill(HOUSE);
  for (const seat of ['E', 'S', 'W']) await form.locator(`input[name=bot][value=${seat}]`).check();
  await zoe.page.locator('select#create-level').selectOption('random');
  await zoe.page.locator('input#create-delay').fill('0');
  await zoe.page.locator('select#create-takeover').selectOption('bot');
  await zoe.page.locator('input#create-grace').fill('0');
  await sc.shot(zoe, 'create-rated', { focus: 'select#create-credit' });
  await zoe.click('#create-submit');
  await zoe.until((s) => s.table && s.you === 'N' && s.phase, 'Zoë seated North at her rated table', 15000);
  // Its id: her newest game in the archive.
  let A = null;
  for (const end = Date.now() + 10000; A === null; await sleep(50)) {
    const r = await apiOk(sc, '/club/api/games?player=Zo%C3%AB');
    A = r.rows.map((x) => x.id).find((id) => id !== L && id !== B) ?? null;
    if (A === null && Date.now() > end) fail('the rated game made from the form should be in the archive once started', { actual: r });
  }
  await zoe.click('#leave-btn');
  await zoe.click('#confirm-yes');
  await zoe.until((s) => s.lobby && !s.table, 'the lobby after leaving the rated table', 10000);

  const games = { L: await gameOver(sc, L), B: await gameOver(sc, B), A: await gameOver(sc, A) };
  check(games.A.rated === true && games.B.rated === true && games.L.ladder === true, 'the games should be rated (A, B) and a ladder game (L)', { actual: { A: games.A.rated, B: games.B.rated, L: games.L.ladder } });

  // The lobby's Club link reaches the ladder.
  await zoe.visible('#club-link', "the lobby's Club link (#club-link)");
  await zoe.click('#club-link');
  await shown(zoe, 'ladder');
  check(new URL(zoe.page.url()).pathname.startsWith('/club'), 'the Club link should lead to /club/', { actual: zoe.page.url(), page: zoe });

  // The ladder: this month's, as the API says.
  const lad = await apiOk(sc, '/club/api/ladder');
  const rows = await attrs(zoe, '#ladder-ranked tbody tr', 'data-name');
  check(lad.ranked.length === 4 && rows.join() === lad.ranked.map((r) => r.name).join(), "the ladder's ranked rows should be the API's four players, in its order", { expected: lad, actual: rows, page: zoe });
  const totals = await attrs(zoe, '#ladder-ranked tbody tr', 'data-total');
  check(totals.join() === lad.ranked.map((r) => String(r.total)).join(), "the ladder's totals should be the API's", { expected: lad.ranked.map((r) => r.total), actual: totals, page: zoe });
  const seats = Object.fromEntries(games.L.players.filter((p) => p.credited).map((p) => [p.name, p.points]));
  for (const r of lad.ranked) check(seats[r.name] === r.total && r.games === 1, `${r.name}'s ladder total should be their credited points in the ladder game`, { expected: seats[r.name], actual: r });
  check((await zoe.attr('#club-json', 'href')) === '/club/api/ladder', 'the ladder links its JSON twin', { actual: await zoe.attr('#club-json', 'href'), page: zoe });
  await look(sc, zoe, 'ladder');
  await auditBoth(sc, zoe, 'the ladder');
  await zoe.click('#ladder-year');
  await zoe.page.locator('#ladder[data-kind="year"]').waitFor({ timeout: 10000 });
  check(new URL(zoe.page.url()).searchParams.get('period') === lad.period.slice(0, 4), "the year's ladder's address", { actual: zoe.page.url(), page: zoe });
  await look(sc, zoe, 'ladder-year');

  // Zoë's page: from the ladder's link.
  await zoe.click('#ladder a[href="/club/player/Zo%C3%AB"]');
  await shown(zoe, 'player');
  const me = await apiOk(sc, '/club/api/player/Zo%C3%AB');
  check(me.history.length === 3 && me.rating.games === 3, "Zoë's history should have her three rated games (the ladder game and two rated tables)", { expected: 3, actual: { history: me.history.length, games: me.rating.games } });
  const pts = await zoe.count('svg#rating-chart circle.chart-point');
  check(pts === me.history.length, "Zoë's rating chart should have a point per rated game", { expected: me.history.length, actual: pts, page: zoe });
  const shownRating = Number(await zoe.attr('#rating', 'data-rating'));
  check(Math.abs(shownRating - me.rating.rating) < 1e-9, "Zoë's page shows the API's rating", { expected: me.rating.rating, actual: shownRating, page: zoe });
  check((await zoe.count('svg#rating-chart title')) > 0 && (await zoe.count('svg#rating-chart desc')) > 0, 'the chart has a title and a description', { page: zoe });
  const mine = await attrs(zoe, '#player-games tbody tr', 'data-game');
  check(mine.map(Number).sort().join() === [A, B, L].sort().join(), "Zoë's games table should list her three games", { expected: [A, B, L], actual: mine, page: zoe });
  await look(sc, zoe, 'player');
  await auditBoth(sc, zoe, "Zoë's page");

  // A game's page: her rated game from the browser.
  await zoe.click(`#player-games a[href="/club/game/${A}"]`);
  await shown(zoe, 'game');
  const g = games.A;
  const dealRows = await zoe.count('#score-sheet tbody tr[data-deal]');
  check(dealRows === g.deals.length && dealRows === g.n_deals && dealRows === 4, 'the score sheet has a row per deal (four)', { expected: g.n_deals, actual: dealRows, page: zoe });
  for (const s of ['N', 'E', 'S', 'W']) {
    const t = Number(await zoe.attr(`#sheet-totals td[data-seat="${s}"]`, 'data-points'));
    const col = (await attrs(zoe, `#score-sheet tbody td[data-seat="${s}"]`, 'data-points')).reduce((a, x) => a + Number(x), 0);
    check(t === g.totals[s] && col === t, `the sheet's total for ${s} should be the API's and the sum of its rows`, { expected: g.totals[s], actual: { total: t, rows: col }, page: zoe });
  }
  const zoeRow = zoe.page.locator('#game-players tr[data-seat="N"]').first();
  check((await zoeRow.getAttribute('data-name')) === 'Zoë' && (await zoeRow.getAttribute('data-credited')) === 'true', 'North is Zoë, credited (the player of record)', { actual: await zoeRow.getAttribute('data-name'), page: zoe });
  const rec = await zoe.attr('#game-record', 'href');
  const recText = await (await fetch(new URL(rec, sc.server.url))).text();
  check(rec === `/club/api/game/${A}/record` && recText.length > 100, "the record link downloads the game's record", { actual: { rec, len: recText.length }, page: zoe });
  check((await zoe.attr('#game-viewer', 'href')) === `/club/viewer#game=${A}`, 'the game links the hand viewer', { page: zoe });
  await look(sc, zoe, 'game');
  await auditBoth(sc, zoe, 'a game');

  // A running game: its players, nothing more.
  await visit(zoe, `/club/game/${R}`, 'game');
  check((await zoe.attr('#game', 'data-status')) === 'running' && (await zoe.count('#score-sheet')) === 0 && (await zoe.count('#game-players tbody tr')) === 4, 'a running game shows its four players and no score sheet', { page: zoe });

  // The archive: pages, and filters in the address.
  await zoe.click('#club-nav a[data-nav="archive"]');
  await shown(zoe, 'games');
  const all = await apiOk(sc, '/club/api/games');
  check(all.total === ABANDONED + 4 && all.pages === 2, 'the archive holds every game: 26 abandoned, 3 over and 1 running, in two pages', { expected: ABANDONED + 4, actual: { total: all.total, pages: all.pages } });
  check((await zoe.count('#games tbody tr')) === 25, "the archive's first page has 25 rows", { actual: await zoe.count('#games tbody tr'), page: zoe });
  await look(sc, zoe, 'archive');
  await auditBoth(sc, zoe, 'the archive');
  await zoe.click('#pager a[rel="next"]');
  await zoe.page.waitForURL(/page=2/, { timeout: 10000 });
  await shown(zoe, 'games');
  check((await zoe.count('#games tbody tr')) === all.total - 25, "the archive's second page has the rest", { expected: all.total - 25, actual: await zoe.count('#games tbody tr'), page: zoe });
  await zoe.page.locator('input#f-player').fill('Zoë');
  await zoe.click('#f-apply');
  await zoe.page.waitForURL(/player=/, { timeout: 10000 });
  await zoe.page.locator('#games-count').filter({ hasText: 'of 3' }).waitFor({ timeout: 10000 }).catch(() => {});
  const url1 = new URL(zoe.page.url());
  check(url1.searchParams.get('player') === 'Zoë' && !url1.searchParams.has('page'), "the archive's address keeps the player filter, from page 1", { actual: zoe.page.url(), page: zoe });
  const hers = (await attrs(zoe, '#games tbody tr', 'data-game')).map(Number);
  check(hers.sort().join() === [A, B, L].sort().join(), "filtered by player, the archive lists Zoë's three games", { expected: [A, B, L], actual: hers, page: zoe });
  await zoe.page.locator('input#f-player').fill('');
  await zoe.page.locator('select#f-rules').selectOption('uk-32');
  await zoe.page.locator('select#f-status').selectOption('over');
  await zoe.click('#f-apply');
  await zoe.page.waitForURL(/rules=uk-32/, { timeout: 10000 });
  await shown(zoe, 'games');
  const over = await attrs(zoe, '#games tbody tr', 'data-game');
  check(over.length === 3, 'uk-32 games over: the three', { actual: over, page: zoe });
  await look(sc, zoe, 'archive-filtered');

  // The ratings.
  await zoe.click('#club-nav a[data-nav="ratings"]');
  await shown(zoe, 'ratings');
  const rt = await apiOk(sc, '/club/api/ratings');
  const names = await attrs(zoe, '#ratings-players tbody tr', 'data-name');
  check(names.join() === rt.players.map((p) => p.name).join() && names.includes('Zoë'), 'the ratings list the API\'s players', { expected: rt.players.map((p) => p.name), actual: names, page: zoe });
  await look(sc, zoe, 'ratings');
  await auditBoth(sc, zoe, 'the ratings');

  // A refusal: the server's sentence, whole.
  const nobody = await api(sc, '/club/api/player/nobody-at-all');
  await visit(zoe, '/club/player/nobody-at-all', 'player');
  const err = (await texts(zoe, '#club-error')).join('');
  check(nobody.status === 404 && err === nobody.body.error, "a player with no account: the server's sentence in #club-error", { expected: nobody.body?.error, actual: err, page: zoe });
  sc.stats.extra = `games=${all.total} chart-points=${pts} deal-rows=${dealRows}`;
}

export const CLUB_PAGES = { club_pages: clubPages };
