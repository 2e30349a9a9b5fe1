// Issue 22, an evening at the club (points 1, 5 and 6): leaving is safe, a
// new game is one click, you notice your turn.  Two people, ann (1280x800)
// and bob (a phone, 390x844), click through the page:
//
// - the settings dialog: the turn sound turned on is still on after a reload;
// - a table with a 10 s move clock: the title says "● Your turn" on ann's
//   turn, #clock[data-seat=N] counts down, the chime plays, and when ann
//   waits the clock's notice shows in the chat;
// - "Leave table" asks (dialog#confirm): "Stay" keeps her seated, yes
//   leaves; a computer player takes her seat and the lobby's "Sit back"
//   gives it back; then she hands the table to the computer players;
// - a waiting table's invitation link; leaving asks; "Close table" asks and
//   closes it;
// - a short game (8 deals of 8 cards) with bob, who comes in through the
//   invitation link in a fresh browser and is seated at once; both leave
//   (the computer players finish it) and watch the finished table from the
//   lobby; ann's "Play again" and bob's "Join ann's new game" put both at
//   one new table in their old seats;
// - "Log out" asks, and the handle is free at once.

import { check, DESKTOP, fail, PHONE, sleep } from './harness.mjs';

/** Eight deals of 32 cards, no doubling: a whole game in seconds. */
const SHORT_GAME = [
  'doubling = no',
  'undoubled-not-played = no',
  'mandatory-doubles = 0',
  'no-tricks.times = 2',
  'no-hearts.times = 1',
  'no-queens.times = 1',
  'no-king.times = 1',
  'no-last-two.times = 1',
  'trumps.times = 1',
  'domino.times = 1',
  'trumps.per-trick = 7',
].join('\n');

const TURN = '\u25cf Your turn \u2014 ';

/** The page's title, #table's id and whose turn, read in one go. */
function peek(p) {
  return p.page.evaluate(() => {
    const t = document.querySelector('#table');
    const id = /Table (\d+)/.exec(t?.getAttribute('aria-label') ?? '');
    return {
      title: document.title,
      table: id ? Number(id[1]) : null,
      you: t?.getAttribute('data-you') ?? null,
      toMove: t?.getAttribute('data-to-move') || null,
      phase: t?.getAttribute('data-phase') ?? null,
      chimes: Number(document.documentElement.dataset.chimes ?? 0),
    };
  });
}

async function text(p, sel) {
  return ((await p.page.locator(sel).first().textContent({ timeout: 3000 }).catch(() => '')) ?? '').replace(/\s+/g, ' ').trim();
}

/** The lobby's form, with the fields this scenario needs. */
async function create(sc, p, { rules = 'uk', house = null, bots = ['E', 'S', 'W'], clock = 0, takeover = 'vote', delay = 0, shot = null }) {
  await p.click('#new-table');
  await p.visible('form#create', 'the new-table form (form#create)');
  const page = p.page;
  const seed = page.locator('input#create-seed');
  const seedValue = await seed.inputValue();
  const placeholder = (await seed.getAttribute('placeholder')) ?? '';
  check(seedValue === '' && /server/i.test(placeholder), `${p.name}: the create form's seed should be empty by default, its placeholder saying the server draws one`, { expected: 'empty, a placeholder naming the server', actual: { seedValue, placeholder }, page: p });
  await page.locator('select#create-rules').selectOption(rules);
  if (house) {
    await page.locator('form#create details.house summary').click();
    await page.locator('textarea#create-house').fill(house);
  }
  for (const s of ['E', 'S', 'W']) {
    const box = page.locator(`form#create input[name=bot][value=${s}]`);
    if (bots.includes(s)) await box.check();
    else await box.uncheck();
  }
  await page.locator('select#create-level').selectOption('easy');
  await page.locator('input#create-delay').fill(String(delay));
  await page.locator('select#create-takeover').selectOption(takeover);
  await page.locator('input#create-clock').fill(String(clock));
  await page.locator('select#create-sit').selectOption('N');
  if (shot) await sc.shot(p, shot, { focus: 'form#create' });
  await p.click('#create-submit');
  p.seat = 'N';
  await p.until((s) => s.table && s.you === 'N', `${p.name}: #table[data-you=N] after creating the table`, 15000);
  return (await peek(p)).table;
}

