// The move clock at the table, shown to everybody: `#clock[data-seat=X]` in
// the table's bar (the seconds left for the seat to act: one's own when one
// must act, else the seat to move) and `.seat-clock[data-seat=X]` at each
// seat that must act.  The server sends the milliseconds left with each
// view; the page counts down from when the view came, every quarter of a
// second, without redrawing the table.  Under 10 s it turns urgent.

import { h } from '../dom';
import { SEAT_NAME } from '../names';
import type { BySeat, Seat, TableMsg, ViewMsg } from '../protocol';
import { SEATS } from '../protocol';

/** Seconds left under which the clock looks urgent. */
export const URGENT_S = 10;

const seenAt = new WeakMap<ViewMsg, number>();

/** The milliseconds left by seat in this view (absent when no clock runs). */
export function clockOf(vm: ViewMsg | null): BySeat<number> | null {
  if (!vm) return null;
  const c = vm.clock ?? vm.view.clock;
  if (!c || typeof c !== 'object') return null;
  return SEATS.some((s) => typeof c[s] === 'number') ? c : null;
}

function secondsLeft(el: HTMLElement): number {
  const frozen = el.dataset.clockFrozen;
  if (frozen !== undefined) return Math.max(0, Math.ceil(Number(frozen) / 1000));
  return Math.max(0, Math.ceil((Number(el.dataset.clockDeadline) - Date.now()) / 1000));
}

function paint(el: HTMLElement): void {
  const s = secondsLeft(el);
  const text = s >= 60 ? `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}` : `${s} s`;
  const label = el.querySelector('.clock-left');
  if (label && label.textContent !== text) label.textContent = text;
  if (el.dataset.seconds !== String(s)) el.dataset.seconds = String(s);
  el.classList.toggle('urgent', s < URGENT_S);
}

function clockEl(attrs: Record<string, string>, seat: Seat, ms: number, vm: ViewMsg, t: TableMsg): HTMLElement {
  if (!seenAt.has(vm)) seenAt.set(vm, Date.now());
  const el = h(
    'span',
    { ...attrs, 'data-seat': seat, role: 'timer', title: `Time left for ${SEAT_NAME[seat]}'s move` },
    h('span', { class: 'clock-icon', 'aria-hidden': 'true' }, '\u25f7 '),
    h('span', { class: 'sr-only' }, `${SEAT_NAME[seat]}'s time left: `),
    h('span', { class: 'clock-left' }),
  );
  // A paused table's clock does not run.
  if (t.state === 'paused') el.dataset.clockFrozen = String(ms);
  else el.dataset.clockDeadline = String((seenAt.get(vm) ?? Date.now()) + ms);
  paint(el);
  return el;
}

/** `#clock` for the table's bar, or null when no clock runs. */
export function barClock(t: TableMsg, vm: ViewMsg | null, me: Seat | null): HTMLElement | null {
  const c = clockOf(vm);
  if (!c || !vm) return null;
  const to = vm.view.to_move;
  const seat = (me && c[me] !== undefined ? me : to && c[to] !== undefined ? to : SEATS.find((s) => c[s] !== undefined)) as Seat;
  return clockEl({ id: 'clock', class: 'clock' }, seat, c[seat] as number, vm, t);
}

/** `.seat-clock` at a seat that must act, or null. */
export function seatClock(t: TableMsg, vm: ViewMsg | null, seat: Seat): HTMLElement | null {
  const c = clockOf(vm);
  if (!c || !vm || c[seat] === undefined) return null;
  return clockEl({ class: 'seat-clock clock' }, seat, c[seat] as number, vm, t);
}

/** "30 s a move" for a table's clock, or null without one. */
export function clockWords(seconds: number | undefined): string | null {
  if (!seconds) return null;
  return seconds % 60 === 0 ? `${seconds / 60} min a move` : `${seconds} s a move`;
}

window.setInterval(() => {
  for (const el of document.querySelectorAll<HTMLElement>('[data-clock-deadline]')) paint(el);
}, 250);
