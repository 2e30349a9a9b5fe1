// The contract chooser (#declare): the declarer's remaining contracts as
// the server's `legal` list offers them, then the trump suit or the start
// rank when the contract needs one.  The Fife game: the Caller toggles
// Calls into a combination and calls it.  Nothing here decides what is
// legal: every button stands for entries of the list, and the entry itself
// is sent back.

import type { App } from '../app';
import { mySeat } from '../app';
import { appRulesLink } from './rules';
import { h } from '../dom';
import { absenceText } from './seatnews';
import { declareOptions } from '../legal';
import { hintedContract } from './hint';
import { contractInfo, contractName, RANK_NAME, RED, SEAT_NAME, SUIT_NAME, SUIT_SYMBOL, isSuit } from '../names';
import type { DeclareAction, Seat, Suit, TableRules, View } from '../protocol';
import { SEATS } from '../protocol';

/** The Fife game's Calls, in the score sheet's order. */
export const FIFE_CALLS = ['aces', 'king-hearts', 'queens', 'hearts', 'tricks', 'patience-1', 'patience-2'];
const FIFE_ABBR: Record<string, string> = {
  aces: 'AC',
  'king-hearts': 'KH',
  queens: 'QU',
  hearts: 'HE',
  tricks: 'TR',
  'patience-1': 'P1',
  'patience-2': 'P2',
};

export function isPatience(key: string): boolean {
  return key.startsWith('patience');
}

/** "Double: Aces + Queens", "The Lot", "Single Patience", "Hearts". */
export function comboName(keys: readonly string[], rules?: TableRules): string {
  const ks = sortCalls(keys);
  if (ks.length === 0) return 'no Call';
  const pat = ks.filter(isPatience);
  const neg = ks.filter((k) => !isPatience(k));
  if (neg.length === 0) return pat.length >= 2 ? 'Double Patience' : 'Single Patience';
  const names = neg.map((k) => contractName(k, rules)).join(' + ');
  const tail = pat.length ? ` + ${pat.length >= 2 ? 'Double Patience' : 'Single Patience'}` : '';
  if (neg.length === 5 && !pat.length) return 'The Lot';
  const size = ['', '', 'Double', 'Treble', 'Quadruple', 'Quintuple'][neg.length] ?? '';
  return (size ? `${size}: ` : '') + names + tail;
}

/** The kind of combination alone: "Single", "Double", ... "The Lot", "Double Patience". */
export function comboKind(keys: readonly string[]): string {
  const neg = keys.filter((k) => !isPatience(k)).length;
  const pat = keys.length - neg;
  if (neg === 0) return pat >= 2 ? 'Double Patience' : pat === 1 ? 'Single Patience' : '';
  if (pat > 0) return 'a mixture';
  return ['', 'Single', 'Double', 'Treble', 'Quadruple', 'The Lot'][neg] ?? '';
}

export function callAbbr(key: string, rules?: TableRules): string {
  return contractInfo(key, rules)?.abbr ?? FIFE_ABBR[key] ?? key;
}

export function sortCalls(keys: readonly string[]): string[] {
  const at = (k: string) => {
    const i = FIFE_CALLS.indexOf(k);
    return i < 0 ? 99 : i;
  };
  return [...keys].sort((a, b) => at(a) - at(b));
}

/** "You", or the seat's name ("West"). */
export function who(app: App, seat: Seat): string {
  return mySeat(app.state) === seat ? 'You' : SEAT_NAME[seat];
}

/** A player's seat and name: "West (alice)". */
export function seatAndName(app: App, seat: Seat): string {
  if (mySeat(app.state) === seat) return 'You';
  const name = app.state.table?.seats.find((s) => s.seat === seat)?.name;
  return name ? `${SEAT_NAME[seat]} (${name})` : SEAT_NAME[seat];
}

/** A suit symbol coloured as on the cards. */
export function suitSpan(s: Suit): HTMLElement {
  return h('span', { class: `suit ${RED[s] ? 'suit-red' : 'suit-black'} suit-${s}`, 'aria-hidden': 'true' }, SUIT_SYMBOL[s]);
}