/** Opens dialog#confirm with `open` (a click), checks it says `says`; answers. */
async function confirm(sc, p, open, { says, yes, shot }) {
  await p.click(open);
  await p.visible('dialog#confirm', `dialog#confirm after clicking ${open}`);
  const said = await text(p, 'dialog#confirm');
  check(says.test(said), `${p.name}: dialog#confirm after ${open} should say ${says}`, { expected: String(says), actual: said, page: p });
  if (shot) await sc.shot(p, shot, { focus: 'dialog#confirm' });
  await p.click(yes ? 'button#confirm-yes' : 'button#confirm-no');
  await p.page.locator('dialog#confirm').waitFor({ state: 'hidden', timeout: 3000 }).catch(() => fail(`${p.name}: dialog#confirm stays open after an answer`, { page: p }));
  return said;
}

/** A row's button in the lobby, waited for. */
async function rowButton(p, id, sel, what) {
  const b = p.page.locator(`#lobby [data-table="${id}"] ${sel}`).first();
  await b.waitFor({ state: 'visible', timeout: 10000 }).catch(async () =>
    fail(`${p.name}: the lobby's row of table ${id} should offer ${what} (${sel})`, { expected: sel, actual: await text(p, `#lobby [data-table="${id}"]`), page: p }),
  );
  return b;
}

/** Screenshots at both widths; bob's page goes back to the phone's. */
async function shot(sc, p, name, focus) {
  if (p.phone) await p.page.setViewportSize(DESKTOP);
  await sc.shot(p, name, { focus });
  if (p.phone) await p.page.setViewportSize(PHONE);
}

// ------------------------------------------------------------- pieces

async function settingsRemembered(sc, ann) {
  await ann.click('button#settings-btn');
  await ann.visible('dialog#settings', 'dialog#settings after button#settings-btn');
  for (const id of ['set-trick-pause', 'set-sound', 'set-tap-confirm', 'set-summary-pause'])
    check((await ann.count(`dialog#settings input#${id}`)) === 1, `ann: dialog#settings should hold input#${id}`, { page: ann });
  check(!(await ann.page.locator('input#set-sound').isChecked()), 'ann: the turn sound should be off by default', { page: ann });
  await ann.page.locator('input#set-sound').check();
  // A finished trick goes at once: the games here are played quickly.
  await ann.page.locator('input#set-trick-pause').fill('0');
  await shot(sc, ann, 'settings', 'dialog#settings');
  await ann.click('button#settings-close');
  await ann.page.reload({ waitUntil: 'load' });
  await ann.until((s) => s.lobby && s.conn === 'open', 'the lobby back after the reload', 15000);
  await ann.click('button#settings-btn');
  await ann.visible('dialog#settings');
  check(await ann.page.locator('input#set-sound').isChecked(), 'ann: the turn sound turned on should still be on after a reload', { expected: 'input#set-sound checked', page: ann });
  await ann.click('button#settings-close');
  sc.log('settings: the sound stays on after a reload');
}

/** ann's turn at a clocked table: the title, the clock, the chime, then the
 * clock runs out and the notice says what the computer player did. */
