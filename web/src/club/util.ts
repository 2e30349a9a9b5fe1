// Small pieces every club page uses: dates in UTC, figures, links into the
// club, a table that scrolls inside its own box on a phone, the pager.

import { h } from '../dom';
import type { Child } from '../dom';
import { points } from '../names';
import type { GamePlayer } from './api';

/** "2026-11-27" (UTC). */
export function day(t: number | null | undefined): string {
  if (!t) return '\u2014';
  return new Date(t * 1000).toISOString().slice(0, 10);
}

/** "2026-11-27 14:05" (UTC). */
export function when(t: number | null | undefined): string {
  if (!t) return '\u2014';
  const s = new Date(t * 1000).toISOString();
  return `${s.slice(0, 10)} ${s.slice(11, 16)}`;
}

/** A rating to one decimal: "17.3". */
export function fixed(x: number, d = 1): string {
  if (!Number.isFinite(x)) return '\u2014';
  const t = Math.abs(x).toFixed(d);
  return x < 0 && Number(t) !== 0 ? `\u2212${t}` : t;
}

/** Points with their sign, coloured by it (.pos green, .neg red). */
export function pts(n: number | null | undefined): HTMLElement {
  if (n === null || n === undefined) return h('span', { class: 'muted' }, '\u2014');
  return h('span', { class: n > 0 ? 'pos' : n < 0 ? 'neg' : '' }, points(n));
}

/** An average to two decimals, with a real minus sign: "−7.50". */
export function average(x: number): string {
  const t = Math.abs(Number(x)).toFixed(2);
  return Number(x) < 0 && t !== '0.00' ? `\u2212${t}` : t;
}

/** "November 2026", "2026". */
export function periodName(p: string): string {
  const m = /^(\d{4})-(\d{2})$/.exec(p);
  if (!m) return p;
  const names = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
  return `${names[Number(m[2]) - 1] ?? m[2]} ${m[1]}`;
}

export function ordinal(n: number): string {
  return n === 1 ? '1st' : n === 2 ? '2nd' : n === 3 ? '3rd' : `${n}th`;
}

export const playerHref = (name: string): string => `/club/player/${encodeURIComponent(name)}`;
export const levelHref = (level: string): string => `/club/level/${encodeURIComponent(level)}`;
export const gameHref = (id: number): string => `/club/game/${id}`;

/** A player's name as a link to their page: a registered player's page, a
 * computer player's level; a guest has no page. */
export function who(p: Pick<GamePlayer, 'name' | 'kind' | 'level'>): Child {
  if (p.kind === 'computer' && p.level) return h('a', { href: levelHref(p.level) }, p.name);
  if (p.kind === 'registered') return h('a', { href: playerHref(p.name) }, p.name);
  return p.name;
}

/** "registered", "guest", "computer, medium". */
export function kindText(p: Pick<GamePlayer, 'kind' | 'level'>): string {
  if (p.kind === 'computer') return p.level ? `computer, ${p.level}` : 'computer';
  return p.kind;
}

/** A table in a box that scrolls sideways on a narrow screen (the page
 * itself never does): focusable, so a keyboard can scroll it too. */
export function scroller(label: string, table: HTMLElement): HTMLElement {
  return h('div', { class: 'club-scroll', tabindex: 0, role: 'region', 'aria-label': `${label} (table)` }, table);
}

/** Previous / "Page 2 of 7" / next, as links to the same page with ?page=K. */
export function pager(page: number, pages: number, hrefFor: (k: number) => string, id = 'pager'): HTMLElement | null {
  if (pages <= 1) return null;
  return h(
    'nav',
    { class: 'pager', id, 'aria-label': 'Pages' },
    page > 1 ? h('a', { class: 'btn small', rel: 'prev', href: hrefFor(page - 1) }, '\u2190 Previous') : h('span', { class: 'pager-gap' }),
    h('span', { class: 'pager-status', 'aria-live': 'polite' }, `Page ${page} of ${pages}`),
    page < pages ? h('a', { class: 'btn small', rel: 'next', href: hrefFor(page + 1) }, 'Next \u2192') : h('span', { class: 'pager-gap' }),
  );
}

/** A positive whole number from a query parameter, else 1. */
export function pageParam(q: URLSearchParams): number {
  const k = Number(q.get('page'));
  return Number.isInteger(k) && k >= 1 ? k : 1;
}
