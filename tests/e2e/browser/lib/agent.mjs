// A person playing through the page: waits for its turn (#table's
// data-to-move), then declares, doubles, plays, passes, cuts and passes on
// by clicking, and checks that each click did what it says: the game moved
// on (data-at), the card left the hand and showed in the trick or the
// layout.  Before a legal card it clicks an illegal one (aria-disabled) and
// checks that nothing happened.

import { check, fail, rng, sameSet, show, sleep } from './harness.mjs';
import { phoneControlInView } from './phone.mjs';

const SUITS = ['S', 'H', 'D', 'C'];
const suitOf = (c) => c.charAt(1);
const rankOf = (c) => c.charAt(0);

/** Whether the layout shows the card: in its suit's row, as a card or between the row's ends. */
function inLayout(s, card) {
  const row = s.layout.find((r) => r.suit === suitOf(card));
  if (!row) return false;
  if (row.cards.includes(card)) return true;
  for (const order of ['23456789TJQKA', 'A23456789TJQK']) {
    const [a, b, c] = [order.indexOf(row.lo), order.indexOf(row.hi), order.indexOf(rankOf(card))];
    if (a >= 0 && b >= a && c >= a && c <= b) return true;
  }
  return false;
}

/** What a panel's buttons say, read in the page. */
async function buttons(page, sel, attrs) {
  return page.locator(sel).evaluateAll(
    (bs, attrs) =>
      bs.map((b) => {
        const o = {
          enabled: !b.disabled && b.getAttribute('aria-disabled') !== 'true',
          pressed: b.getAttribute('aria-pressed') === 'true',
          visible: !!(b.offsetWidth || b.offsetHeight || b.getClientRects().length),
        };
        for (const a of attrs) o[a] = b.getAttribute('data-' + a);
        return o;
      }),
    attrs,
  );
}

export class Agent {
  /** strategy: optional hooks, see the defaults below. */
  constructor(sc, person, strategy = {}) {
    this.sc = sc;
    this.p = person;
    this.seat = person.seat;
    this.random = rng(strategy.seed ?? 7);
    this.s = { ...defaults, ...strategy };
    this.declared = new Map(); // deal -> contract keys this person declared
    this.playedIn = new Set(); // deals in which this person clicked a card
    this.seen = { declare: 0, bid: 0, play: 0, group: 0, groupOffered: 0, pass: 0, cut: 0, passOn: 0, arrange: 0, combination: 0, patience: 0, toggles: 0, max: 0, keys: 0 };
    this.firstDeal = null;
    this.lastDeal = null;
    this.illegalThisDeal = 0;
    this.illegalDeal = null;
  }

  pick(list) {
    return list[Math.floor(this.random() * list.length)];
  }

  note(s) {
    if (this.firstDeal === null && s.deal !== null) this.firstDeal = s.deal;
    if (s.deal !== null) this.lastDeal = s.deal;
  }

  /** Deals completed while playing. */
  dealsPlayed(s) {
    if (this.firstDeal === null) return 0;
    return this.lastDeal - this.firstDeal + (s?.phase === 'over' ? 1 : 0);
  }