async function clockAndTitle(sc, ann) {
  const s = await ann.until((s) => s.toMove === 'N' && s.phase !== 'over', "ann's turn at the clocked table", 20000);
  let x = await peek(ann);
  check(x.title.startsWith(TURN), 'ann: on her turn the title should start with "● Your turn — "', { expected: TURN, actual: x.title, page: ann });
  await ann.visible('#clock[data-seat=N]', "#clock[data-seat=N] on ann's turn");
  const [secs, shown] = await ann.page.evaluate(() => {
    const c = document.querySelector('#clock[data-seat=N]');
    return [Number(c?.getAttribute('data-seconds')), c?.textContent ?? ''];
  });
  check(secs >= 1 && secs <= 10 && shown.includes(`${secs}`), 'ann: #clock[data-seat=N] should show the seconds left of a 10 s clock', { expected: '1-10 s', actual: { secs, shown }, page: ann });
  await sleep(1300);
  const later = Number(await ann.attr('#clock[data-seat=N]', 'data-seconds'));
  check(later < secs || (await peek(ann)).toMove !== 'N', 'ann: the clock should count down', { expected: `< ${secs}`, actual: later, page: ann });
  check(x.chimes >= 1, 'ann: with the sound on, the chime should have played as her turn came (html[data-chimes])', { actual: x.chimes, page: ann });
  await shot(sc, ann, 'clock', '#table');
  // She waits: the computer player acts for her and the chat says so.
  const line = ann.page.locator('#chat-log li.notice-line').filter({ hasText: /time ran out/i });
  await line.first().waitFor({ state: 'attached', timeout: 16000 }).catch(async () =>
    fail("ann: when her clock ran out the clock's notice should show in #chat-log (li.notice-line)", { expected: 'North\'s time ran out: ...', actual: await text(ann, '#chat-log'), page: ann }),
  );
  const said = await text(ann, '#chat-log li.notice-line');
  sc.log(`clock notice: "${said}"`);
  await shot(sc, ann, 'clock-notice', '#chat-log');
  // The title follows the turn: never "Your turn" when it is not.
  for (let i = 0; i < 20; i++) {
    x = await peek(ann);
    const mine = x.toMove === 'N' && x.phase !== 'over';
    check(mine === x.title.startsWith(TURN), 'ann: the title should say "Your turn" exactly while it is her turn', { actual: x, page: ann });
    await sleep(40);
  }
  return s;
}

async function leaveAndSitBack(sc, ann, id) {
  await confirm(sc, ann, '#leave-btn', { says: /computer player takes your seat/i, yes: false, shot: 'confirm-leave' });
  let x = await peek(ann);
  check(x.table === id && x.you === 'N', 'ann: "Stay" in dialog#confirm should keep her seated', { expected: `table ${id}, N`, actual: x, page: ann });
  await confirm(sc, ann, '#leave-btn', { says: /sit back/i, yes: true });
  await ann.until((s) => s.lobby && !s.table, 'the lobby after leaving', 10000);
  x = await peek(ann);
  check(!x.title.startsWith(TURN), 'ann: in the lobby the title should no longer say "Your turn"', { actual: x.title, page: ann });
  const clockTag = await text(ann, `#lobby [data-table="${id}"] .clock-tag`);
  check(/10 s a move/.test(clockTag), "ann: the lobby's row should show the table's move clock", { expected: '10 s a move', actual: clockTag, page: ann });
  const back = await rowButton(ann, id, 'button[data-sit-back=N]', 'Sit back');
  await shot(sc, ann, 'lobby-sit-back', `#lobby [data-table="${id}"]`);
  await ann.click(back, { what: 'button[data-sit-back=N]' });
  await ann.until((s) => s.table && s.you === 'N', '#table[data-you=N] after "Sit back"', 10000);
  check((await peek(ann)).table === id, 'ann: "Sit back" should seat her at her own table', { page: ann });
  sc.log(`ann sat back at table ${id}`);
  // Leaves again and hands the table to the computer players.
  await confirm(sc, ann, '#leave-btn', { says: /computer player/i, yes: true });
  await ann.until((s) => s.lobby && !s.table, 'the lobby after leaving again', 10000);
  const hand = await rowButton(ann, id, `button[data-hand-over="${id}"]`, 'Hand over');
  await confirm(sc, ann, hand, { says: /computer players/i, yes: true, shot: 'confirm-hand-over' });
  await ann.page
    .locator(`#lobby [data-table="${id}"] button[data-hand-over]`)
    .waitFor({ state: 'detached', timeout: 5000 })
    .catch(() => fail(`ann: after handing table ${id} over its "Hand over" button should go`, { page: ann }));
  sc.log(`ann handed table ${id} over`);
}

