// Hints (issue 26): at a table created with hints, the Hint button (#hint)
// asks the server for the computer's choice at one's own turn; the answer
// (`hint`) marks the suggested card, bid or contract with the class
// `hinted` and says it in a line under the seat (#hint-note).  A hint
// belongs to the view it was asked in: a new view (the table moved on)
// drops it.  At Chinese Poker it fills the rows' builder, as a suggestion
// does.

import type { AppState } from '../app';
import { mySeat } from '../app';
import { h } from '../dom';
import type { Action, Card, HintMsg, Seat } from '../protocol';
import { SEAT_NAME, cardLabel, dealTitle } from '../names';
import { applySuggestion } from './chinese';
import type { Ctx } from './table';

/** The hint for the view at `at` of a table, the last one received. */
let hint: HintMsg | null = null;
/** The `at` a hint was asked at (the button waits), or null. */
let asking: { table: number; at: number } | null = null;

/** Whether it is the person's own turn in the view shown now. */
function myTurnIn(state: AppState): boolean {
  const vm = state.view, t = state.table, me = mySeat(state);
  return !!vm && !!t && !!me && vm.table === t.id && t.state === 'playing' && vm.view.phase !== 'over' && vm.view.to_move === me;
}

function myTurn(ctx: Ctx): boolean {
  return !ctx.kibitz && myTurnIn(ctx.app.state);
}

/** The hint for the view shown now, if there is one. */
export function hintFor(state: AppState): Action | null {
  const vm = state.view;
  if (!hint || !vm || hint.table !== vm.table || hint.at !== vm.at || !myTurnIn(state)) return null;
  return hint.action;
}

function currentHint(ctx: Ctx): Action | null {
  return ctx.kibitz ? null : hintFor(ctx.app.state);
}

/** The card a hint says to play (null: none, or not a card play). */
export function hintedCard(ctx: Ctx): Card | null {
  const a = currentHint(ctx);
  return a && a.type === 'play' && a.cards.length === 1 ? a.cards[0] : null;
}

/** Whether a hinted bid doubles (or redoubles) that seat. */
export function hintedDouble(state: AppState, seat: Seat): boolean {
  const a = hintFor(state);
  return !!a && a.type === 'bid' && ((a.double ?? []).includes(seat) || (a.redouble ?? []).includes(seat));
}

/** Whether a hinted declaration names that contract. */
export function hintedContract(state: AppState, key: string): boolean {
  const a = hintFor(state);
  return !!a && a.type === 'declare' && a.contracts.includes(key);
}

/** The hint in words: "play the Queen of Spades", "pass (no double)". */
function hintWords(ctx: Ctx, a: Action): string {
  switch (a.type) {
    case 'play':
      return `play ${a.cards.map(cardLabel).join(', ')}`;
    case 'declare':
      return `declare ${dealTitle(a.contracts, ctx.rules, a.trump, a.rank)}`;
    case 'bid': {
      const d = (a.double ?? []).map((s) => SEAT_NAME[s]);
      const r = (a.redouble ?? []).map((s) => SEAT_NAME[s]);
      if (d.length === 0 && r.length === 0) return 'double nobody';
      const parts: string[] = [];
      if (d.length > 0) parts.push(`double ${d.join(' and ')}`);
      if (r.length > 0) parts.push(`redouble ${r.join(' and ')}`);
      return parts.join(', ');
    }
    case 'pass':
      return 'pass';
    case 'pass_on':
      return `pass on ${(a.cards ?? []).map(cardLabel).join(', ')}`;
    case 'cut':
      return 'cut';
    case 'arrange':
      return 'set the rows now in the builder';
    default:
      return 'play on';
  }
}

/** The Hint button: at a table with hints, at one's own turn. */
export function hintButton(ctx: Ctx): HTMLElement | null {
  if (!ctx.t.hints || ctx.kibitz || !ctx.me) return null;
  const turn = myTurn(ctx);
  const waiting = !!asking && !!ctx.vm && asking.table === ctx.t.id && asking.at === ctx.vm.at;
  return h(
    'button',
    {
      type: 'button',
      id: 'hint',
      'data-focus': 'hint',
      // Not while one's move is on its way: the hint would be for a
      // decision already made.
      disabled: !turn || waiting || ctx.app.state.actPending,
      title: 'The computer’s choice (medium) for your decision, from your own hand',
      onclick: () => {
        if (!ctx.vm) return;
        asking = { table: ctx.t.id, at: ctx.vm.at };
        ctx.app.send({ type: 'hint' });
        ctx.app.update();
      },
    },
    waiting ? 'Thinking…' : 'Hint',
  );
}

/** The hint in a line under one's seat. */
export function hintNote(ctx: Ctx): HTMLElement | null {
  const a = currentHint(ctx);
  if (!a) return null;
  return h('p', { class: 'hint-note', id: 'hint-note', role: 'status' }, `Hint (${hint?.level ?? 'medium'}): ${hintWords(ctx, a)}.`);
}

/** The server's `hint`: kept for its view; Chinese rows fill the builder. */
export function applyHint(state: AppState, msg: HintMsg): void {
  asking = null;
  hint = msg;
  if (msg.action.type === 'arrange' && mySeat(state)) applySuggestion(state, { type: 'suggestion', table: msg.table, at: msg.at, action: msg.action });
}

/** Forgets the hint and the one being asked: the table was left, or the
 * connection was made again (welcome).  A hint asked before is never
 * answered then (the server does not send it on a new connection), and
 * the button must not wait for it. */
export function hintReset(): void {
  asking = null;
  hint = null;
}

/** The server refused a hint (its error is shown as a notice). */
export function hintRefused(): void {
  asking = null;
}
