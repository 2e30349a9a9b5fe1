// Issue 23 in the browser (web/README.md names the elements):
//
// - `accounts`: Zoë signs up ("Zoë", a Unicode handle; the repeat typed
//   wrong first: the form says so), signs out, signs in (a wrong password
//   first: the server's sentence in #login-error), then a second browser
//   signs in as "zoë" and the first hears "replaced".  The second changes
//   the password (a wrong current one first); the first's take-back is
//   refused (its token was revoked) and it signs in with the new one.  A
//   guest, bob, is "(guest)" beside his name in Zoë's lobby, at her table
//   and in her chat; Zoë is not marked on his page.  Zoë makes a ladder
//   table (the box only for a registered player: bob's form has none); bob's
//   Sit is refused with the server's sentence.  Zoë signs out everywhere:
//   the other browser, reloaded, is back at the start form.  bob registers
//   his handle from the account menu (the saved token replaced).  The
//   password is never in localStorage, sessionStorage or the console.
// - `fair_deals`: an unseeded short game shows the commitment from the
//   start ("Deals committed to: 3fa1c2…"), no key; played to its end, the
//   key, whose BLAKE2b-256 (b2sum -l 256) is the commitment, and the record
//   downloaded from #fair-record passes `barbu verify`.
// - `moderation`: the server runs with --admin Root.  Root signs up and sees
//   the Administration button; bob (a guest) reports Carol at her table
//   from the flag beside her name: Root's panel shows the report as it
//   arrives.  Root removes bob from his seat (a reason asked in
//   dialog#confirm; bob hears it), bans him (bob's page is back at the start
//   form, saying so, and his handle is refused), then unbans him; the acts
//   are listed; Root closes Carol's table and she is back in the lobby.
//
// Each with the axe audit at 1280x800 and 390x844 and screenshots.

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { auditBoth } from './axe.mjs';
import { create, playToEnd, SHORT_RULES } from './evening_d.mjs';
import { check, fail, sleep } from './harness.mjs';

const PW1 = 'Correct horse 17';
const PW2 = 'Battery staple 42!';

// ---------------------------------------------------------------- pieces

/** A person whose page's console lines are kept (to look for secrets). */
async function person(sc, name) {
  const p = await sc.person(name);
  p.consoleLines = [];
  p.page.on('console', (m) => p.consoleLines.push(m.text()));
  return p;
}

/** The start form in one of its ways, filled and sent; resolves with the page's state. */
async function startForm(p, mode, handle, password, repeat = password, { expectLobby = true } = {}) {
  await p.click(`#mode-${mode}`);
  const page = p.page;
  await page.locator('input#handle').fill(handle);
  if (mode !== 'guest') await page.locator('input#password').fill(password);
  if (mode === 'signup') await page.locator('input#password-repeat').fill(repeat);
  await p.click('#join');
  if (!expectLobby) return p.state();
  return p.until((s) => s.lobby && s.conn === 'open', `#lobby with #conn[data-state=open] after ${mode} as ${handle}`, 15000);
}

async function loginError(p, pattern, what) {
  const end = Date.now() + 10000;
  let text = '';
  for (;;) {
    text = (await p.page.locator('#login-error').textContent().catch(() => '')) ?? '';
    if (pattern.test(text)) return text;
    if (Date.now() > end) fail(`${p.name}: ${what}`, { expected: String(pattern), actual: text, page: p });
    await sleep(50);
  }
}

async function accountText(p) {
  return ((await p.page.locator('#account-btn').textContent({ timeout: 5000 }).catch(() => '')) ?? '').replace(/\s+/g, ' ').trim();
}

async function menuItem(p, id) {
  await p.click('#account-btn');
  await p.visible(`#account-menu #${id}`, `#${id} in the account menu`);
  await p.click(`#account-menu #${id}`);
}