  /** Plays until until(state) holds (or the game is over). */
  async run(until, { limitMs = 150000, what = 'the end of the run' } = {}) {
    const end = Date.now() + limitMs;
    for (;;) {
      let s = await this.p.state();
      this.note(s);
      this.sc.stats.deals = Math.max(this.sc.stats.deals, this.dealsPlayed(s));
      if (until(s) || s.phase === 'over') {
        this.sc.stats.deals = Math.max(this.sc.stats.deals, this.dealsPlayed(s));
        return s;
      }
      if (Date.now() > end) fail(`${this.p.name}: ${what} not reached within ${limitMs / 1000} s`, { expected: what, actual: s, page: this.p });
      if (s.conn !== 'open') {
        s = await this.p.until((x) => x.conn === 'open', '#conn[data-state=open] again', 15000);
        continue;
      }
      // The end-of-deal summary covers the centre: close it, as a person does.
      if (s.panels.summary) {
        // (It may close by itself meanwhile: no wait for it.)
        await this.p.page.evaluate(() => document.querySelector('button#summary-close')?.click());
        continue;
      }
      if (s.toMove !== this.seat) {
        await this.p.until((x) => x.at !== s.at || x.toMove === this.seat || x.panels.summary || x.phase !== s.phase || until(x), `data-to-move=${this.seat} or data-at to move on from ${s.at} (to move: ${s.toMove})`, 30000, 25);
        continue;
      }
      if (this.s.onTurn && (await this.s.onTurn(this, s))) continue;
      s = await this.p.state();
      if (s.toMove !== this.seat) continue;
      await this.act(s);
    }
  }

  async act(s) {
    switch (s.phase) {
      case 'declare':
        return this.s.game === 'fife' ? this.declareFife(s) : this.declare(s);
      case 'bid':
        return this.bid(s);
      case 'play':
        return this.play(s);
      case 'cut':
        return this.cut(s);
      case 'pass_on':
        return this.passOn(s);
      case 'arrange':
        if (!this.s.arrange) fail(`${this.p.name}: an arrangement to make, but this scenario has no way to arrange`);
        this.seen.arrange++;
        return this.s.arrange(this, s);
      default:
        fail(`${this.p.name}: unknown #table[data-phase=${s.phase}] on this seat's turn`, { actual: s, page: this.p });
    }
  }

  /** Waits until data-at moves on from s.at; an error notice meanwhile fails. */
  async moved(s, what) {
    const x = await this.p.until(
      (x) => (x.at !== null && x.at > s.at) || x.phase === 'over' || (x.notice?.alert && x.notice.text !== s.notice?.text),
      `data-at to move on from ${s.at} after ${what}`,
      10000,
      20,
    );
    if (!(x.at > s.at) && x.phase !== 'over') fail(`${this.p.name}: ${what} was refused: "${x.notice.text}"`, { expected: 'the action accepted', actual: x, page: this.p });
    return x;
  }

  // ------------------------------------------------------------ declare

  async declare(s) {
    const page = this.p.page;
    await this.p.visible('#declare', `the contract chooser (#declare) on ${this.seat}'s turn to declare`);
    await this.sc.shot(this.p, 'contract-chooser', { focus: '#declare' });
    const offered = await buttons(page, '#declare button[data-contract]', ['contract']);
    check(offered.length > 0, `${this.p.name}: #declare has no button[data-contract]`, { actual: offered, page: this.p });
    const key = this.s.chooseContract(this, offered.filter((b) => b.enabled).map((b) => b.contract), s);
    check(!!key, `${this.p.name}: no enabled contract to declare`, { actual: offered, page: this.p });
    await this.p.click(`#declare button[data-contract="${key}"]`);
    // Trumps asks for a suit, Domino for a rank; the others go at once.
    const x = await this.p.until(
      (x) => x.at > s.at,
      'x',
      300,
      20,
    ).catch(() => null);
    if (!x) {
      const trumps = await buttons(page, 'button[data-trump]', ['trump']);
      const ranks = await buttons(page, 'button[data-rank]', ['rank']);
      if (trumps.some((b) => b.enabled)) {
        const suit = this.s.chooseTrump(this, trumps.filter((b) => b.enabled).map((b) => b.trump), s);
        await this.p.click(`button[data-trump="${suit}"]`);
      } else if (ranks.some((b) => b.enabled)) {
        const rank = this.s.chooseRank(this, ranks.filter((b) => b.enabled).map((b) => b.rank), s);
        await this.sc.shot(this.p, 'domino-rank-chooser', { focus: '#declare' });
        await this.p.click(`button[data-rank="${rank}"]`);
      }
    }
    await this.moved(s, `declaring ${key}`);
    this.declared.set(s.deal, [key]);
    this.seen.declare++;
    this.sc.log(`${this.p.name} declared ${key} (deal ${s.deal})`);
  }

