// The doubling panel (#bid): a toggle for each seat this player may double
// or redouble (from the seats the server's `legal` list names), the
// compulsory double locked on, the "Max" and "Family" shortcuts as the
// terminal client defines them (src/engine/doubling.c barbu_bid_shortcut),
// and the bid sent back as the list's own entry.

import type { App } from '../app';
import { mySeat } from '../app';
import { h } from '../dom';
import { absenceText } from './seatnews';
import { bidOptions, findLegal } from '../legal';
import { dealTitle, SEAT_NAME } from '../names';
import type { BidAction, BySeat, Seat, View } from '../protocol';
import { SEATS } from '../protocol';
import { seatAndName, seatsFrom, who } from './declare';
import { appRulesLink } from './rules';
import { hintedDouble } from './hint';

function list(seats: readonly Seat[], name: (s: Seat) => string = (s) => SEAT_NAME[s]): string {
  const names = seats.map(name);
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

function inOrder(seats: Iterable<Seat>): Seat[] {
  const s = new Set(seats);
  return SEATS.filter((x) => s.has(x));
}

/**
 * What the players have bid, in words: "North doubled East; East redoubled
 * North; South passed".  `bids` are the seats that have bid (a seat that
 * bid nothing "passed"); without it only the doubles are told.
 */
export function bidsInWords(
  doubles: BySeat<Seat[]>,
  redoubles: BySeat<Seat[]>,
  order: readonly Seat[],
  bids?: readonly Seat[],
  declarer?: Seat,
  me?: Seat | null,
): string {
  const parts: string[] = [];
  const name = (s: Seat) => (me === s ? 'You' : SEAT_NAME[s]);
  const obj = (s: Seat) => (me === s ? 'you' : SEAT_NAME[s]);
  for (const s of order) {
    const d = doubles[s] ?? [];
    const r = redoubles[s] ?? [];
    const bits: string[] = [];
    if (d.length) bits.push(`doubled ${list(inOrder(d), obj)}`);
    if (r.length) bits.push(`redoubled ${list(inOrder(r), obj)}`);
    if (bits.length) parts.push(`${name(s)} ${bits.join(' and ')}`);
    else if (bids?.includes(s)) parts.push(`${name(s)} ${s === declarer ? 'did not redouble' : 'passed'}`);
  }
  return parts.join('; ');
}

/** Bidding order: from the declarer's left round to the declarer. */
function bidOrder(v: View): Seat[] {
  return seatsFrom(v.declarer).slice(1).concat([v.declarer]);
}

export function renderBid(app: App): HTMLElement | null {
  const vm = app.state.view;
  if (!vm || vm.view.phase !== 'bid') return null;
  const v = vm.view;
  const me = mySeat(app.state);
  const opts = bidOptions(vm);
  const sofar = bidsInWords(v.doubles, v.redoubles, bidOrder(v), v.bids, v.declarer, me);
  const contract = dealTitle(v.contracts, app.state.table?.rule_set, v.trump, v.rank);

  if (!me || v.to_move !== me || opts.length === 0) {
    if (!v.to_move) return null;
    const absent = v.to_move !== me ? absenceText(app.state.table, v.to_move) : null;
    if (absent) {
      return h(
        'div',
        { class: 'panel panel-wait is-absent', id: 'bid-wait', role: 'status', 'aria-live': 'polite' },
        h('span', null, absent),
        sofar ? h('span', { class: 'panel-wait-more' }, ` So far: ${sofar}.`) : null,
      );
    }
    const doing = v.to_move === v.declarer ? 'redouble' : 'double';
    const verb = v.to_move === me ? 'are deciding' : 'is deciding';
    return h(
      'div',
      { class: 'panel panel-wait', id: 'bid-wait', role: 'status', 'aria-live': 'polite' },
      h('span', null, `${seatAndName(app, v.to_move)} ${verb} whom to ${doing}\u2026`),
      sofar ? h('span', { class: 'panel-wait-more' }, ` ${sofar}.`) : null,
      ' ',
      appRulesLink(app, 'doubling', 'Doubling rules', 'The doubling rules'),
    );
  }

  const ui = app.state.ui;
  const decl = v.declarer;
  const iDeclare = me === decl;
  const mayDouble = new Set<Seat>();
  const mayRedouble = new Set<Seat>();
  for (const o of opts) {
    for (const s of o.double ?? []) mayDouble.add(s);
    for (const s of o.redouble ?? []) mayRedouble.add(s);
  }
  const owed = v.owed[SEATS.indexOf(me)]?.[SEATS.indexOf(decl)] ?? 0;
  const compulsory = v.compulsory && !iDeclare && owed > 0 && mayDouble.has(decl);

  // The selection: what the person ticked, within what is offered, and the
  // compulsory double always on.
  const dbl = new Set(ui.doubles.filter((s) => mayDouble.has(s)));
  const rdbl = new Set(ui.redoubles.filter((s) => mayRedouble.has(s)));
  if (compulsory) dbl.add(decl);
  const selection = (): BidAction => {
    const a: BidAction = { type: 'bid' };
    const d = inOrder(dbl);
    const r = inOrder(rdbl);
    if (d.length) a.double = d;
    if (r.length) a.redouble = r;
    return a;
  };
  const chosen = selection();
  const legal = findLegal(vm, chosen);
  const set = (d: Iterable<Seat>, r: Iterable<Seat>) => {
    ui.doubles = inOrder(d);
    ui.redoubles = inOrder(r);
    app.update();
  };

  // Max: everyone one may double, everyone who doubled one redoubled.
  const maxD = inOrder(mayDouble);
  const maxR = inOrder(mayRedouble);
  const maxOffers = maxD.length + maxR.length > 0;
  // Family (flanks): the two other non-declarers, doubled, or redoubled when
  // they doubled this player; not for the declarer, nor at a positive
  // contract where they may not be doubled.
  let family: { d: Seat[]; r: Seat[] } | null = null;
  if (!iDeclare) {
    const flanks = SEATS.filter((s) => s !== me && s !== decl);
    const r = flanks.filter((s) => mayRedouble.has(s));
    const d = flanks.filter((s) => !mayRedouble.has(s));
    if (d.every((s) => mayDouble.has(s)) && flanks.length > 0) family = { d: compulsory ? [...d, decl] : d, r };
  }

  const rows = seatsFrom(me)
    .slice(1)
    .map((s) => {
      if (mayRedouble.has(s)) {
        const on = rdbl.has(s);
        return h(
          'div',
          { class: 'bid-row' },
          h(
            'button',
            {
              type: 'button',
              class: 'btn toggle bid-toggle is-redouble',
              'data-redouble': s,
              'data-focus': `redouble-${s}`,
              'aria-pressed': on ? 'true' : 'false',
              onclick: () => {
                if (on) rdbl.delete(s);
                else rdbl.add(s);
                set(dbl, rdbl);
              },
            },
            h('span', { class: 'toggle-box', 'aria-hidden': 'true' }),
            h('span', null, `Redouble ${SEAT_NAME[s]}`),
          ),
          h('span', { class: 'bid-why' }, `${SEAT_NAME[s]} doubled you`),
        );
      }
      if (mayDouble.has(s)) {
        const locked = compulsory && s === decl;
        const on = dbl.has(s);
        return h(
          'div',
          { class: 'bid-row' },
          h(
            'button',
            {
              type: 'button',
              class: `btn toggle bid-toggle${locked ? ' is-locked' : ''}${hintedDouble(app.state, s) ? ' hinted' : ''}`,
              'data-double': s,
              'data-focus': `double-${s}`,
              'data-compulsory': locked ? 'true' : null,
              'aria-pressed': on ? 'true' : 'false',
              'aria-disabled': locked ? 'true' : null,
              'aria-describedby': locked ? 'bid-compulsory' : null,
              onclick: () => {
                if (locked) return;
                if (on) dbl.delete(s);
                else dbl.add(s);
                set(dbl, rdbl);
              },
            },
            h('span', { class: 'toggle-box', 'aria-hidden': 'true' }),
            h(
              'span',
              { class: 'toggle-text' },
              h('span', null, `Double ${SEAT_NAME[s]}`),
              locked ? h('span', { class: 'tag tag-must' }, 'compulsory') : null,
            ),
          ),
          s === decl ? h('span', { class: 'bid-why' }, 'the declarer') : null,
        );
      }
      let why = `may not double ${SEAT_NAME[s]} now`;
      if (iDeclare) why = `${SEAT_NAME[s]} did not double you`;
      else if (s !== decl && mayDouble.has(decl)) why = 'only the declarer may be doubled at this contract';
      return h(
        'div',
        { class: 'bid-row is-off' },
        h('span', { class: 'bid-seat' }, SEAT_NAME[s]),
        h('span', { class: 'bid-why' }, why),
      );
    });

  const d = chosen.double ?? [];
  const r = chosen.redouble ?? [];
  let label: string;
  if (!d.length && !r.length) label = iDeclare ? 'No redouble' : 'Pass';
  else label = [d.length ? `Double ${list(d)}` : '', r.length ? `redouble ${list(r)}` : ''].filter(Boolean).join(', ');
  label = label.charAt(0).toUpperCase() + label.slice(1);
  const reason = legal
    ? ''
    : compulsory && !dbl.has(decl)
      ? `You must double ${SEAT_NAME[decl]}.`
      : 'That is not a bid you may make now.';

  const sameAs = (xd: Seat[], xr: Seat[]) => xd.join() === d.join() && xr.join() === r.join();

  return h(
    'section',
    { class: 'panel panel-bid', id: 'bid', 'aria-labelledby': 'bid-title' },
    h('p', { class: 'panel-kicker' }, `${contract}, declared by ${who(app, decl) === 'You' ? 'you' : SEAT_NAME[decl]}`),
    h('h2', { class: 'panel-title', id: 'bid-title', tabindex: '-1' }, iDeclare ? 'Redouble?' : 'Double?'),
    sofar ? h('p', { class: 'panel-line' }, `So far: ${sofar}.`) : null,
    compulsory
      ? h(
          'p',
          { class: 'panel-must', id: 'bid-compulsory' },
          `You must double ${SEAT_NAME[decl]} now: you still owe ${owed} compulsory double${owed === 1 ? '' : 's'} to ${SEAT_NAME[decl]}, and ${SEAT_NAME[decl]} has no more contracts left than that.`,
        )
      : !iDeclare && owed > 0
        ? h('p', { class: 'panel-note' }, `You owe ${SEAT_NAME[decl]} ${owed} compulsory double${owed === 1 ? '' : 's'} over ${SEAT_NAME[decl]}'s contracts.`)
        : null,
    undoubledNote(app, v, iDeclare),
    h('div', { class: 'bid-rows', role: 'group', 'aria-labelledby': 'bid-title' }, rows),
    h(
      'div',
      { class: 'panel-actions' },
      maxOffers
        ? h(
            'button',
            {
              type: 'button',
              class: 'btn ghost',
              id: 'bid-max',
              'data-focus': 'bid-max',
              'aria-pressed': sameAs(maxD, maxR) ? 'true' : 'false',
              title: 'Double everyone you may, redouble everyone who doubled you',
              onclick: () => set(maxD, maxR),
            },
            'Max',
          )
        : null,
      family
        ? h(
            'button',
            {
              type: 'button',
              class: 'btn ghost',
              id: 'bid-family',
              'data-focus': 'bid-family',
              'aria-pressed': sameAs(inOrder(family.d), inOrder(family.r)) ? 'true' : 'false',
              title: 'Double the two other players who are not declaring (redouble them if they doubled you)',
              onclick: () => {
                if (family) set(family.d, family.r);
              },
            },
            'Family',
          )
        : null,
      (d.length > (compulsory ? 1 : 0) || r.length)
        ? h(
            'button',
            {
              type: 'button',
              class: 'btn ghost',
              id: 'bid-clear',
              'data-focus': 'bid-clear',
              onclick: () => set(compulsory ? [decl] : [], []),
            },
            'Clear',
          )
        : null,
      h(
        'button',
        {
          type: 'button',
          class: 'btn primary',
          id: 'bid-submit',
          'data-focus': 'bid-submit',
          disabled: !legal,
          'aria-describedby': 'bid-status',
          onclick: () => {
            if (legal) app.act(legal);
          },
        },
        label,
      ),
    ),
    h('p', { class: 'panel-rules' }, appRulesLink(app, 'doubling', 'The doubling rules')),
    // A warning only once the player has changed the selection: before that it is a prompt.
    h('p', { class: `panel-status${legal || (ui.doubles.length === 0 && ui.redoubles.length === 0) ? '' : ' is-warn'}`, id: 'bid-status', 'aria-live': 'polite' }, reason || `Your bid: ${label.toLowerCase() === 'pass' ? 'pass' : label}.`),
  );
}

/** Before one passes: a negative contract nobody doubles is not played, and
 * how its points are then shared (the table's `rule_set.undoubled_text`). */
function undoubledNote(app: App, v: View, iDeclare: boolean): HTMLElement | null {
  const rs = app.state.table?.rule_set;
  if (!rs?.undoubled_shared) return null;
  const infos = v.contracts.map((k) => rs.contracts.find((c) => c.key === k));
  // Trumps, Domino, Patience and Chinese Poker are played even undoubled.
  const negative = infos.length > 0 && infos.every((c) => c && (c.kind === 'tricks' || c.kind === 'ravage'));
  if (!negative) return null;
  const anyDouble = SEATS.some((s) => (v.doubles[s]?.length ?? 0) > 0);
  if (anyDouble) return null;
  const name = dealTitle(v.contracts, rs, v.trump, v.rank);
  const rest = iDeclare ? '' : ' If you pass and nobody after you doubles,';
  return h(
    'p',
    { class: 'panel-note', id: 'bid-undoubled' },
    `${rest ? rest.trim() : 'Nobody has doubled:'} ${name} is not played and its points are shared out.`,
    rs.undoubled_text ? ` ${rs.undoubled_text}` : '',
  );
}