/** A one-line description of a contract for the chooser. */
const ABOUT: Record<string, string> = {
  'no-tricks': 'negative: avoid tricks',
  'no-hearts': 'negative: avoid hearts, A\u2665 worst',
  'no-queens': 'negative: avoid queens',
  'no-king': 'negative: avoid the K\u2665',
  'no-last-two': 'negative: avoid the last two tricks',
  'no-girls': 'negative: avoid queens',
  'no-boys': 'negative: avoid jacks and kings',
  'no-7th-last': 'negative: avoid the 7th and last tricks',
  ravage: 'negative: avoid most of one suit',
  trumps: 'positive: take tricks; name trumps',
  domino: 'positive: go out first; name the rank',
  chinese: 'three poker rows against each player',
};
const ABOUT_KIND: Record<string, string> = {
  tricks: 'a trick contract',
  trumps: 'positive: take tricks; name trumps',
  domino: 'positive: go out first',
  patience: 'positive: go out first',
  ravage: 'negative: avoid most of one suit',
  chinese: 'three poker rows against each player',
};

function aboutContract(key: string, rules: TableRules | undefined): string {
  return ABOUT[key] ?? ABOUT_KIND[contractInfo(key, rules)?.kind ?? ''] ?? '';
}

/** How often the seat may still declare `key` (per_player minus used), when known. */
export function leftFor(view: View, seat: Seat, key: string, rules: TableRules | undefined): number | null {
  const info = contractInfo(key, rules);
  if (!info) return null;
  return Math.max(0, info.per_player - (view.used[seat]?.[key] ?? 0));
}

let focusWanted: string | null = null;

/** Moves the focus to `sel` inside `root` once it is on the page. */
function focusSoon(root: HTMLElement, sel: string): void {
  setTimeout(() => {
    const el = root.isConnected ? root.querySelector<HTMLElement>(sel) : document.querySelector<HTMLElement>(sel);
    el?.focus();
  }, 0);
}

export function renderDeclare(app: App): HTMLElement | null {
  const vm = app.state.view;
  if (!vm || vm.view.phase !== 'declare') return null;
  const v = vm.view;
  const me = mySeat(app.state);
  const opts = declareOptions(vm);
  const fife = !!v.fife;
  if (!me || v.to_move !== me || opts.length === 0) {
    if (!v.to_move) return null;
    const absent = v.to_move !== me ? absenceText(app.state.table, v.to_move) : null;
    if (absent) return h('div', { class: 'panel panel-wait is-absent', id: 'declare-wait', role: 'status', 'aria-live': 'polite' }, absent);
    const text = fife
      ? `${seatAndName(app, v.to_move)} ${v.to_move === me ? 'are' : 'is'} the Caller and ${v.to_move === me ? 'choose' : 'chooses'} the Call`
      : `${seatAndName(app, v.to_move)} ${v.to_move === me ? 'are' : 'is'} choosing the contract`;
    return h('div', { class: 'panel panel-wait', id: 'declare-wait', role: 'status', 'aria-live': 'polite' }, text, '\u2026');
  }
  return fife ? renderCalls(app, v, opts) : renderContracts(app, v, me, opts);
}

// ------------------------------------------------------- the contracts game