  async declareFife(s) {
    const page = this.p.page;
    await this.p.visible('#declare', `the Caller's chooser (#declare) on ${this.seat}'s turn to call`);
    await this.sc.shot(this.p, 'calls', { focus: '#declare' });
    const offered = await buttons(page, '#declare button[data-call]', ['call']);
    check(offered.length > 0, `${this.p.name}: #declare has no button[data-call]`, { actual: offered, page: this.p });
    const enabled = offered.filter((b) => b.enabled).map((b) => b.call);
    // Clear what is pressed, then press the chosen combination.
    for (const b of offered.filter((b) => b.pressed)) await this.p.click(`#declare button[data-call="${b.call}"]`);
    let calls = this.s.chooseCalls(this, enabled, s);
    for (const c of calls) {
      await this.p.click(`#declare button[data-call="${c}"]`);
      const pressed = await this.p.attrBecomes(`#declare button[data-call="${c}"]`, 'aria-pressed', 'true');
      check(pressed, `${this.p.name}: the Call toggle ${c} is not aria-pressed after a click`, { expected: 'aria-pressed="true"', page: this.p });
    }
    const submit = page.locator('button#declare-submit');
    if (calls.length > 1 && !(await submit.isEnabled())) {
      // The page says this combination is not allowed now: a single Call.
      this.sc.log(`${this.p.name}: #declare-submit disabled for ${calls.join('+')}; calling ${enabled[0]} alone`);
      for (const c of calls) await this.p.click(`#declare button[data-call="${c}"]`);
      calls = [enabled.find((k) => !k.startsWith('patience')) ?? enabled[0]];
      await this.p.click(`#declare button[data-call="${calls[0]}"]`);
    }
    await this.p.click('button#declare-submit');
    await this.moved(s, `calling ${calls.join(' + ')}`);
    this.declared.set(s.deal, calls);
    this.seen.declare++;
    if (calls.length > 1) this.seen.combination++;
    this.sc.log(`${this.p.name} called ${calls.join(' + ')} (deal ${s.deal})`);
  }

  // ---------------------------------------------------------------- bid

  async bid(s) {
    const page = this.p.page;
    await this.p.visible('#bid', `the doubling panel (#bid) on ${this.seat}'s turn to bid`);
    const read = async () =>
      [
        ...(await buttons(page, '#bid button[data-double]', ['double', 'compulsory'])).map((b) => ({ ...b, type: 'double', target: b.double })),
        ...(await buttons(page, '#bid button[data-redouble]', ['redouble', 'compulsory'])).map((b) => ({ ...b, type: 'redouble', target: b.redouble })),
      ];
    const sel = (b) => `#bid button[data-${b.type}="${b.target}"]`;
    const pressedNow = async (b, want = true) => (await this.p.attrBecomes(sel(b), 'aria-pressed', String(want))) === want;
    let bs = await read();
    // Compulsory doubles first: they must be pressed.
    for (const b of bs.filter((b) => b.compulsory === 'true' && !b.pressed && b.enabled)) {
      await this.p.click(sel(b));
      check(await pressedNow(b), `${this.p.name}: the compulsory ${b.type} of ${b.target} is not aria-pressed after a click`, { page: this.p });
    }
    bs = await read();
    const plan = this.s.bid(this, bs, s);
    if (plan.max && (await this.p.count('#bid-max')) > 0 && (await page.locator('#bid-max').isEnabled())) {
      await this.p.click('#bid-max');
      await this.p.attrBecomes('#bid-max', 'aria-pressed', 'true');
      const after = await read();
      const unpressed = after.filter((b) => b.enabled && !b.pressed);
      check(unpressed.length === 0, `${this.p.name}: after #bid-max, every double and redouble should be pressed`, { expected: 'all aria-pressed="true"', actual: after, page: this.p });
      this.seen.max++;
    } else {
      if (plan.toggle) {
        const b = bs.find((b) => b.enabled && !b.pressed && b.compulsory !== 'true');
        if (b) {
          await this.p.click(sel(b));
          check(await pressedNow(b), `${this.p.name}: ${sel(b)} not aria-pressed after one click`, { page: this.p });
          await this.p.click(sel(b));
          check(!(await pressedNow(b, false)), `${this.p.name}: ${sel(b)} still aria-pressed after a second click`, { page: this.p });
          this.seen.toggles++;
        }
      }
      for (const b of plan.press ?? []) {
        if (await pressedNow(b)) continue;
        await this.p.click(sel(b));
        check(await pressedNow(b), `${this.p.name}: ${sel(b)} not aria-pressed after a click`, { page: this.p });
      }
    }
    await this.sc.shot(this.p, 'doubling-panel', { focus: '#bid' });
    const final = (await read()).filter((b) => b.pressed).map((b) => `${b.type} ${b.target}`);
    await this.p.click('#bid-submit');
    await this.moved(s, `bidding (${final.join(', ') || 'pass'})`);
    this.seen.bid++;
    if (final.length) this.sc.log(`${this.p.name} bid: ${final.join(', ')} (deal ${s.deal})`);
  }

