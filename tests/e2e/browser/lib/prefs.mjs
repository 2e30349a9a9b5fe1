// Issue 24 point 6 in the browser (web/README.md names the elements):
//
// - `club_prefs`: Ada signs up and, in dialog#settings, sets the table's
//   colour (input#set-table-colour), the card spacing (input#set-card-spacing),
//   the card size (select#set-card-size) and the four-colour deck
//   (input#set-four-colour); the table changes at once (computed styles of
//   the felt and of her hand's cards: colour, width, the step from card to
//   card, clubs green and diamonds blue).  A second browser profile signs
//   in as Ada and finds them applied (the server's copy, sent after
//   welcome): the same computed styles on the same table, and the dialog
//   showing them.  A guest's changes stay in the guest's browser: no
//   preferences message leaves the page, and a reload keeps them.
//   Screenshots of the four-colour deck at 1280x800 and 390x844; axe on the
//   settings dialog.

import { auditBoth } from './axe.mjs';
import { create } from './evening_d.mjs';
import { check, fail, sleep } from './harness.mjs';

const PW = 'Ada keeps her felt 24';
const COLOUR = '#7a3b2e';
const SPACING = 30;
const SIZE = 'large';
const LARGE_W = 88; // look.css: a large card at 1280 px
const CLUB = 'rgb(10, 122, 47)'; // look.css --club-suit
const DIAMOND = 'rgb(11, 85, 196)'; // look.css --diamond-suit

/** Every text frame a page sends on its WebSocket. */
function watchFrames(p) {
  p.sent = [];
  p.page.on('websocket', (ws) => ws.on('framesent', (f) => p.sent.push(String(f.payload))));
}

async function signForm(p, mode, handle, password) {
  await p.click(`#mode-${mode}`);
  await p.page.locator('input#handle').fill(handle);
  await p.page.locator('input#password').fill(password);
  if (mode === 'signup') await p.page.locator('input#password-repeat').fill(password);
  await p.click('#join');
  return p.until((s) => s.lobby || s.table, `the lobby or the table after ${mode} as ${handle}`, 15000);
}

async function openSettings(p) {
  await p.click('#settings-btn');
  await p.visible('dialog#settings', 'dialog#settings');
}

async function closeSettings(p) {
  await p.click('#settings-close');
}

/** Sets the four look settings in the open dialog, as a person does. */
async function setLook(p, { colour, spacing, size, four }) {
  const page = p.page;
  if (colour) await page.locator('input#set-table-colour').fill(colour);
  if (spacing) {
    // A range is dragged; its value is set and its input event fired, as a drag does.
    await page.locator('input#set-card-spacing').evaluate((el, v) => {
      el.value = String(v);
      el.dispatchEvent(new Event('input', { bubbles: true }));
    }, spacing);
  }
  if (size) await page.locator('select#set-card-size').selectOption(size);
  if (four !== undefined) {
    const box = page.locator('input#set-four-colour');
    if (four) await box.check();
    else await box.uncheck();
  }
}

/** The look as the page computes it. */
function look(p) {
  return p.page.evaluate(() => {
    const html = document.documentElement;
    const cs = getComputedStyle(html);
    const felt = document.querySelector('.felt');
    const cards = [...document.querySelectorAll('#hand button.card[data-card]')];
    const boxes = cards.map((c) => c.getBoundingClientRect());
    const steps = boxes.slice(1).map((b, i) => Math.round(b.left - boxes[i].left));
    const inkOf = (suit) => {
      const card = cards.find((c) => c.getAttribute('data-card').endsWith(suit));
      const el = card?.querySelector(`.ink-${suit}`);
      return el ? getComputedStyle(el).fill : null;
    };
    return {
      tableColour: cs.getPropertyValue('--table-colour').trim(),
      fourColour: html.classList.contains('four-colour'),
      cardSize: html.dataset.cardSize ?? 'medium',
      feltBackground: felt ? getComputedStyle(felt).backgroundImage : null,
      cards: cards.length,
      cardWidth: boxes.length ? Math.round(boxes[0].width) : null,
      steps,
      club: inkOf('C'),
      diamond: inkOf('D'),
      heart: inkOf('H'),
      spade: inkOf('S'),
      stored: JSON.parse(localStorage.getItem('barbu.settings') || '{}'),
    };
  });
}

