// The trick in the centre (#trick), each card towards its player, the card
// winning it so far marked; a trick just completed stays in view with its
// winner until the next card is played.  The last trick on demand
// (#last-trick).

import { h } from '../dom';
import type { Seat, Trick } from '../protocol';
import { SEATS } from '../protocol';
import { RED, SEAT_NAME, SUIT_NAME, cardLabel, placeOf } from '../names';
import { cardFace, suitIcon } from './cards';
import type { Ctx } from './table';
import { pace } from '../pace';
import { setting } from '../settings';

/** The seat that played the i-th card of a trick. */
export function trickSeat(t: Trick, i: number): Seat {
  return SEATS[(SEATS.indexOf(t.leader) + i) % 4];
}

/** The position in a trick of the card winning it (last_trick has only its winner). */
export function winningIndex(t: Trick): number {
  if (t.winner) return (SEATS.indexOf(t.winner) - SEATS.indexOf(t.leader) + 4) % 4;
  return t.top ?? -1;
}

/** Who: "you" for one's own seat, else the seat's name. */
export function who(ctx: Ctx, s: Seat): string {
  return s === ctx.me ? 'you' : SEAT_NAME[s];
}

/** The trick to show: the one in progress, or the one just completed. */
function shown(ctx: Ctx): { trick: Trick; complete: boolean } | null {
  const v = ctx.v;
  if (!v) return null;
  if (v.trick.cards.length > 0) return { trick: v.trick, complete: false };
  // With no pause the trick just completed stays until the next card; with
  // one it has been seen (web/src/pace.ts) and gone to its winner.
  if (v.last_trick && ctx.vm?.last?.type === 'play' && setting('trickPause') === 0) return { trick: v.last_trick, complete: true };
  return null;
}

function trumpBadge(ctx: Ctx): HTMLElement | null {
  const t = ctx.v?.trump;
  if (!t || ctx.v?.kind !== 'trumps') return null;
  return h(
    'div',
    { class: `trump-badge ${RED[t] ? 'red' : 'black'}`, 'data-trump': t },
    'Trumps: ',
    suitIcon(t),
    ` ${SUIT_NAME[t]}`,
  );
}

// The card just played slides in once, not again on every redraw.
let animated = '';

function trickCards(ctx: Ctx, t: Trick): HTMLElement[] {
  const win = winningIndex(t);
  const last = ctx.vm?.last;
  const fresh = last && last.type === 'play' && last.cards.length === 1 ? `${ctx.vm?.at}:${last.cards[0]}` : '';
  const animate = fresh !== '' && fresh !== animated;
  if (animate) animated = fresh;
  return t.cards.map((c, i) => {
    const s = trickSeat(t, i);
    const top = i === win;
    const isNew = animate && i === t.cards.length - 1 && last?.type === 'play' && last.cards[0] === c;
    return h(
      'div',
      {
        class: `played${top ? ' winning' : ''}${isNew ? ' fresh' : ''}`,
        'data-seat': s,
        'data-card': c,
        'data-place': placeOf(s, ctx.bottom),
        role: 'img',
        'aria-label': `${SEAT_NAME[s]}: ${cardLabel(c)}${top ? ' (winning)' : ''}`,
      },
      cardFace(c),
    );
  });
}

export function renderTrick(ctx: Ctx): HTMLElement {
  const v = ctx.v;
  const s = shown(ctx);
  let caption: string;
  if (!v) caption = '';
  else if (s && s.complete) caption = `Won by ${who(ctx, trickSeat(s.trick, winningIndex(s.trick)))}`;
  else if (s) {
    const win = s.trick.top >= 0 ? trickSeat(s.trick, s.trick.top) : null;
    caption = win ? `${SEAT_NAME[win]} winning` : '';
  } else if (v.phase === 'play' && v.to_move) {
    caption = v.to_move === ctx.me ? 'Your lead' : `${SEAT_NAME[v.to_move]} to lead`;
  } else caption = '';
  const n = v ? v.winners.length + (s && !s.complete ? 1 : 0) : 0;
  return h(
    'div',
    {
      id: 'trick',
      class: s?.complete ? 'trick complete' : 'trick',
      'data-complete': s?.complete ? 'true' : null,
      'aria-label': s?.complete ? `Trick ${n}, won by ${SEAT_NAME[trickSeat(s.trick, winningIndex(s.trick))]}` : `Trick ${n}`,
    },
    h('div', { class: 'trick-cards' }, s ? trickCards(ctx, s.trick) : null),
    h('div', { class: 'trick-caption', 'aria-live': 'polite' }, caption),
    trumpBadge(ctx),
  );
}

/** The last trick completed: this deal's, else the one the page saw last
 * (the last of the previous deal, or of the game once it is over). */
export function lastTrickOf(ctx: Ctx): Trick | null {
  const lt = ctx.v?.last_trick;
  if (lt) return lt;
  const seen = pace.lastTrick;
  if (seen && seen.winner && !pace.finished) return seen;
  return null;
}

let openedFor = '';

function trickKey(t: Trick): string {
  return `${t.leader}:${t.cards.join(' ')}`;
}

/** The last completed trick with its winner, while the person asks for it
 * (beside the felt, never over the trick in play); it closes when another
 * trick is completed. */
export function renderLastTrick(ctx: Ctx): HTMLElement | null {
  const lt = lastTrickOf(ctx);
  const ui = ctx.app.state.ui;
  if (!ui.showLastTrick || !lt) {
    openedFor = '';
    if (!lt) ui.showLastTrick = false;
    return null;
  }
  const key = trickKey(lt);
  if (openedFor === '') openedFor = key;
  else if (openedFor !== key) {
    openedFor = '';
    ui.showLastTrick = false;
    return null;
  }
  const close = (): void => {
    ctx.app.state.ui.showLastTrick = false;
    ctx.app.update();
  };
  const win = winningIndex(lt);
  const winner = trickSeat(lt, win);
  return h(
    'section',
    { id: 'last-trick', class: 'last-trick', 'aria-label': 'The last trick' },
    h('h3', null, `Last trick — won by ${who(ctx, winner)}`),
    h(
      'ol',
      { class: 'last-trick-cards' },
      lt.cards.map((c, i) => {
        const s = trickSeat(lt, i);
        return h(
          'li',
          {
            class: `played${i === win ? ' winning' : ''}`,
            'data-seat': s,
            'data-card': c,
            'aria-label': `${SEAT_NAME[s]}: ${cardLabel(c)}`,
          },
          cardFace(c),
          h('span', { class: 'who' }, i === 0 ? `${SEAT_NAME[s]} led` : SEAT_NAME[s]),
        );
      }),
    ),
    h('button', { type: 'button', class: 't-small', 'data-focus': 'last-trick-close', onclick: close }, 'Close'),
  );
}