async function answer(p, yes, reason) {
  const d = p.page.locator('dialog#confirm[open]');
  await d.waitFor({ state: 'visible', timeout: 5000 }).catch(() => fail(`${p.name}: dialog#confirm did not open`, { page: p }));
  if (reason !== undefined) await p.page.locator('#confirm-reason').fill(reason);
  await p.click(yes ? '#confirm-yes' : '#confirm-no');
  await d.waitFor({ state: 'hidden', timeout: 5000 }).catch(() => fail(`${p.name}: dialog#confirm did not close`, { page: p }));
}

/** Neither storage of the page holds the password, nor did the console. */
async function noSecret(p, secret) {
  const stored = await p.page.evaluate(() => {
    const all = (s) => {
      const o = {};
      for (let i = 0; i < s.length; i++) o[s.key(i)] = s.getItem(s.key(i));
      return JSON.stringify(o);
    };
    return all(window.localStorage) + all(window.sessionStorage);
  });
  check(!stored.includes(secret), `${p.name}: the password must not be in localStorage or sessionStorage`, { actual: stored, page: p });
  const said = p.consoleLines.filter((l) => l.includes(secret));
  check(said.length === 0, `${p.name}: the password must not reach the console`, { actual: said, page: p });
  const fields = await p.page.evaluate(() => [...document.querySelectorAll('input[type=password]')].map((i) => i.value).filter(Boolean));
  check(fields.length === 0, `${p.name}: the password fields should be empty once sent`, { actual: fields.length, page: p });
}

async function notice(p, pattern, what, ms = 8000) {
  return p.until((s) => s.notice && pattern.test(s.notice.text), what, ms);
}

function lobbyRow(p, id) {
  return p.page.locator(`#lobby [data-table="${id}"]`);
}

async function tableId(p) {
  return Number(((await p.attr('#table', 'aria-label')) ?? '').replace(/\D+/g, ''));
}

async function leaveTable(p) {
  await p.click('button#leave-btn');
  const yes = p.page.locator('dialog[open] #confirm-yes');
  if (await yes.waitFor({ state: 'visible', timeout: 800 }).then(() => true, () => false)) await p.click(yes, { what: '#confirm-yes' });
  await p.until((x) => x.lobby && !x.table, '#lobby after leaving the table', 10000);
}

async function say(p, text) {
  await p.page.locator('input#chat-text').fill(text);
  await p.page.locator('input#chat-text').press('Enter');
}

/** The chat line holding text: whether it carries the "(guest)" mark. */
async function chatLine(p, text) {
  const li = p.page.locator('#chat-log li', { hasText: text }).first();
  await li.waitFor({ state: 'attached', timeout: 8000 }).catch(() => fail(`${p.name}: the chat line "${text}" did not come`, { page: p }));
  return { text: (await li.textContent()).trim(), guest: (await li.locator('.guest-tag').count()) > 0 };
}

// -------------------------------------------------------------- accounts

