// The bottom seat's hand (#hand): cards as buttons, one tab stop (roving
// tabindex), Left/Right/Home/End to move, Enter/Space to play or pick.
// What may be played comes from the server's `legal` list only: a card is
// playable when the list holds a play of that one card, and a click sends
// that very entry back.

import { h } from '../dom';
import type { Card, Seat } from '../protocol';
import { findLegal, playableCards } from '../legal';
import { cardLabel, sortHand } from '../names';
import { setting } from '../settings';
import { cardFace } from './cards';
import { hintedCard } from './hint';
import { offlineDisabled } from './offline';
import type { Ctx } from './table';

/** Tap-then-confirm (the tapConfirm setting): the card raised by the first
 * tap, at the view it was raised in (a new view lowers it). */
let raised: { card: Card; at: number } | null = null;

export function raisedCard(ctx: Ctx): Card | null {
  if (!raised || !ctx.vm || raised.at !== ctx.vm.at || !setting('tapConfirm') || handMode(ctx) !== 'play') return null;
  return raised.card;
}

/** What the hand's cards do now. */
export type HandMode = 'play' | 'pass_on' | 'arrange' | 'none';

/** The card that holds the hand's tab stop (kept across redraws). */
let rovingCard: Card | null = null;

export function handMode(ctx: Ctx): HandMode {
  const { v, me, vm } = ctx;
  if (!v || !me || !vm || ctx.t.state !== 'playing') return 'none';
  if (v.phase === 'play' && v.to_move === me && (vm.legal?.length ?? 0) > 0) return 'play';
  if (v.phase === 'pass_on' && v.to_move === me && !(v.fife?.passed_on ?? []).includes(me)) return 'pass_on';
  // The rows are set in turn: building them starts on this seat's turn (a
  // choice made earlier would be reset when the turn comes).
  if (v.phase === 'arrange' && v.to_move === me && !v.arranged.includes(me)) return 'arrange';
  return 'none';
}

/** Cards already put in a Chinese row (they leave the hand's display). */
export function inRows(ctx: Ctx): Set<Card> {
  const r = ctx.app.state.ui.rows;
  return new Set([...r.back, ...r.middle, ...r.front]);
}

/** The cards the hand shows now, sorted. */
export function handCards(ctx: Ctx, seat: Seat = ctx.bottom): Card[] {
  const cards = ctx.v?.hands[seat] ?? [];
  if (handMode(ctx) === 'arrange' && seat === ctx.me) {
    const rows = inRows(ctx);
    return sortHand(cards.filter((c) => !rows.has(c)));
  }
  return sortHand(cards);
}

function togglePick(ctx: Ctx, c: Card, max: number): void {
  const ui = ctx.app.state.ui;
  const i = ui.picked.indexOf(c);
  if (i >= 0) ui.picked.splice(i, 1);
  else if (ui.picked.length < max) ui.picked.push(c);
  else return;
  ctx.app.update();
}

function onKey(e: KeyboardEvent): void {
  const box = e.currentTarget as HTMLElement;
  const cards = Array.from(box.querySelectorAll<HTMLButtonElement>('button.card'));
  if (cards.length === 0) return;
  const i = cards.indexOf(document.activeElement as HTMLButtonElement);
  let j: number;
  switch (e.key) {
    case 'ArrowLeft':
    case 'ArrowUp':
      j = i <= 0 ? 0 : i - 1;
      break;
    case 'ArrowRight':
    case 'ArrowDown':
      j = i < 0 ? 0 : Math.min(cards.length - 1, i + 1);
      break;
    case 'Home':
      j = 0;
      break;
    case 'End':
      j = cards.length - 1;
      break;
    default:
      return;
  }
  e.preventDefault();
  for (const b of cards) b.tabIndex = -1;
  const b = cards[j];
  b.tabIndex = 0;
  rovingCard = b.dataset.card ?? null;
  b.focus();
}

function emptyText(ctx: Ctx, mode: HandMode): string {
  const v = ctx.v;
  if (!v) return '';
  if (mode === 'arrange') return 'All your cards are in the rows.';
  const out = v.out.indexOf(ctx.bottom);
  if (out >= 0) return `${ctx.kibitz ? 'Out' : 'You are out'}: ${['1st', '2nd', '3rd', '4th'][out] ?? ''} place.`;
  return 'No cards in hand';
}