function rgb(hex) {
  const n = parseInt(hex.slice(1), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
}

/** The checks of Ada's look on her table, on page p. */
function checkTableLook(p, l, who) {
  check(l.tableColour === COLOUR, `${who}: --table-colour is the colour chosen`, { expected: COLOUR, actual: l.tableColour, page: p });
  check((l.feltBackground ?? '').includes(rgb(COLOUR)), `${who}: the felt is painted in it`, { expected: rgb(COLOUR), actual: l.feltBackground, page: p });
  check(l.cards > 1 && l.cardWidth === LARGE_W, `${who}: the hand's cards are large (${LARGE_W} px wide)`, { actual: { cards: l.cards, width: l.cardWidth }, page: p });
  check(l.steps.length > 0 && l.steps.every((s) => s === SPACING), `${who}: ${SPACING} px from each card of the hand to the next`, { actual: l.steps, page: p });
  check(l.fourColour, `${who}: html.four-colour`, { page: p });
  check(l.club === null || l.club === CLUB, `${who}: clubs are green`, { expected: CLUB, actual: l.club, page: p });
  check(l.diamond === null || l.diamond === DIAMOND, `${who}: diamonds are blue`, { expected: DIAMOND, actual: l.diamond, page: p });
  check(l.club !== null || l.diamond !== null, `${who}: the hand holds a club or a diamond to look at`, { actual: l, page: p });
  check(l.heart === null || l.heart === 'rgb(192, 0, 26)', `${who}: hearts stay red`, { actual: l.heart, page: p });
  check(l.spade === null || l.spade === 'rgb(17, 17, 17)', `${who}: spades stay black`, { actual: l.spade, page: p });
}

async function clubPrefs(sc) {
  await sc.start();
  const a = await sc.person('ada-1');
  watchFrames(a);
  await a.open(true);
  await signForm(a, 'signup', 'Ada', PW);
  // A table of three computer players, so that there is a hand to look at.
  await create(sc, a, { rules: 'uk', seed: 1, bots: ['E', 'S', 'W'], level: 'easy', delay: 0 });
  await a.until((s) => s.hand.length === 13, 'ada: a hand of 13 cards', 15000);
  const before = await look(a);
  check(!before.fourColour && before.tableColour === '' && before.cardWidth === 72, 'ada: the house look before any change (72 px cards, no colour, two-colour deck)', { actual: before, page: a });

  await openSettings(a);
  await setLook(a, { colour: COLOUR, spacing: SPACING, size: SIZE, four: true });
  await sc.shot(a, 'look-settings', { focus: 'input#set-four-colour' });
  await auditBoth(sc, a, 'the settings dialog with the look\'s fields');
  await closeSettings(a);
  // At once: no reload, no new view.
  const now = await look(a);
  checkTableLook(a, now, 'ada');
  check(now.stored.tableColour === COLOUR && now.stored.cardSpacing === SPACING && now.stored.cardSize === SIZE && now.stored.fourColour === true, 'ada: kept in localStorage barbu.settings', { actual: now.stored, page: a });
  await sc.shot(a, 'four-colour', { focus: '#hand' });

  // The save goes to the server (once the last change has settled).
  let saved = null;
  const end = Date.now() + 5000;
  while (!saved && Date.now() < end) {
    saved = a.sent.map((t) => JSON.parse(t)).filter((m) => m.type === 'preferences').pop() ?? null;
    if (!saved || saved.prefs.four_colour !== true) {
      saved = null;
      await sleep(50);
    }
  }
  if (!saved) fail('ada: a preferences message should leave the page after the changes', { actual: a.sent.slice(-5), page: a });
  check(saved.prefs.table_colour === COLOUR && saved.prefs.card_spacing === SPACING && saved.prefs.card_size === SIZE, 'ada: it holds the colour, the spacing and the size', { actual: saved, page: a });
  check(a.sent.filter((t) => t.includes('"preferences"')).length <= 3, 'ada: the changes are sent as a few messages, not one per step', { actual: a.sent.filter((t) => t.includes('"preferences"')).length, page: a });
  check(!a.sent.some((t) => t.includes('"preferences"') && t.includes(PW)), 'ada: no preferences message holds the password', { page: a });
  sc.log('Ada set her look; it was sent');

  // A second browser profile signs in as Ada: it takes her seat back, and
  // the server's copy is applied to it.  (The guest's browser starts
  // meanwhile.)
  const [b, g] = await Promise.all(
    ['ada-2', 'gus'].map(async (name) => {
      const p = await sc.person(name);
      watchFrames(p);
      await p.open();
      return p;
    }),
  );
  await signForm(b, 'signin', 'ada', PW);
  await b.until((s) => s.table && s.hand.length > 1, 'ada-2: her table and hand after signing in', 15000);
  const there = await look(b);
  checkTableLook(b, there, 'ada-2');
  check(there.stored.tableColour === COLOUR && there.stored.fourColour === true, 'ada-2: the account\'s copy is kept in this browser too', { actual: there.stored, page: b });
  await openSettings(b);
  const shown = await b.page.evaluate(() => ({
    colour: document.querySelector('input#set-table-colour').value,
    spacing: Number(document.querySelector('input#set-card-spacing').value),
    size: document.querySelector('select#set-card-size').value,
    four: document.querySelector('input#set-four-colour').checked,
  }));
  check(shown.colour === COLOUR && shown.spacing === SPACING && shown.size === SIZE && shown.four, 'ada-2: the settings dialog shows the account\'s preferences', { actual: shown, page: b });
  await closeSettings(b);
  check(!b.sent.some((t) => t.includes('"preferences"')), 'ada-2: signing in sends nothing back (the account\'s copy wins)', { actual: b.sent.filter((t) => t.includes('"preferences"')), page: b });
  sc.log('a second profile signed in as Ada sees her look');

  // A guest's changes stay in the guest's browser.
  await g.login('Gus');
  await openSettings(g);
  await setLook(g, { colour: '#203a70', four: true, size: 'small' });
  await closeSettings(g);
  await sleep(700);
  const gl = await look(g);
  check(gl.tableColour === '#203a70' && gl.fourColour && gl.cardSize === 'small', 'gus: the guest\'s look is applied at once', { actual: gl, page: g });
  check(!g.sent.some((t) => t.includes('"preferences"')), 'gus: a guest\'s page sends no preferences', { actual: g.sent.filter((t) => t.includes('"preferences"')), page: g });
  await g.page.reload({ waitUntil: 'load' });
  await g.until((s) => s.lobby || s.login, 'gus: the page after a reload', 10000);
  const gr = await look(g);
  check(gr.tableColour === '#203a70' && gr.fourColour && gr.cardSize === 'small', 'gus: a reload keeps the guest\'s look (localStorage)', { actual: gr, page: g });
  const ab = await look(b);
  check(ab.tableColour === COLOUR && ab.cardSize === SIZE, 'ada-2: the guest\'s look changed nothing of Ada\'s', { actual: ab, page: b });
  sc.stats.deals = 0;
}

export const PREFS = { club_prefs: clubPrefs };