  // --------------------------------------------------------------- play

  async play(s) {
    const enabled = s.hand.filter((c) => !c.disabled).map((c) => c.card);
    const disabled = s.hand.filter((c) => c.disabled).map((c) => c.card);
    if (s.kind === 'tricks' || s.kind === 'trumps') {
      if (s.trick.length >= 2) await this.sc.shot(this.p, 'trick', { focus: '#trick' });
    }
    if (s.kind === 'domino' && s.layout.length >= 2) await this.sc.shot(this.p, 'domino-layout', { focus: '#layout' });
    if (s.kind === 'patience' && s.layout.length >= 2) await this.sc.shot(this.p, 'patience-layout', { focus: '#layout' });

    if (enabled.length === 0 && s.groups.length === 0) {
      if (s.panels.pass) {
        if (disabled.length) await this.illegal(s, disabled);
        await this.p.click('button#pass');
        await this.moved(s, 'passing (#pass)');
        this.seen.pass++;
        return;
      }
      fail(`${this.p.name}: to play, but no enabled card in #hand, no button.group and no #pass`, { actual: s, page: this.p });
    }
    if (disabled.length) await this.illegal(s, disabled);

    if (s.groups.length) this.seen.groupOffered++;
    const group = s.groups.length ? this.s.chooseGroup(this, s.groups, s) : null;
    if (group) {
      const cards = group.split(/\s+/);
      await this.p.click(`button.group[data-cards="${group}"]`);
      const x = await this.moved(s, `playing the group ${group}`);
      const y = await this.p.until((y) => y.deal !== s.deal || y.phase === 'over' || cards.every((c) => !y.hand.some((h) => h.card === c)), `the group ${group} to leave #hand`, 5000, 20);
      check(cards.every((c) => inLayout(y, c)) || x.phase !== 'play' || y.deal !== s.deal, `${this.p.name}: after playing ${group}, #layout does not show those cards`, { actual: y.layout, page: this.p });
      this.seen.group++;
      this.playedIn.add(s.deal);
      this.sc.log(`${this.p.name} played the group ${group} (deal ${s.deal})`);
      return;
    }
    const card = this.s.pickCard(this, enabled, s);
    // Every fifth card goes down by the keyboard, as a person without a mouse plays.
    if (this.seen.play % 5 === 2) await this.playByKeys(card);
    else await this.p.click(`#hand button.card[data-card="${card}"]`);
    this.seen.play++;
    this.playedIn.add(s.deal);
    if (s.kind === 'patience') this.seen.patience++;
    await this.verifyPlayed(s, card);
  }