async function accounts(sc) {
  await sc.start();
  const a = await person(sc, 'zoe-laptop');
  await a.open(true);

  // Sign up: the repeat wrong first (the page says so, nothing is sent).
  await startForm(a, 'signup', 'Zoë', PW1, 'Correct horse 71', { expectLobby: false });
  await loginError(a, /not the same/, 'the form should say the two passwords differ');
  check(!(await a.state()).lobby, 'zoe: a wrong repeat must not sign up', { page: a });
  check((await a.attr('#password', 'autocomplete')) === 'new-password' && (await a.attr('#password-repeat', 'autocomplete')) === 'new-password', 'zoe: signing up, the password fields say autocomplete="new-password"', { page: a });
  await a.page.locator('input#handle').fill('Zoë');
  await a.page.locator('input#password').fill(PW1);
  await a.page.locator('input#password-repeat').fill(PW1);
  await sc.shot(a, 'signup-form', { focus: 'form#login' });
  await auditBoth(sc, a, 'the sign-up form');
  await a.click('#join');
  await a.until((s) => s.lobby && s.conn === 'open', '#lobby after signing up', 15000);
  let who = await accountText(a);
  check(who.includes('Zoë') && !who.includes('(guest)'), 'zoe: the account button should say Zoë, not marked as a guest', { expected: 'Zoë', actual: who, page: a });
  check((await a.page.locator('#logout').textContent()).trim() === 'Sign out', 'zoe: the header says "Sign out" for a registered player', { actual: await a.page.locator('#logout').textContent(), page: a });
  await noSecret(a, PW1);
  sc.log('Zoë signed up');

  await a.click('#account-btn');
  await a.visible('#account-menu #change-password', 'the account menu');
  const menuText = (await a.page.locator('#account-menu').textContent()).replace(/\s+/g, ' ');
  check(/Signed in as Zoë/.test(menuText), 'zoe: the account menu says "Signed in as Zoë"', { actual: menuText, page: a });
  check((await a.count('#account-menu #sign-out-everywhere')) === 1, 'zoe: the menu offers signing out everywhere', { page: a });
  await sc.shot(a, 'account-menu', { focus: '#account-menu' });
  await auditBoth(sc, a, 'the lobby with the account menu open');
  await a.page.keyboard.press('Escape');

  // Sign out, then in again (a wrong password first).
  await menuItem(a, 'sign-out');
  await answer(a, true);
  await a.until((s) => s.login && !s.lobby, 'the start form after signing out', 10000);
  await startForm(a, 'signin', 'Zoë', 'not the password', undefined, { expectLobby: false });
  const wrong = await loginError(a, /wrong/i, "the server's refusal of a wrong password in #login-error");
  check(!wrong.includes('not the password'), 'the refusal must not quote the password', { actual: wrong, page: a });
  check((await a.attr('#password', 'autocomplete')) === 'current-password', 'zoe: signing in, input#password says autocomplete="current-password"', { page: a });
  await sc.shot(a, 'signin-refused', { focus: 'form#login' });
  await startForm(a, 'signin', 'Zoë', PW1);
  sc.log(`Zoë signed out and in again (refused first: "${wrong}")`);

  // A second browser signs in as "zoë": the first hears that it was replaced.
  const b = await person(sc, 'zoe-phone');
  await b.open();
  await startForm(b, 'signin', 'zoë', PW1);
  who = await accountText(b);
  check(who.includes('Zoë'), 'zoe-phone: signed in as "zoë", the page says Zoë (the account\'s handle as registered)', { expected: 'Zoë', actual: who, page: b });
  await a.until((s) => s.conn === 'closed', 'the first browser told it was replaced (#conn[data-state=closed])', 10000);
  await a.visible('#replaced', 'the replaced banner (#replaced)');
  sc.log('the second browser signed in; the first was replaced');

  // The second changes the password: a wrong current one first.
  await menuItem(b, 'change-password');
  await b.visible('dialog#password-dialog', 'dialog#password-dialog');
  check((await b.attr('#pw-current', 'autocomplete')) === 'current-password' && (await b.attr('#pw-new', 'autocomplete')) === 'new-password', 'the password dialog\'s fields say current-password and new-password', { page: b });
  await b.page.locator('#pw-current').fill('Wrong password 1');
  await b.page.locator('#pw-new').fill(PW2);
  await b.page.locator('#pw-repeat').fill(PW2);
  await b.click('#password-submit');
  const end = Date.now() + 8000;
  let pwErr = '';
  while (Date.now() < end && !(pwErr = (await b.page.locator('#password-error').textContent()) ?? '').trim()) await sleep(50);
  check(/[A-Z].*[.?!]$/.test(pwErr.trim()), "zoe-phone: a wrong current password brings the server's sentence in #password-error", { actual: pwErr, page: b });
  await sc.shot(b, 'password-refused', { focus: 'dialog#password-dialog' });
  await auditBoth(sc, b, 'the password dialog');
  await b.page.locator('#pw-current').fill(PW1);
  await b.page.locator('#pw-new').fill(PW2);
  await b.page.locator('#pw-repeat').fill(PW2);
  await b.click('#password-submit');
  await notice(b, /password is changed/i, 'the notice that the password changed');
  await noSecret(b, PW1);
  await noSecret(b, PW2);
  sc.log(`the password changed (refused first: "${pwErr.trim()}")`);

  // The first browser's token was revoked: taking the session back fails.
  await a.click('#take-back');
  await a.until((s) => s.login, 'the start form: the old token is refused after the password changed', 10000);
  const revoked = (await a.page.locator('#login-error').textContent()).trim();
  check(/sign in as Zoë again/.test(revoked) && (await a.attr('form#login', 'data-mode')) === 'signin' && (await a.page.locator('#handle').inputValue()) === 'Zoë', 'the start form offers signing in as Zoë again', { actual: revoked, page: a });
  sc.log(`the revoked token was refused: "${revoked}"`);
  await startForm(a, 'signin', 'Zoë', PW2);
  await b.until((s) => s.conn === 'closed', 'the phone replaced in turn', 10000);
  await noSecret(a, PW2);

  // A guest: bob is "(guest)" on Zoë's page, she is not on his.
  const bob = await person(sc, 'bob');
  await bob.open();
  // Zoë's handle in capitals, as a guest: refused, the form turns to signing in.
  await startForm(bob, 'guest', 'ZOË', '', '', { expectLobby: false });
  const taken = await loginError(bob, /registered/i, "the server's refusal of a registered handle for a guest");
  check((await bob.attr('form#login', 'data-mode')) === 'signin', 'the start form turns to signing in after a registered handle', { actual: await bob.attr('form#login', 'data-mode'), page: bob });
  sc.log(`a guest as ZOË: "${taken}"`);
  await bob.click('#mode-guest');
  await bob.login('bob-a');
  await create(sc, a, { rules: 'classic', bots: [], sit: 'N' });
  const t1 = await tableId(a);
  await lobbyRow(bob, t1).locator('button[data-sit=E]').waitFor({ state: 'visible', timeout: 10000 });
  const zoeCell = lobbyRow(bob, t1).locator('td[data-seat=N]');
  const zoeCellText = (await zoeCell.textContent()).trim();
  check(zoeCellText.includes('Zoë') && (await zoeCell.locator('.guest-tag').count()) === 0, "bob's lobby: Zoë's seat shows Zoë, not marked as a guest", { actual: zoeCellText, page: bob });
  await bob.click(lobbyRow(bob, t1).locator('button[data-sit=E]'), { what: 'Sit East' });
  bob.seat = 'E';
  await bob.until((s) => s.table && s.you === 'E', 'bob at East', 10000);
  const seatE = a.page.locator('.seat[data-seat=E]');
  await seatE.locator('.guest-tag').waitFor({ state: 'visible', timeout: 8000 }).catch(() => fail("zoe: bob's seat should show (guest)", { page: a }));
  const eText = (await seatE.locator('.seat-head').textContent()).replace(/\s+/g, ' ');
  check(/bob-a \(guest\)/.test(eText), "zoe: the table shows 'bob-a (guest)'", { actual: eText, page: a });
  const nOnBob = bob.page.locator('.seat[data-seat=N]');
  check((await nOnBob.locator('.guest-tag').count()) === 0 && (await nOnBob.locator('.seat-name').textContent()).trim() === 'Zoë', "bob: Zoë's seat shows Zoë with no guest mark", { actual: await nOnBob.textContent(), page: bob });
  await say(bob, 'hello from a guest');
  await say(a, 'welcome, guest');
  const l1 = await chatLine(a, 'hello from a guest');
  const l2 = await chatLine(bob, 'welcome, guest');
  check(l1.guest && /bob-a \(guest\)/.test(l1.text), "zoe's chat marks bob's line (guest)", { actual: l1, page: a });
  check(!l2.guest, "bob's chat does not mark Zoë's line", { actual: l2, page: bob });
  await sc.shot(a, 'guest-marked', { focus: '.seat[data-seat=E]' });
  sc.log(`bob is marked as a guest: "${eText.trim()}"`);

  // A ladder table: the box for Zoë only; bob's Sit refused.
  await leaveTable(bob);
  await leaveTable(a);
  await bob.click('#new-table');
  await bob.visible('form#create');
  check(!(await bob.page.locator('#create-ladder').isVisible()), "bob (a guest): the create form has no ladder box", { page: bob });
  await bob.click('#create-cancel');
  await a.click('#new-table');
  await a.visible('#create-ladder', 'the ladder box (#create-ladder) for a registered player');
  await a.page.locator('#create-ladder').check();
  check(await a.page.locator('#create-seed').isDisabled(), 'zoe: a ladder table takes no seed (the field is disabled)', { page: a });
  await sc.shot(a, 'create-ladder', { focus: '#create-ladder' });
  await a.click('#create-submit');
  a.seat = 'N';
  await a.until((s) => s.table && s.you === 'N', 'zoe at her ladder table', 15000);
  await a.visible('#ladder-banner', 'the ladder banner at the table');
  const t2 = await tableId(a);
  const row = lobbyRow(bob, t2);
  await row.waitFor({ state: 'visible', timeout: 8000 });
  check((await row.getAttribute('data-ladder')) === 'true' && (await row.locator('.ladder-tag').count()) === 1, "bob's lobby marks the ladder table", { actual: await row.textContent(), page: bob });
  await bob.click(row.locator('button[data-sit=E]'), { what: 'Sit East at the ladder table' });
  const refused = await bob.until((s) => s.notice?.alert, "the server's refusal of a guest at a ladder table in #notice", 8000);
  check(!(await bob.state()).table, 'bob stays in the lobby', { page: bob });
  await sc.shot(bob, 'ladder-refused', { focus: `#lobby [data-table="${t2}"]` });
  await auditBoth(sc, bob, 'the lobby with a ladder table');
  sc.log(`the ladder table refused the guest: "${refused.notice.text}"`);

  // Sign out everywhere: the phone, reloaded, has to sign in again.
  await menuItem(a, 'sign-out-everywhere');
  await answer(a, true);
  await a.until((s) => s.login && !s.lobby && !s.table, 'the start form after signing out everywhere', 10000);
  await b.page.reload();
  b.sc.stats.reloads++;
  await b.until((s) => s.login && !s.lobby, "the phone's start form: its token no longer works", 15000);
  const gone = (await b.page.locator('#login-error').textContent()).trim();
  check(/no longer works/.test(gone), 'the phone says why it is at the start form', { actual: gone, page: b });
  await noSecret(a, PW2);
  sc.log(`signed out everywhere; the phone says: "${gone}"`);

  // bob registers the handle he plays under, from the account menu: the
  // page keeps the server's new token (the old one is revoked).
  const before = await bob.page.evaluate(() => JSON.parse(sessionStorage.getItem('barbu.session') ?? 'null'));
  await menuItem(bob, 'register-btn');
  await bob.visible('dialog#password-dialog', 'the password dialog to register');
  check(!(await bob.page.locator('#pw-current').isVisible()), 'registering asks no current password', { page: bob });
  await bob.page.locator('#pw-new').fill(PW1);
  await bob.page.locator('#pw-repeat').fill(PW1);
  await bob.click('#password-submit');
  await notice(bob, /registered to you/i, 'the notice that bob-a is registered');
  const after = await bob.page.evaluate(() => JSON.parse(sessionStorage.getItem('barbu.session') ?? 'null'));
  check(before && after && after.name === 'bob-a' && after.token !== before.token && after.registered === true, "bob's saved session holds the new token of the registered account", { actual: { before: before?.token.slice(0, 8), after: after?.token.slice(0, 8) }, page: bob });
  const bobWho = await accountText(bob);
  check(!bobWho.includes('(guest)'), "bob's account button no longer says (guest)", { actual: bobWho, page: bob });
  await noSecret(bob, PW1);
  sc.log('bob registered his handle; the page keeps the new token');
}