/** The hand: the bottom seat's cards (a kibitzer sees them but cannot act). */
export function renderHand(ctx: Ctx): HTMLElement {
  const { app, vm, v } = ctx;
  const ui = app.state.ui;
  const mode = handMode(ctx);
  const cards = handCards(ctx);
  const playable = mode === 'play' ? playableCards(vm) : new Set<Card>();
  const advice = new Set(v?.advice ?? []);
  const hinted = hintedCard(ctx);
  const picked = new Set(ui.picked);
  const max = mode === 'pass_on' ? 3 : 13;

  // The tab stop: the card that had it, else the first card that can act, else the first.
  let stop = rovingCard !== null && cards.includes(rovingCard) ? rovingCard : null;
  if (stop === null) {
    stop =
      cards.find((c) => (mode === 'play' ? playable.has(c) : mode === 'pass_on' || mode === 'arrange')) ??
      cards[0] ??
      null;
  }

  const up = raisedCard(ctx);
  const buttons = cards.map((c) => {
    const isPicked = picked.has(c);
    const isRaised = up === c;
    let enabled = false;
    if (mode === 'play') enabled = playable.has(c);
    else if (mode === 'pass_on') enabled = isPicked || ui.picked.length < max;
    else if (mode === 'arrange') enabled = true;
    const cls = ['card'];
    if (mode === 'play' && !enabled) cls.push('dim');
    if (mode === 'play' && enabled) cls.push('playable');
    if (isPicked && mode !== 'play' && mode !== 'none') cls.push('picked');
    if (advice.has(c)) cls.push('advised');
    if (hinted === c) cls.push('hinted');
    if (isRaised) cls.push('raised');
    const onclick = (e: Event): void => {
      if (!enabled || offlineDisabled(e.currentTarget)) return;
      if (mode === 'play') {
        if (setting('tapConfirm') && !isRaised) {
          raised = { card: c, at: vm?.at ?? -1 };
          app.update();
          return;
        }
        raised = null;
        const entry = findLegal(vm, { type: 'play', cards: [c] });
        if (entry) app.act(entry);
      } else if (mode === 'pass_on' || mode === 'arrange') {
        togglePick(ctx, c, max);
      }
    };
    return h(
      'button',
      {
        type: 'button',
        class: cls.join(' '),
        'data-card': c,
        'data-focus': `card-${c}`,
        'aria-label': isRaised ? `${cardLabel(c)}, raised: press again to play it` : cardLabel(c),
        'data-raised': isRaised ? 'true' : null,
        'aria-disabled': enabled ? null : 'true',
        'aria-pressed': mode === 'pass_on' || mode === 'arrange' ? String(isPicked) : null,
        title: advice.has(c) ? 'The Israeli rule says to discard this card now' : null,
        tabindex: c === stop ? 0 : -1,
        onclick,
        onfocus: () => {
          rovingCard = c;
        },
      },
      cardFace(c),
    );
  });

  let label = ctx.kibitz ? 'The hand you are watching' : 'Your hand';
  if (mode === 'play') label += setting('tapConfirm') ? ': tap a card to raise it, tap it again to play it' : ': choose a card to play';
  else if (mode === 'pass_on') label += `: pick three cards to pass on (${ui.picked.length} picked)`;
  else if (mode === 'arrange') label += ': pick cards for a row';
  return h(
    'div',
    {
      id: 'hand',
      class: `hand hand-${cards.length > 9 ? 'long' : 'short'}`,
      role: 'toolbar',
      'aria-label': label,
      'data-mode': mode,
      'data-count': cards.length,
      style: `--n: ${Math.max(2, cards.length)}`,
      onkeydown: onKey as EventListener,
    },
    buttons.length > 0
      ? buttons
      : h('p', { class: 'hand-empty' }, emptyText(ctx, mode)),
  );
}

/** Under tap-then-confirm, what the raised card waits for. */
export function tapNote(ctx: Ctx): HTMLElement | null {
  const c = raisedCard(ctx);
  if (!c) return null;
  return h('p', { class: 'tap-note', id: 'tap-note', role: 'status' }, `${cardLabel(c)} raised: tap it again to play it, or tap another card.`);
}