function renderContracts(app: App, v: View, me: Seat, opts: DeclareAction[]): HTMLElement {
  const rules = app.state.table?.rule_set;
  const ui = app.state.ui;
  // The options by contract key, in the rule set's order (else as listed).
  const byKey = new Map<string, DeclareAction[]>();
  for (const o of opts) {
    const k = o.contracts.join('+');
    const list = byKey.get(k);
    if (list) list.push(o);
    else byKey.set(k, [o]);
  }
  const order = rules ? rules.contracts.map((c) => c.key) : [];
  const keys = [...byKey.keys()].sort((a, b) => {
    const ia = order.indexOf(a), ib = order.indexOf(b);
    return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib);
  });

  const pending = ui.pendingContract && byKey.has(ui.pendingContract) ? ui.pendingContract : undefined;
  const panel = h('section', { class: 'panel panel-declare', id: 'declare', 'aria-labelledby': 'declare-title' });
  const dealNo = `Deal ${v.deal + 1} of ${v.deals}`;

  if (pending) {
    const list = byKey.get(pending) ?? [];
    const name = contractName(pending, rules);
    const trumps = list.filter((o) => o.trump);
    const ranks = list.filter((o) => o.rank);
    const back = h(
      'button',
      {
        type: 'button',
        class: 'btn ghost panel-back',
        'data-focus': 'declare-back',
        onclick: () => {
          ui.pendingContract = undefined;
          focusWanted = `[data-contract="${CSS.escape(pending)}"]`;
          app.update();
        },
      },
      '\u2190 Back',
    );
    let body: HTMLElement[];
    if (trumps.length) {
      body = [
        h('h2', { class: 'panel-title', id: 'declare-title', tabindex: '-1' }, `${name}: choose the trump suit`),
        h(
          'div',
          { class: 'choice-row', role: 'group', 'aria-label': 'Trump suit' },
          trumps.map((o) => {
            const s = o.trump as Suit;
            return h(
              'button',
              {
                type: 'button',
                class: `btn choice choice-suit ${RED[s] ? 'is-red' : 'is-black'}`,
                'data-trump': s,
                'data-focus': `trump-${s}`,
                onclick: () => app.act(o),
              },
              suitSpan(s),
              ' ',
              cap(SUIT_NAME[s]),
            );
          }),
        ),
      ];
    } else {
      body = [
        h('h2', { class: 'panel-title', id: 'declare-title', tabindex: '-1' }, `${name}: choose the start rank`),
        h(
          'div',
          { class: 'choice-row choice-ranks', role: 'group', 'aria-label': 'Start rank' },
          ranks.map((o) => {
            const r = o.rank as string;
            return h(
              'button',
              {
                type: 'button',
                class: 'btn choice choice-rank',
                'data-rank': r,
                'data-focus': `rank-${r}`,
                'aria-label': `${RANK_NAME[r] ?? r}s`,
                onclick: () => app.act(o),
              },
              r === 'T' ? '10' : r,
            );
          }),
        ),
      ];
    }
    panel.append(h('p', { class: 'panel-kicker' }, dealNo, ' \u00b7 you declare'), ...body, h('div', { class: 'panel-actions' }, back));
    if (focusWanted) {
      focusSoon(panel, focusWanted);
      focusWanted = null;
    }
    return panel;
  }

  const buttons = keys.map((k) => {
    const list = byKey.get(k) ?? [];
    const left = leftFor(v, me, k, rules);
    const about = aboutContract(k, rules);
    const one = list.length === 1 ? list[0] : undefined;
    let extra = '';
    if (one?.trump && isSuit(one.trump)) extra = `trumps ${SUIT_SYMBOL[one.trump]}`;
    if (one?.rank) extra = `from the ${RANK_NAME[one.rank] ?? one.rank}s`;
    const leftText = left === null ? '' : left === 1 ? '1 left' : `${left} left`;
    const btn = h(
      'button',
      {
        type: 'button',
        class: `btn contract${hintedContract(app.state, k) ? ' hinted' : ''}`,
        'data-contract': k,
        'data-focus': `contract-${k}`,
        onclick: () => {
          if (one) {
            app.act(one);
          } else {
            ui.pendingContract = k;
            focusWanted = list.some((o) => o.trump) ? '[data-trump]' : '[data-rank]';
            app.update();
          }
        },
      },
      h(
        'span',
        { class: 'contract-head' },
        h('span', { class: 'contract-name' }, contractName(k, rules)),
        leftText ? h('span', { class: 'contract-left' }, leftText) : null,
      ),
      about || extra ? h('span', { class: 'contract-about' }, [about, extra].filter(Boolean).join(' \u00b7 ')) : null,
    );
    // Each contract's rules, in the rules dialog (a link cannot sit inside the button).
    return h('div', { class: 'contract-cell' }, btn, appRulesLink(app, `contract-${k}`, 'Rules', `The rules of ${contractName(k, rules)}`));
  });

  // Contracts the seat still has but may not choose now (King's schedule).
  const notNow: string[] = [];
  if (rules) {
    for (const c of rules.contracts) {
      const left = leftFor(v, me, c.key, rules) ?? 0;
      if (left > 0 && !byKey.has(c.key)) notNow.push(c.name);
    }
  }

  panel.append(
    h('p', { class: 'panel-kicker' }, dealNo, ' \u00b7 you declare'),
    h('h2', { class: 'panel-title', id: 'declare-title', tabindex: '-1' }, 'Choose your contract'),
    h('div', { class: 'contract-grid', role: 'group', 'aria-labelledby': 'declare-title' }, buttons),
  );
  if (notNow.length)
    panel.append(
      h(
        'p',
        { class: 'panel-note' },
        `Not allowed now: ${notNow.join(', ')} (the game's schedule must stay possible for everyone).`,
      ),
    );
  if (focusWanted) {
    focusSoon(panel, focusWanted);
    focusWanted = null;
  }
  return panel;
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

// ---------------------------------------------------------- the Fife game

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const s = new Set(a);
  return b.every((x) => s.has(x));
}