  /** Plays a card with the keyboard: into the hand, Home, Right until it has the focus, Enter. */
  async playByKeys(card) {
    const page = this.p.page;
    await page.locator('#hand button.card').first().focus();
    await page.keyboard.press('Home');
    let focused = null;
    for (let i = 0; i < 14; i++) {
      focused = await page.evaluate(() => document.activeElement?.getAttribute('data-card') ?? null);
      if (focused === card) break;
      await page.keyboard.press('ArrowRight');
    }
    check(focused === card, `${this.p.name}: Home and Right in #hand never gave ${card} the focus`, { expected: card, actual: focused, page: this.p });
    await page.keyboard.press('Enter');
    this.seen.keys++;
  }

  /** After a click on a legal card: it left the hand, and the trick or the layout shows it. */
  async verifyPlayed(s, card) {
    const x = await this.p.until(
      (x) => !x.hand.some((h) => h.card === card) || x.deal !== s.deal || x.phase === 'over' || (x.notice?.alert && x.notice.text !== s.notice?.text),
      `${card} to leave #hand after a click on it (the page before the click: ${show(s)})`,
      10000,
      15,
    );
    if (x.deal === s.deal && x.hand.some((h) => h.card === card)) fail(`${this.p.name}: playing ${card} was refused: "${x.notice.text}"`, { actual: x, page: this.p });
    if (x.deal !== s.deal || x.phase !== 'play') return; // the deal ended with it
    if (s.kind === 'domino' || s.kind === 'patience') {
      check(inLayout(x, card), `${this.p.name}: after playing ${card}, #layout does not show it`, { expected: `#layout [data-suit=${suitOf(card)}] holding ${card}`, actual: x.layout, page: this.p });
      return;
    }
    if (x.trick.some((t) => t.card === card && t.seat === this.seat)) return;
    // The trick was completed and taken away already: the last trick shows it.
    if ((await this.p.count('button#last-trick-btn')) > 0) {
      await this.p.click('button#last-trick-btn');
      const inLast = await this.p.page
        .locator(`#last-trick [data-card="${card}"]`)
        .first()
        .waitFor({ state: 'attached', timeout: 3000 })
        .then(() => true)
        .catch(() => false);
      await this.p.click('button#last-trick-btn');
      check(inLast, `${this.p.name}: ${card} left #hand but shows neither in #trick nor in #last-trick`, { actual: x, page: this.p });
      return;
    }
    fail(`${this.p.name}: ${card} left #hand but #trick has no .played[data-seat=${this.seat}][data-card=${card}] (and no #last-trick-btn)`, { actual: x, page: this.p });
  }

  /** Clicks a card that cannot be played now: nothing may happen. */
  async illegal(s, disabled) {
    if (this.illegalDeal !== s.deal) {
      this.illegalDeal = s.deal;
      this.illegalThisDeal = 0;
    }
    if (this.illegalThisDeal >= this.s.illegalPerDeal) return;
    this.illegalThisDeal++;
    const card = this.pick(disabled);
    await this.p.click(`#hand button.card[data-card="${card}"]`, { force: true, what: `the illegal card ${card}` });
    await sleep(250);
    const x = await this.p.state();
    const same = x.at === s.at && sameSet(x.hand.map((h) => h.card), s.hand.map((h) => h.card));
    check(same, `${this.p.name}: clicking the illegal card ${card} (aria-disabled="true") changed the game`, { expected: `data-at ${s.at}, the same hand`, actual: x, page: this.p });
    check(!(x.notice?.alert && x.notice.text !== s.notice?.text), `${this.p.name}: clicking the illegal card ${card} brought an error notice "${x.notice?.text}"`, { actual: x, page: this.p });
    check(!x.hand.find((h) => h.card === card)?.pressed || s.phase === 'pass_on', `${this.p.name}: the illegal card ${card} became aria-pressed`, { actual: x, page: this.p });
    this.sc.stats.illegal++;
  }