async function closeWaiting(sc, ann) {
  const id = await create(sc, ann, { bots: [] });
  await ann.visible('#invite-link', "#invite-link at ann's waiting table");
  const link = await ann.page.locator('#invite-link').inputValue();
  check(link.endsWith(`#table=${id}`), 'ann: a waiting table with three free seats invites to any seat', { expected: `...#table=${id}`, actual: link, page: ann });
  await shot(sc, ann, 'invite-waiting', '#invite-link');
  await confirm(sc, ann, '#leave-btn', { says: /not started/i, yes: true });
  await ann.until((s) => s.lobby && !s.table, 'the lobby after leaving the waiting table', 10000);
  const close = await rowButton(ann, id, `button[data-close="${id}"]`, 'Close table');
  await confirm(sc, ann, close, { says: /close/i, yes: false });
  check((await ann.count(`#lobby [data-table="${id}"]`)) === 1, 'ann: "Keep it" should keep the table', { page: ann });
  await confirm(sc, ann, close, { says: /close/i, yes: true, shot: 'confirm-close' });
  await ann.page
    .locator(`#lobby [data-table="${id}"]`)
    .waitFor({ state: 'detached', timeout: 5000 })
    .catch(() => fail(`ann: after "Close table" table ${id} should leave the lobby`, { page: ann }));
  sc.log(`ann closed table ${id}`);
}

/** bob's fresh browser, a phone: the settings dialog at 390 px, a finished
 * trick going at once (a quick game). */
async function bobArrives(sc) {
  const bob = await sc.person('bob');
  bob.phone = true;
  await bob.page.setViewportSize(PHONE);
  await bob.open();
  await bob.click('button#settings-btn');
  await bob.visible('dialog#settings', "dialog#settings on bob's phone");
  await bob.page.locator('input#set-trick-pause').fill('0');
  await shot(sc, bob, 'settings-phone', 'dialog#settings');
  await bob.click('button#settings-close');
  return bob;
}

/** bob opens ann's invitation (in his browser, before giving a handle). */
async function bobInvited(sc, ann, bob) {
  const link = await ann.page.locator('#invite-link').inputValue();
  await ann.click('button#copy-invite');
  await ann.page.waitForFunction(() => /copied|copy it/i.test(document.querySelector('#notice')?.textContent ?? ''), null, { timeout: 3000 }).catch(() => fail('ann: button#copy-invite should say in #notice that the link is copied', { page: ann }));
  // A fresh load of the link, as from a message.
  await bob.page.goto('about:blank');
  await bob.page.goto(link, { waitUntil: 'load' });
  await bob.visible('form#login', "bob's handle form");
  bob.handle = 'bob';
  await bob.page.locator('input#handle').fill('bob');
  await bob.click(bob.page.locator('form#login').getByRole('button').first(), { what: 'the handle form\'s submit button' });
  await bob.until((s) => s.table && s.you === 'E', "bob seated East straight from the invitation link (#table[data-you=E])", 10000);
  bob.seat = 'E';
  sc.log(`bob came in through ${link}`);
  return bob;
}

/** Both leave the game they started (asked first; the table's computer
 * players take their seats and finish it), then come back to watch its end
 * from the lobby (a player may watch their own table once it is over). */
async function leaveAndWatchEnd(sc, ann, bob, id) {
  await ann.until((s) => s.phase && s.phase !== 'waiting', 'the game to start once bob sat down', 10000);
  for (const p of [ann, bob]) {
    await confirm(sc, p, '#leave-btn', { says: /computer player takes your seat/i, yes: true });
    await p.until((s) => s.lobby && !s.table, `${p.name}: the lobby after leaving`, 10000);
  }
  for (const p of [ann, bob]) {
    const row = p.page.locator(`#lobby [data-table="${id}"][data-state=over]`);
    await row.first().waitFor({ state: 'visible', timeout: 30000 }).catch(() => fail(`${p.name}: table ${id} should be over in the lobby once the computer players finished it`, { page: p }));
    await p.click(row.first().locator(`button[data-kibitz=${p.seat}]`), { what: `the finished table's button[data-kibitz=${p.seat}]` });
    await p.until((s) => s.table && s.you === 'kibitz' && s.phase === 'over', `${p.name}: watching the finished table`, 10000);
  }
}

