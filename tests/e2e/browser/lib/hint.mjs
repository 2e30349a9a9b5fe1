// Issue 26's hint in the browser (web/src/ui/hint.ts):
//
// - `hint`: Hana creates a table with the create dialog's Hints box
//   (input#create-hints) and three computer players; the table bar has no
//   Hint button (#hint) for a kibitzer and none enabled but at her turn.
//   She plays by clicking (the agent) until she is to play a card, clicks
//   Hint: one card of her hand gets the class `hinted`, a playable one, and
//   the line #hint-note says it; clicking that card plays it.  A table
//   made without the box has no Hint button at all.  A hint whose answer
//   never comes (the page's message eaten), the network cut and given
//   back: the button is "Hint" again, not stuck on "Thinking…".

import { Agent } from './agent.mjs';
import { check, fail } from './harness.mjs';

async function hint(sc) {
  const p = await sc.person('hana');
  await hintEatingNet(p);
  await p.open();
  await p.login('Hana');

  // The create dialog, as a person fills it, with Hints ticked.
  await p.click('#new-table');
  await p.visible('form#create', 'the new-table form (form#create)');
  const page = p.page;
  await page.locator('select#create-rules').selectOption('uk');
  await page.locator('input#create-seed').fill('2626');
  check(await page.locator('input#create-hints').isEnabled(), 'hana: the Hints box may be ticked at a table that is not rated', { page: p });
  await page.locator('input#create-hints').check();
  await page.locator('select#create-level').selectOption('easy');
  await page.locator('input#create-delay').fill('50');
  await sc.shot(p, 'create-hints', { focus: 'form#create' });
  await p.click('#create-submit');
  p.seat = 'N';
  await p.until((s) => s.table && s.you === 'N' && s.at !== null && s.phase, '#table[data-you=N] after creating a table with hints', 15000);
  check((await p.count('button#hint')) === 1, 'hana: the table bar has a Hint button (#hint)', { page: p });

  // Her turn to play a card: the agent plays by clicking until then.
  const agent = new Agent(sc, p);
  const s = await agent.run((x) => x.phase === 'play' && x.toMove === 'N' && x.hand.some((c) => !c.disabled), { what: 'North to play a card', limitMs: 60000 });
  if (s.phase !== 'play') fail('hana: the game ended before she played a card', { actual: s, page: p });
  check(await page.locator('button#hint').isEnabled(), 'hana: at her turn the Hint button is enabled', { page: p });
  check((await p.count('#hand button.card.hinted')) === 0, 'hana: no card is hinted before she asks', { page: p });
  await p.click('button#hint');
  await p.visible('#hint-note', 'the hint\'s line (#hint-note)');
  const hinted = await page.locator('#hand button.card.hinted').evaluateAll((bs) =>
    bs.map((b) => ({ card: b.getAttribute('data-card'), disabled: b.getAttribute('aria-disabled') === 'true' })),
  );
  check(hinted.length === 1, 'hana: one card of her hand is hinted (class hinted)', { actual: hinted, page: p });
  check(!hinted[0].disabled, 'hana: the hinted card is one she may play', { actual: hinted, page: p });
  const note = (await page.locator('#hint-note').textContent()) ?? '';
  check(/^Hint \(medium\): play /.test(note), 'hana: the line says the hint', { actual: note, page: p });
  await sc.shot(p, 'hinted', { focus: '#hand' });

  // The hinted card is played by a click, and the hint goes with the turn.
  const at = s.at;
  await p.click(`#hand button.card[data-card="${hinted[0].card}"]`);
  await p.until((x) => x.at !== at, 'the game to move on after the hinted card', 10000);
  check((await p.count('#hand button.card.hinted')) === 0, 'hana: after her card no card is hinted any more', { page: p });
  check((await p.count(`#hand button.card[data-card="${hinted[0].card}"]`)) === 0, 'hana: the hinted card left her hand', { page: p });

  // A hint whose answer never comes (the server never heard it), then the
  // connection drops and comes back: the button is "Hint" again, not stuck
  // on "Thinking…", and asks anew.
  const s2 = await agent.run((x) => x.phase === 'play' && x.toMove === 'N' && x.at !== at && x.hand.some((c) => !c.disabled), { what: 'North to play a card again', limitMs: 60000 });
  if (s2.phase !== 'play') fail('hana: the game ended before her next card', { actual: s2, page: p });
  p.net.eatHints = true;
  await p.click('button#hint');
  await page.waitForFunction(() => document.querySelector('button#hint')?.textContent === 'Thinking…', null, { timeout: 5000 }).catch(() => fail('hana: the Hint button says Thinking… once clicked', { page: p }));
  await p.net.cut(true);
  await p.until((x) => x.conn !== 'open', '#conn[data-state] to leave "open" once the network is cut', 15000);
  p.net.eatHints = false;
  await p.net.cut(false);
  await p.until((x) => x.conn === 'open' && x.table && x.toMove === 'N', '#conn[data-state=open] again, at the table, at her turn', 20000);
  const back = await page
    .waitForFunction(() => {
      const b = document.querySelector('button#hint');
      return b && b.textContent === 'Hint' && !b.disabled;
    }, null, { timeout: 5000 })
    .then(() => true, () => false);
  check(back, 'hana: after the connection came back the Hint button is "Hint" again, enabled', { actual: await page.locator('button#hint').textContent(), page: p });
  await p.click('button#hint');
  await p.visible('#hint-note', 'the hint\'s line (#hint-note) for the hint asked anew');
  sc.stats.deals = 0;
}

/** The page's connection goes through Playwright, so that the test can eat
 * the page's hint messages (`p.net.eatHints`: the server never hears them,
 * as when an answer is lost) and cut the network (`p.net.cut(true)`) and
 * give it back. */
async function hintEatingNet(p) {
  const live = new Set();
  let cut = false;
  p.net = { eatHints: false };
  await p.page.routeWebSocket(/\/ws$/, (ws) => {
    if (cut) {
      ws.close({ code: 4000, reason: 'the test cut the network' });
      return;
    }
    live.add(ws);
    ws.onClose(() => live.delete(ws));
    const server = ws.connectToServer();
    ws.onMessage((m) => {
      if (p.net.eatHints && typeof m === 'string' && JSON.parse(m).type === 'hint') return;
      server.send(m);
    });
  });
  p.net.cut = async (on) => {
    cut = on;
    await p.context.setOffline(on);
    if (on) for (const ws of [...live]) await ws.close({ code: 4000, reason: 'the test cut the network' });
  };
}

export const HINT = { hint };
