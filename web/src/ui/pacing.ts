// What pacing shows (web/src/pace.ts keeps the state): the finished trick
// (#trick[data-finished]) until it goes to its winner, the summary of the
// deal just finished (#deal-summary), the review of that deal
// (#deal-review, button#review-btn), and who doubled whom, in one place
// (#doubles-box during the bidding, .bar-doubles during the play).

import { h } from '../dom';
import { pace } from '../pace';
import type { DealDone, Finished } from '../pace';
import type { Seat, Trick } from '../protocol';
import { SEATS, seatIndex } from '../protocol';
import { SEAT_NAME, cardLabel, dealTitle, placeOf, points, sortHand } from '../names';
import { cardFace } from './cards';
import { ordinal } from './layout';
import { rulesLink } from './rules';
import type { Ctx } from './table';

function trickSeat(t: Trick, i: number): Seat {
  return SEATS[(seatIndex(t.leader) + i) % 4];
}

function word(ctx: Ctx, s: Seat): string {
  return s === ctx.me ? 'you' : SEAT_NAME[s];
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function sign(n: number): string {
  return n < 0 ? 'neg' : n > 0 ? 'pos' : '';
}

/** The trick just over, on the table until it goes (a click sends it on). */
export function renderFinished(ctx: Ctx, f: Finished): HTMLElement {
  const t = f.trick;
  const winIdx = f.winner ? (seatIndex(f.winner) - seatIndex(t.leader) + 4) % 4 : -1;
  const layout = f.kind !== 'tricks' && f.kind !== 'trumps';
  const to = f.winner ? placeOf(f.winner, ctx.bottom) : 'none';
  let caption: string;
  if (layout) caption = `${cap(word(ctx, t.leader))} played the last card${t.cards.length > 1 ? 's' : ''} of the deal`;
  else caption = f.winner ? `Won by ${word(ctx, f.winner)}` : 'Trick over';
  if (f.dealEnd && !layout) caption += ' — the last trick of the deal';
  return h(
    'div',
    {
      id: 'trick',
      class: `trick complete finished${f.going ? ' going' : ''}`,
      'data-finished': 'true',
      'data-complete': 'true',
      'data-winner': f.winner ?? null,
      'data-to': to,
      title: 'Click to go on',
      'aria-label': `${caption}. Click to go on.`,
      onclick: () => pace.skip(),
    },
    h(
      'div',
      { class: 'trick-cards' },
      t.cards.map((c, i) => {
        const s = layout ? t.leader : trickSeat(t, i);
        return h(
          'div',
          {
            class: `played${i === winIdx ? ' winning' : ''}`,
            'data-seat': s,
            'data-card': c,
            'data-place': layout ? (['bottom', 'left', 'top', 'right'] as const)[i % 4] : placeOf(s, ctx.bottom),
            role: 'img',
            'aria-label': `${SEAT_NAME[s]}: ${cardLabel(c)}`,
          },
          cardFace(c),
        );
      }),
    ),
    h('div', { class: 'trick-caption', 'aria-live': 'polite' }, caption),
  );
}

/** Why a deal ended before its cards were all played, or was not played. */
export function endedWhy(ctx: Ctx, d: DealDone): string | null {
  const r = d.result;
  if (d.ended === 'unplayed') {
    const text = ctx.rules?.undoubled_text;
    return `Nobody doubled this negative contract, so it was not played: its points were shared out${text ? ` (${text.replace(/\.$/, '')})` : ''}.`;
  }
  if (d.ended === 'early') {
    const n = r.tricks_left ?? 0;
    return `The deal ended early: every card that scores had been taken, so the last ${n} trick${n === 1 ? ' was' : 's were'} not played.`;
  }
  return null;
}

/** Who doubled whom in a deal, one line per player who doubled or redoubled. */
export function doublesLines(ctx: Ctx, doubles: Partial<Record<Seat, Seat[]>>, redoubles: Partial<Record<Seat, Seat[]>>): string[] {
  const out: string[] = [];
  for (const s of SEATS) {
    const d = doubles[s] ?? [];
    const r = redoubles[s] ?? [];
    const bits: string[] = [];
    if (d.length) bits.push(`doubled ${d.map((x) => word(ctx, x)).join(' and ')}`);
    if (r.length) bits.push(`redoubled ${r.map((x) => word(ctx, x)).join(' and ')}`);
    if (bits.length) out.push(`${cap(word(ctx, s))} ${bits.join(', ')}`);
  }
  return out;
}

/** The doubles settled between each pair, as the server gives them (the
 * engine's settlement: docs/rules.md, Settlement); from a server without
 * them, just who doubled whom. */
function settled(ctx: Ctx, d: DealDone): string[] {
  const r = d.result;
  if (!r.settled) return doublesLines(ctx, r.doubles, r.redoubles).map((l) => `${l}.`);
  return r.settled.map(({ pair: [hi, lo], level, points }) => {
    const [by, of] = (r.doubles[hi] ?? []).includes(lo) ? [hi, lo] : [lo, hi];
    const what = `${cap(word(ctx, by))} doubled ${word(ctx, of)}${level === 2 ? ' (redoubled)' : ''}`;
    if (points === 0) return `${what}: level, nothing changes hands.`;
    return `${what}: ${word(ctx, hi)} take${hi === ctx.me ? '' : 's'} ${points} from ${word(ctx, lo)}.`;
  });
}

/** The summary of the deal just finished, until closed or its time is up. */
export function renderSummary(ctx: Ctx, d: DealDone): HTMLElement {
  const r = d.result;
  const why = endedWhy(ctx, d);
  const title = dealTitle(r.contracts, ctx.rules, r.trump, r.rank);
  const lines = settled(ctx, d);
  // The newest view (the table may still show an older one).
  const nv = ctx.app.state.view?.view;
  const myTurn = !!nv && !!ctx.me && nv.to_move === ctx.me && nv.phase !== 'over';
  return h(
    'section',
    {
      id: 'deal-summary',
      class: 'deal-summary',
      role: 'dialog',
      'aria-labelledby': 'deal-summary-title',
      'data-deal': r.deal,
      'data-ended': d.ended,
    },
    h('h2', { id: 'deal-summary-title', tabindex: '-1' }, `Deal ${r.deal + 1}: ${title}`),
    r.declarer ? h('p', { class: 'summary-by' }, `${ctx.fife ? 'Called' : 'Declared'} by ${word(ctx, r.declarer)} · ${ctx.t.rules}${ctx.t.house ? ' with house rules' : ''}`) : null,
    why ? h('p', { class: 'summary-why', id: 'summary-why', role: 'note' }, why) : null,
    r.order && r.order.length > 0 ? h('p', { class: 'summary-order' }, `Out: ${r.order.map((s, i) => `${ordinal(i + 1)} ${word(ctx, s)}`).join(', ')}`) : null,
    h(
      'table',
      { class: 'summary-table' },
      h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Player'), h('th', { scope: 'col' }, 'Points'), lines.length ? h('th', { scope: 'col' }, 'After doubles') : null, h('th', { scope: 'col' }, 'Total'))),
      h(
        'tbody',
        null,
        SEATS.map((s, i) =>
          h(
            'tr',
            { class: 'summary-row', 'data-seat': s, 'data-points': r.score[i], 'data-total': d.totals[i] },
            h(
              'th',
              { scope: 'row' },
              `${SEAT_NAME[s]}${s === ctx.me ? ' (you)' : ''}`,
              ctx.t.seats[i]?.name ? h('span', { class: 'summary-name' }, ` · ${ctx.t.seats[i].name}`) : null,
            ),
            lines.length ? h('td', { class: `summary-raw ${sign(r.raw[i])}` }, points(r.raw[i])) : null,
            h('td', { class: `summary-points ${sign(r.score[i])}` }, points(r.score[i])),
            h('td', { class: `summary-total ${sign(d.totals[i])}` }, points(d.totals[i])),
          ),
        ),
      ),
    ),
    lines.length
      ? h('div', { class: 'summary-doubles', id: 'summary-doubles' }, h('h3', null, 'Doubles settled'), h('ul', null, lines.map((l) => h('li', null, l))))
      : h('p', { class: 'summary-doubles', id: 'summary-doubles' }, 'No doubles this deal.'),
    h(
      'div',
      { class: 'summary-actions' },
      h('button', { type: 'button', class: 't-small', id: 'review-open', 'data-focus': 'review-open', onclick: () => openReview() }, 'Review the deal'),
      rulesLink(ctx, '', 'The rules'),
      h(
        'button',
        { type: 'button', class: 't-primary', id: 'summary-close', 'data-focus': 'summary-close', onclick: () => pace.closeSummary() },
        myTurn ? 'Close — your turn' : 'Close',
      ),
    ),
  );
}

function openReview(): void {
  pace.openReview();
}

/** The whole deal just finished: every trick with its leader and winner, or the layout order. */
export function renderReview(ctx: Ctx, d: DealDone): HTMLElement {
  const r = d.result;
  const close = (): void => {
    pace.reviewOpen = false;
    pace.update();
  };
  const trickRows = d.tricks.map((t, k) =>
    t
      ? h(
          'li',
          { class: 'review-trick', 'data-trick': k + 1, 'data-leader': t.leader, 'data-winner': t.winner ?? null },
          h('span', { class: 'review-n' }, `${k + 1}.`),
          h('span', { class: 'review-lead' }, `${SEAT_NAME[t.leader]} led`),
          h(
            'span',
            { class: 'review-cards' },
            t.cards.map((c, i) => {
              const s = trickSeat(t, i);
              return h('span', { class: `mini-card${s === t.winner ? ' winning' : ''}`, 'data-card': c, 'data-seat': s, title: `${SEAT_NAME[s]}: ${cardLabel(c)}` }, cardFace(c, { mini: true }));
            }),
          ),
          h('span', { class: 'review-win' }, t.winner ? `won by ${SEAT_NAME[t.winner]}` : ''),
        )
      : h('li', { class: 'review-trick unseen', 'data-trick': k + 1 }, `${k + 1}. (not seen by this page)`),
  );
  const layout = d.kind === 'domino' || d.kind === 'patience' || !!r.order;
  return h(
    'section',
    { id: 'deal-review', class: 'deal-review', role: 'dialog', 'aria-labelledby': 'deal-review-title', 'data-deal': r.deal },
    h(
      'div',
      { class: 'review-head' },
      h('h2', { id: 'deal-review-title', tabindex: '-1' }, `Deal ${r.deal + 1}: ${dealTitle(r.contracts, ctx.rules, r.trump, r.rank)}`),
      h('button', { type: 'button', class: 't-small', id: 'review-close', 'data-focus': 'review-close', onclick: close }, 'Close'),
    ),
    endedWhy(ctx, d) ? h('p', { class: 'summary-why' }, endedWhy(ctx, d)) : null,
    layout && r.order
      ? h('p', null, `Out: ${r.order.map((s, i) => `${ordinal(i + 1)} ${SEAT_NAME[s]}`).join(', ')}`)
      : null,
    layout
      ? h(
          'ul',
          { class: 'review-played' },
          SEATS.map((s) =>
            h(
              'li',
              { 'data-seat': s },
              h('strong', null, `${SEAT_NAME[s]}: `),
              (d.played[s] ?? []).map((c) => h('span', { class: 'mini-card', 'data-card': c, title: cardLabel(c) }, cardFace(c, { mini: true }))),
            ),
          ),
        )
      : trickRows.length > 0
        ? h('ol', { class: 'review-tricks' }, trickRows)
        : h('p', { class: 'review-note' }, d.record === 'failed' ? 'The tricks could not be read from the game record.' : 'Loading the tricks from the game record…'),
    h(
      'ul',
      { class: 'deal-scores' },
      SEATS.map((s, i) => h('li', { 'data-seat': s }, `${SEAT_NAME[s]} `, h('strong', { class: sign(r.score[i]) }, points(r.score[i])))),
    ),
    d.hands
      ? h(
          'div',
          { class: 'review-hands', id: 'review-hands' },
          h('h3', null, 'The hands as dealt'),
          h(
            'ul',
            null,
            SEATS.map((s) =>
              h(
                'li',
                { 'data-seat': s },
                h('strong', null, `${SEAT_NAME[s]}: `),
                sortHand(d.hands?.[s] ?? []).map((c) => h('span', { class: 'mini-card', 'data-card': c, title: cardLabel(c) }, cardFace(c, { mini: true }))),
              ),
            ),
          ),
        )
      : h('p', { class: 'review-note' }, d.record === 'failed' ? 'The hands as dealt could not be read from the game record.' : 'The hands as dealt: loading the game record…'),
  );
}

/** Who doubled whom this deal, in one place: during the bidding in the centre. */
export function renderDoublesBox(ctx: Ctx): HTMLElement | null {
  const v = ctx.v;
  if (!v || v.phase !== 'bid') return null;
  const lines = doublesLines(ctx, v.doubles, v.redoubles);
  const passed = SEATS.filter((s) => v.bids.includes(s) && !(v.doubles[s]?.length || v.redoubles[s]?.length));
  if (lines.length === 0 && passed.length === 0) return null;
  return h(
    'section',
    { class: 'doubles-box', id: 'doubles-box', 'aria-label': 'Doubles so far' },
    h('h3', null, 'Doubles so far'),
    h(
      'ul',
      null,
      lines.map((l) => h('li', null, l)),
      passed.map((s) => h('li', { class: 'passed' }, `${cap(word(ctx, s))} ${s === v.declarer ? 'did not redouble' : 'passed'}`)),
    ),
  );
}

/** During the play, compactly in the bar: "N×E, W×N (E redoubled N)". */
export function barDoubles(ctx: Ctx): HTMLElement | null {
  const v = ctx.v;
  if (!v || (v.phase !== 'play' && v.phase !== 'arrange')) return null;
  const parts: string[] = [];
  for (const s of SEATS) for (const x of v.doubles[s] ?? []) parts.push(`${s}\u00d7${x}${(v.redoubles[x] ?? []).includes(s) ? '\u00d72' : ''}`);
  if (parts.length === 0) return h('span', { class: 'bar-doubles', id: 'bar-doubles', title: 'Nobody doubled' }, 'No doubles');
  const long = doublesLines(ctx, v.doubles, v.redoubles).join('; ');
  return h('span', { class: 'bar-doubles', id: 'bar-doubles', title: long, 'aria-label': `Doubles: ${long}` }, `Doubles: ${parts.join(' ')}`);
}