async function playAgain(sc, ann, bob, old) {
  await ann.visible('button#again-btn', 'button#again-btn at game over');
  await shot(sc, ann, 'game-over', '#game-over');
  await ann.click('button#again-btn');
  await ann.until((s) => s.table && s.you === 'N', "ann at the new table after \"Play again\"", 10000);
  ann.seat = 'N';
  const nu = (await peek(ann)).table;
  check(nu !== old, 'ann: "Play again" should seat her at a new table', { expected: `not ${old}`, actual: nu, page: ann });
  await bob.visible('button#join-again', "bob's button#join-again after ann's \"Play again\"");
  const offer = await text(bob, '#again');
  check(offer.includes('ann'), "bob: the offer should name who started the new game", { actual: offer, page: bob });
  const link = await bob.page.locator('#invite-link').inputValue();
  check(link.endsWith(`#table=${nu}`), "bob: the invitation link at game over should open the new table", { expected: `#table=${nu}`, actual: link, page: bob });
  await shot(sc, bob, 'join-again', '#game-over');
  await bob.click('button#join-again');
  const end = Date.now() + 10000;
  let bt = await peek(bob);
  while (!(bt.table === nu && bt.you === 'E') && Date.now() < end) {
    await sleep(50);
    bt = await peek(bob);
  }
  check(bt.table === nu && bt.you === 'E', 'bob: "Join" should seat him at the table ann started, in his old seat (East)', { expected: { table: nu, you: 'E' }, actual: bt, page: bob });
  await ann.until((s) => s.phase && s.phase !== 'waiting', 'the new game to start with both seated', 10000);
  sc.log(`again: table ${old} -> ${nu}, ann N, bob E`);
}

async function logoutFrees(sc, ann) {
  const handle = ann.handle;
  await confirm(sc, ann, '#logout', { says: /handle/i, yes: false });
  check((await ann.state()).table, 'ann: "Stay" should keep her at the table', { page: ann });
  await confirm(sc, ann, '#logout', { says: /handle/i, yes: true, shot: 'confirm-logout' });
  await ann.until((s) => s.login, 'the handle form after logging out', 10000);
  const saved = await ann.page.evaluate(() => [sessionStorage.getItem('barbu.session'), localStorage.getItem('barbu.last')]);
  check(saved.every((v) => v === null), 'ann: logging out should forget the saved session', { actual: saved, page: ann });
  await ann.page.locator('input#handle').fill(handle);
  await ann.click(ann.page.locator('form#login').getByRole('button').first(), { what: 'the handle form\'s submit button' });
  await ann.until((s) => s.lobby && s.conn === 'open', `the lobby: the handle ${handle} is free at once after logging out`, 10000);
  sc.log('logged out; the handle was free at once');
}

// ----------------------------------------------------------- scenarios

/** Settings, the clock and the title, leaving, sitting back, handing over, closing. */
export async function eveningA(sc) {
  await sc.start();
  const ann = await sc.person('ann');
  await ann.open(true);
  await ann.login('ann');
  await settingsRemembered(sc, ann);

  const t1 = await create(sc, ann, { clock: 10, takeover: 'bot', delay: 500, shot: 'create-clock' });
  await clockAndTitle(sc, ann);
  await leaveAndSitBack(sc, ann, t1);

  await closeWaiting(sc, ann);
}

/** The invitation link, a game of two people, play again, log out. */
export async function eveningAgain(sc) {
  await sc.start();
  const ann = await sc.person('ann');
  const [bob] = await Promise.all([
    bobArrives(sc),
    (async () => {
      await ann.open(true);
      await ann.login('ann');
      await ann.click('button#settings-btn');
      await ann.visible('dialog#settings');
      await ann.page.locator('input#set-trick-pause').fill('0');
      await ann.click('button#settings-close');
    })(),
  ]);
  const t3 = await create(sc, ann, { rules: 'uk-32', house: SHORT_GAME, bots: ['S', 'W'], takeover: 'bot' });
  await ann.visible('#invite-link');
  const link = await ann.page.locator('#invite-link').inputValue();
  check(link.endsWith(`#table=${t3}&seat=E`), 'ann: one free seat: the link invites to it', { expected: `#table=${t3}&seat=E`, actual: link, page: ann });
  await bobInvited(sc, ann, bob);
  await leaveAndWatchEnd(sc, ann, bob, t3);
  await playAgain(sc, ann, bob, t3);
  await logoutFrees(sc, ann);
}