// ------------------------------------------------------------- fair deals

async function fairDeals(sc) {
  await sc.start();
  const ann = await person(sc, 'ann');
  await ann.open(true);
  await ann.login('ann-fair');
  await create(sc, ann, { rules: 'uk-32', house: SHORT_RULES, bots: ['E', 'S', 'W'], level: 'random', delay: 0 });
  const box = ann.page.locator('#fair-deals');
  await box.waitFor({ state: 'visible', timeout: 8000 }).catch(() => fail('ann: #fair-deals should show at the start of an unseeded game', { page: ann }));
  const commitment = await box.getAttribute('data-commitment');
  check(/^[0-9a-f]{64}$/.test(commitment ?? ''), 'ann: #fair-deals[data-commitment] holds 64 hex digits', { actual: commitment, page: ann });
  check((await box.getAttribute('data-key')) === null, 'ann: no key before the game is over', { page: ann });
  const summary = (await box.locator('summary').textContent()).replace(/\s+/g, ' ');
  check(summary.includes(`Deals committed to: ${commitment.slice(0, 6)}`), 'ann: the summary says "Deals committed to: " and the hash in short', { actual: summary, page: ann });
  check((await box.locator('summary').getAttribute('title')).includes(commitment), 'ann: the whole hash in the title', { page: ann });
  await sc.shot(ann, 'commitment', { focus: '#fair-deals' });
  sc.log(`commitment shown: ${summary}`);

  const r = await playToEnd(sc, ann, 120000);
  sc.stats.deals = 4;
  sc.log(`the game is over after ${r.actions} actions`);
  await ann.page.locator('#fair-deals[data-key]').waitFor({ timeout: 8000 }).catch(() => fail('ann: the key should show once the game is over', { page: ann }));
  const key = await ann.attr('#fair-deals', 'data-key');
  check(/^[0-9a-f]{64}$/.test(key ?? ''), 'ann: #fair-deals[data-key] holds 64 hex digits', { actual: key, page: ann });
  const hash = execFileSync('b2sum', ['-l', '256'], { input: Buffer.from(key, 'hex') }).toString().split(/\s+/)[0];
  check(hash === commitment, 'BLAKE2b-256 of the key shown is the commitment shown at the start', { expected: commitment, actual: hash });
  const how = (await ann.page.locator('#fair-deals').textContent()).replace(/\s+/g, ' ');
  check(/barbu verify barbu-table-\d+\.txt/.test(how), 'ann: the page says how to check (barbu verify RECORD)', { actual: how, page: ann });
  const [download] = await Promise.all([ann.page.waitForEvent('download', { timeout: 10000 }), ann.click('#fair-record')]);
  const file = join(sc.tmp('record'), download.suggestedFilename());
  await download.saveAs(file);
  const text = readFileSync(file, 'utf8');
  check(text.includes(`[Key "${key}"]`) && text.includes(`[Commitment "${commitment}"]`), 'the record downloaded carries the key and the commitment', { actual: text.slice(0, 400) });
  let out;
  try {
    out = execFileSync(sc.opts.barbu, ['verify', file], { encoding: 'utf8' });
  } catch (e) {
    fail('barbu verify should accept the record downloaded from the page', { actual: `${e.status}: ${e.stdout}${e.stderr}` });
  }
  sc.log(`barbu verify: ${out.trim().split('\n').slice(-1)[0]}`);
  await sc.shot(ann, 'key', { focus: '#fair-deals' });
  await auditBoth(sc, ann, 'the table at game over with the key');
}