  // --------------------------------------------------------- Fife game

  async cut(s) {
    await this.p.visible('button#cut', `the cut button (#cut) on ${this.seat}'s turn to cut`);
    if (!this.seen.cut) await phoneControlInView(this.p, 'button#cut', 'the cut button');
    await this.sc.shot(this.p, 'cut', { focus: '#fife' });
    await this.p.click('button#cut');
    await this.moved(s, 'cutting (#cut)');
    // Each cut is listed with what it was for and meant, in the engine's
    // words (the server's cut_notes).
    const notes = await this.p.page.$$eval('#fife .cut-list li', (lis) => lis.map((li) => li.querySelector('.cut-note')?.textContent ?? ''));
    check(notes.length >= 1 && notes.every((n) => n.length > 0), `${this.p.name}: every cut should be listed with what it meant (#fife .cut-list .cut-note)`, { actual: notes, page: this.p });
    this.seen.cut++;
  }

  async passOn(s) {
    await this.p.visible('#pass-on-submit', `the Pass-on button (#pass-on-submit) on ${this.seat}'s turn to pass on`);
    const page = this.p.page;
    // Unpick whatever is picked, then pick three.
    for (const c of s.hand.filter((c) => c.pressed)) await this.p.click(`#hand button.card[data-card="${c.card}"]`);
    const pickable = s.hand.filter((c) => !c.disabled).map((c) => c.card);
    check(pickable.length >= 3, `${this.p.name}: a Pass-on needs three cards, #hand offers ${pickable.length}`, { actual: s, page: this.p });
    const three = this.s.choosePassOn(this, pickable, s);
    for (const c of three) {
      await this.p.click(`#hand button.card[data-card="${c}"]`);
      const pressed = await this.p.attrBecomes(`#hand button.card[data-card="${c}"]`, 'aria-pressed', 'true');
      check(pressed, `${this.p.name}: ${c} not aria-pressed after picking it for the Pass-on`, { expected: 'aria-pressed="true"', page: this.p });
    }
    if (!this.seen.passOn) await phoneControlInView(this.p, '#pass-on-submit', 'the Pass-on button', { withHand: true });
    await this.sc.shot(this.p, 'pass-on', { focus: '#fife' });
    check(await page.locator('#pass-on-submit').isEnabled(), `${this.p.name}: #pass-on-submit is disabled with three cards picked`, { page: this.p });
    await this.p.click('#pass-on-submit');
    await this.moved(s, `passing on ${three.join(' ')}`);
    this.seen.passOn++;
    this.sc.log(`${this.p.name} passed on ${three.join(' ')} (deal ${s.deal})`);
  }
}

// ------------------------------------------------------ default choices

const defaults = {
  game: 'contracts',
  illegalPerDeal: 2,
  chooseContract: (a, keys) => a.pick(keys),
  chooseTrump: (a, suits, s) => {
    const n = (x) => s.hand.filter((c) => suitOf(c.card) === x).length;
    return [...suits].sort((x, y) => n(y) - n(x))[0];
  },
  chooseRank: (a, ranks, s) => {
    const n = (r) => s.hand.filter((c) => rankOf(c.card) === r).length;
    return [...ranks].sort((x, y) => n(y) - n(x))[0];
  },
  chooseCalls: (a, keys) => [a.pick(keys)],
  bid: () => ({}),
  pickCard: (a, cards) => a.pick(cards),
  chooseGroup: (a, groups) => groups[0],
  choosePassOn: (a, cards) => {
    const left = [...cards];
    const out = [];
    while (out.length < 3) out.push(left.splice(Math.floor(a.random() * left.length), 1)[0]);
    return out;
  },
};

export { SUITS, suitOf, rankOf, show };