function renderCalls(app: App, v: View, opts: DeclareAction[]): HTMLElement {
  const rules = app.state.table?.rule_set;
  const ui = app.state.ui;
  const f = v.fife;
  const offered = sortCalls([...new Set(opts.flatMap((o) => o.contracts))]);
  const picked = ui.calls.filter((k) => offered.includes(k));
  const match = opts.find((o) => sameSet(o.contracts, picked));
  const done = f ? sortCalls(f.calls_done) : [];
  const left = FIFE_CALLS.filter((k) => !done.includes(k));

  // The rule "at least two Doubles or a Treble" limits the choice when a
  // Call that is left may not be played alone now.
  const limited = offered.filter((k) => !isPatience(k)).some((k) => !opts.some((o) => sameSet(o.contracts, [k])));
  const onlyPatience = left.every(isPatience);

  const toggle = (k: string) =>
    h(
      'button',
      {
        type: 'button',
        class: `btn toggle call${isPatience(k) ? ' call-patience' : ''}`,
        'data-call': k,
        'data-focus': `call-${k}`,
        'aria-pressed': picked.includes(k) ? 'true' : 'false',
        onclick: () => {
          ui.calls = picked.includes(k) ? picked.filter((x) => x !== k) : sortCalls([...picked, k]);
          app.update();
        },
      },
      h('span', { class: 'toggle-box', 'aria-hidden': 'true' }),
      h('span', null, contractName(k, rules)),
    );

  let reason = '';
  if (!match) {
    const neg = picked.filter((k) => !isPatience(k));
    const pat = picked.filter(isPatience);
    if (picked.length === 0) reason = 'Pick one Call or more to make a combination.';
    else if (neg.length && pat.length) reason = 'A negative Call and a Patience are never played together.';
    else if (pat.length === 1 && !opts.some((o) => sameSet(o.contracts, pat)))
      reason = 'A Single Patience is written in the first Patience column still empty: pick that one.';
    else if (limited)
      reason =
        "Not now: the Round's seven Calls must include at least two Doubles or a Treble, and this choice would leave that impossible.";
    else reason = 'That is not a combination you may call now.';
  }
  const label = match ? `Call ${comboName(match.contracts, rules)}` : 'Call';

  const negs = offered.filter((k) => !isPatience(k));
  const pats = offered.filter(isPatience);
  const roundName = f && f.round < 4 ? `Player Round ${f.round + 1}` : 'the Round';
  const panel = h(
    'section',
    { class: 'panel panel-declare panel-calls', id: 'declare', 'aria-labelledby': 'declare-title' },
    h('p', { class: 'panel-kicker' }, f ? `Set ${f.set + 1} \u00b7 ${roundName} \u00b7 deal ${f.round_deal + 1}` : ''),
    h('h2', { class: 'panel-title', id: 'declare-title', tabindex: '-1' }, 'Your Call'),
    h(
      'p',
      { class: 'panel-line' },
      done.length
        ? ['Played this Round: ', done.map((k) => contractName(k, rules)).join(', '), '. Left: ', left.map((k) => contractName(k, rules)).join(', '), '.']
        : 'No Call played yet this Round: all seven are left.',
    ),
    onlyPatience ? h('p', { class: 'panel-note' }, 'A Constipatience: only Patience is left.') : null,
    negs.length
      ? h('div', { class: 'call-group', role: 'group', 'aria-label': 'Negative Calls' }, h('span', { class: 'group-label' }, 'Negative'), negs.map(toggle))
      : null,
    pats.length
      ? h('div', { class: 'call-group', role: 'group', 'aria-label': 'Patience' }, h('span', { class: 'group-label' }, 'Patience'), pats.map(toggle))
      : null,
    limited
      ? h('p', { class: 'panel-note' }, "Remember: the Round's seven Calls must include at least two Doubles or a Treble, so some Calls may not be played alone now.")
      : null,
    h(
      'div',
      { class: 'panel-actions' },
      h(
        'button',
        {
          type: 'button',
          class: 'btn primary',
          id: 'declare-submit',
          'data-focus': 'declare-submit',
          disabled: !match,
          'aria-describedby': 'declare-reason',
          onclick: () => {
            if (match) app.act(match);
          },
        },
        label,
      ),
      picked.length
        ? h(
            'button',
            {
              type: 'button',
              class: 'btn ghost',
              'data-focus': 'declare-clear',
              onclick: () => {
                ui.calls = [];
                app.update();
              },
            },
            'Clear',
          )
        : null,
    ),
    h(
      'p',
      // Before the Caller has picked anything the line is a prompt, not an error.
      { class: `panel-status${match || picked.length === 0 ? '' : ' is-warn'}`, id: 'declare-reason', 'aria-live': 'polite' },
      match ? `${comboKind(match.contracts)}: ${match.contracts.map((k) => contractName(k, rules)).join(' + ')}` : reason,
    ),
  );
  return panel;
}

/** Seats in play order starting at `from`. */
export function seatsFrom(from: Seat): Seat[] {
  const i = SEATS.indexOf(from);
  return [0, 1, 2, 3].map((d) => SEATS[(i + d) % 4]);
}