// ------------------------------------------------------------- moderation

async function moderation(sc) {
  await sc.start(); // with --admin Root (SERVER_ARGS)
  const root = await person(sc, 'root');
  const carol = await person(sc, 'carol');
  const bob = await person(sc, 'bob');
  await Promise.all([root.open(true), carol.open(), bob.open()]);
  await startForm(root, 'signup', 'Root', PW1);
  await root.visible('#admin-open', 'the Administration button (#admin-open) for an administrator');
  check(/admin/i.test(await accountText(root)), "root: the account button says admin", { actual: await accountText(root), page: root });
  await startForm(carol, 'signup', 'Carol', PW2);
  check(!(await carol.page.locator('#admin-open').isVisible()), 'carol (not an administrator) has no Administration button', { page: carol });
  await bob.login('bob-m');

  await create(sc, carol, { rules: 'classic', bots: [], sit: 'N' });
  const t = await tableId(carol);
  await lobbyRow(bob, t).locator('button[data-sit=E]').waitFor({ state: 'visible', timeout: 10000 });
  await bob.click(lobbyRow(bob, t).locator('button[data-sit=E]'), { what: 'Sit East' });
  bob.seat = 'E';
  await bob.until((s) => s.table && s.you === 'E', 'bob at East', 10000);

  // bob reports Carol from the flag beside her name.
  await bob.click('.seat[data-seat=N] button.seat-report[data-report-name="Carol"]', { what: "the report flag beside Carol's name" });
  await bob.visible('dialog#report', 'the report dialog');
  const title = (await bob.page.locator('#report-title').textContent()).trim();
  check(title.includes('Carol') && title.includes(`table ${t}`), 'the report dialog names Carol and the table', { actual: title, page: bob });
  await bob.page.locator('#report-text').fill('She keeps calling me names in the chat.');
  await sc.shot(bob, 'report-dialog', { focus: 'dialog#report' });
  await auditBoth(sc, bob, 'the report dialog');
  await bob.click('#report-submit');
  await notice(bob, /report/i, "bob: the notice that the report went");
  check(!(await bob.page.locator('dialog#report').isVisible()), 'the report dialog closes once reported', { page: bob });
  // The table's Report button: the text is checked (1-300 characters) before sending.
  await carol.click('#report-table');
  await carol.visible('dialog#report');
  await carol.click('#report-submit');
  const empty = (await carol.page.locator('#report-error').textContent()).trim();
  check(/1 to 300/.test(empty), 'an empty report is refused by the page', { actual: empty, page: carol });
  await carol.click('#report-cancel');

  // Root hears it as it arrives.
  await notice(root, /new report from bob-m about Carol/i, "root: the notice of the new report");
  check((await root.attr('#admin-open', 'data-new')) === '1', 'root: the Administration button counts one new report', { actual: await root.attr('#admin-open', 'data-new'), page: root });
  await root.click('#admin-open');
  await root.visible('dialog#admin', 'the admin panel (dialog#admin)');
  const rep = root.page.locator('#admin-reports li[data-report]', { hasText: 'calling me names' });
  await rep.first().waitFor({ timeout: 8000 }).catch(() => fail("root: bob's report should be in #admin-reports", { page: root }));
  const repText = (await rep.first().textContent()).replace(/\s+/g, ' ');
  check(repText.includes('bob-m') && repText.includes('Carol') && repText.includes(`table ${t}`), 'root: the report says who, about whom, and where', { actual: repText, page: root });
  await sc.shot(root, 'admin-panel', { focus: 'dialog#admin' });
  await auditBoth(sc, root, 'the admin panel');

  // Remove bob from his seat, with a reason.
  await root.click(`#admin-tables [data-admin-table="${t}"] button[data-mod-remove=E]`, { what: 'Remove bob (East)' });
  await root.visible('#confirm-reason', 'the reason field in dialog#confirm');
  await sc.shot(root, 'admin-confirm', { focus: 'dialog#confirm' });
  await root.click('#confirm-yes');
  const why = (await root.page.locator('#confirm-reason-error').textContent()).trim();
  check(why.length > 0 && (await root.page.locator('dialog#confirm').isVisible()), 'no act without a reason: the dialog stays and says so', { actual: why, page: root });
  await root.page.locator('#confirm-reason').fill('Testing the panel');
  await root.click('#confirm-yes');
  await root.page.locator('#admin-status[data-kind="done"]').waitFor({ timeout: 8000 }).catch(async () => fail("root: the server's done in #admin-status", { actual: await root.page.locator('#admin-status').textContent(), page: root }));
  await notice(bob, /removed you/i, 'bob: the notice that an administrator removed him', 10000);
  sc.log(`bob removed: "${(await bob.state()).notice?.text}"`);

  // Ban him: his page goes back to the start form, and the handle is refused.
  await root.page.locator('#admin-name').fill('bob-m');
  await root.click('#admin-ban');
  await root.visible('#confirm-reason');
  await root.page.locator('#confirm-reason').fill('Spam in the lobby');
  await root.click('#confirm-yes');
  await root.page.locator('#admin-banned li[data-banned="bob-m"]').waitFor({ timeout: 8000 }).catch(() => fail('root: bob-m listed as banned', { page: root }));
  await bob.until((s) => s.login, "bob's page back at the start form after the ban", 10000);
  const banned = (await bob.page.locator('#login-error').textContent()).trim();
  check(/banned/i.test(banned), "bob's start form says the handle is banned", { actual: banned, page: bob });
  await bob.page.locator('input#handle').fill('bob-m');
  await bob.click('#join');
  const again = await loginError(bob, /banned/i, "the server's refusal of a banned handle");
  await sc.shot(bob, 'banned', { focus: 'form#login' });
  sc.log(`bob banned: "${again}"`);

  // Unban; the acts listed.
  await root.click('#admin-banned button[data-unban="bob-m"]');
  await root.visible('#confirm-reason');
  await root.page.locator('#confirm-reason').fill('He apologised');
  await root.click('#confirm-yes');
  await root.page.locator('#admin-acts li[data-act="unban"]').waitFor({ timeout: 8000 }).catch(() => fail('root: the unban in #admin-acts', { page: root }));
  const acts = await root.page.locator('#admin-acts li[data-act]').evaluateAll((es) => es.map((e) => e.getAttribute('data-act')));
  check(['remove', 'ban', 'unban'].every((x) => acts.includes(x)), 'root: #admin-acts lists the remove, the ban and the unban', { actual: acts, page: root });
  await sc.shot(root, 'admin-acts', { focus: '#admin-acts', force: true });
  await bob.page.locator('input#handle').fill('bob-m');
  await bob.click('#join');
  await bob.until((s) => s.lobby && s.conn === 'open', 'bob back in the lobby once unbanned', 10000);
  sc.log(`acts: ${acts.join(', ')}`);

  // Close Carol's table: she is back in the lobby.
  await root.click(`#admin-tables [data-admin-table="${t}"] button[data-mod-close="${t}"]`, { what: `Close table ${t}` });
  await root.visible('#confirm-reason');
  await root.page.locator('#confirm-reason').fill('Closing after the report');
  await root.click('#confirm-yes');
  await root.page.locator('#admin-acts li[data-act="close"]').waitFor({ timeout: 8000 }).catch(() => fail('root: the close in #admin-acts', { page: root }));
  await carol.until((s) => s.lobby && !s.table, "Carol back in the lobby once her table is closed", 10000);
  check((await carol.count(`#lobby [data-table="${t}"]`)) === 0, `table ${t} is gone from Carol's lobby`, { page: carol });
  sc.log(`table ${t} closed by Root`);
}

export const ACCOUNTS = { accounts, fair_deals: fairDeals, moderation };
/** Flags for a scenario's barbu serve (run.mjs passes them). */
export const SERVER_ARGS = { moderation: ['--admin', 'Root'] };
