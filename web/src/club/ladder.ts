// The ladder of a month or a year (/club/ and /club/ladder?period=P): the
// ranked players by total, those with too few games below, the month/year
// switch, previous and next, and every earlier period in a list.

import { h } from '../dom';
import type { Ladder, LadderRow } from './api';
import { average, periodName, playerHref, pts, scroller } from './util';

export const ladderHref = (p: string | null | undefined): string => (p ? `/club/ladder?period=${encodeURIComponent(p)}` : '/club/ladder');

export function ladderApi(q: URLSearchParams): string {
  const p = q.get('period');
  return p ? `/club/api/ladder?period=${encodeURIComponent(p)}` : '/club/api/ladder';
}

export function ladderTitle(d: Ladder): string {
  return `The ladder \u2014 ${periodName(d.period)}`;
}

function rows(list: LadderRow[], ranked: boolean): HTMLElement[] {
  return list.map((r) =>
    h(
      'tr',
      { 'data-name': r.name, 'data-total': r.total, 'data-games': r.games, 'data-position': ranked ? r.position : null },
      ranked ? h('td', { class: 'num pos-cell', 'data-label': 'Position' }, String(r.position ?? '')) : null,
      h('th', { scope: 'row', class: 'who-cell', 'data-label': 'Player' }, h('a', { href: playerHref(r.name) }, r.name)),
      h('td', { class: 'num', 'data-label': 'Games' }, String(r.games)),
      h('td', { class: 'num', 'data-label': 'Total' }, pts(r.total)),
      h('td', { class: 'num', 'data-label': 'Average' }, average(r.average)),
    ),
  );
}

function table(id: string, caption: string, list: LadderRow[], ranked: boolean): HTMLElement {
  return scroller(
    caption,
    h(
      'table',
      { class: 'club-table ladder-table', id },
      h('caption', { class: 'sr-only' }, caption),
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          ranked ? h('th', { scope: 'col', class: 'num' }, h('abbr', { title: 'Position' }, 'Pos.')) : null,
          h('th', { scope: 'col' }, 'Player'),
          h('th', { scope: 'col', class: 'num' }, 'Games'),
          h('th', { scope: 'col', class: 'num' }, 'Total'),
          h('th', { scope: 'col', class: 'num' }, h('abbr', { title: 'Average points per game' }, 'Average')),
        ),
      ),
      h('tbody', null, rows(list, ranked)),
    ),
  );
}

/** The month of a year to show from the year's page: its latest month with
 * ladder games, else its December (or the current month, when it is now). */
function monthOf(d: Ladder): string {
  const y = d.period.slice(0, 4);
  const m = d.periods.find((p) => p.startsWith(`${y}-`));
  if (m) return m;
  const now = new Date().toISOString().slice(0, 7);
  return now.startsWith(y) ? now : `${y}-12`;
}

export function ladderPage(d: Ladder, go: (href: string) => void): HTMLElement {
  const year = d.kind === 'year' ? d.period : d.period.slice(0, 4);
  const switcher = h(
    'div',
    { class: 'ladder-kind', role: 'group', 'aria-label': 'Month or year' },
    h('a', { id: 'ladder-month', class: 'btn small', href: ladderHref(d.kind === 'month' ? d.period : monthOf(d)), 'aria-current': d.kind === 'month' ? 'page' : null }, 'Month'),
    h('a', { id: 'ladder-year', class: 'btn small', href: ladderHref(year), 'aria-current': d.kind === 'year' ? 'page' : null }, 'Year'),
  );
  const prevNext = h(
    'div',
    { class: 'ladder-steps' },
    d.previous
      ? h('a', { id: 'ladder-prev', class: 'btn small', href: ladderHref(d.previous), rel: 'prev' }, `\u2190 ${periodName(d.previous)}`)
      : null,
    d.next ? h('a', { id: 'ladder-next', class: 'btn small', href: ladderHref(d.next), rel: 'next' }, `${periodName(d.next)} \u2192`) : null,
  );
  // Every period with ladder games, newest first: a list and a Show button.
  const options = d.periods.includes(d.period) ? d.periods : [d.period, ...d.periods];
  const sel = h(
    'select',
    { id: 'ladder-period', name: 'period' },
    options.map((p) => h('option', { value: p }, /^\d{4}$/.test(p) ? `${p} (the year)` : periodName(p))),
  );
  sel.value = d.period;
  const form = h(
    'form',
    { class: 'ladder-pick', id: 'ladder-pick', role: 'search', 'aria-label': 'Another period' },
    h('label', { for: 'ladder-period' }, 'Period'),
    sel,
    h('button', { type: 'submit', class: 'btn small', id: 'ladder-show' }, 'Show'),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    go(ladderHref(sel.value));
  });

  const ranked = d.ranked.length
    ? table('ladder-ranked', `Ranked players, ${periodName(d.period)}`, d.ranked, true)
    : h('p', { class: 'muted', id: 'ladder-none' }, `Nobody has played ${d.min_games} ladder game${d.min_games === 1 ? '' : 's'} in ${periodName(d.period)} yet.`);
  return h(
    'div',
    { id: 'ladder', 'data-period': d.period, 'data-kind': d.kind },
    h('div', { class: 'ladder-bar' }, switcher, prevNext, form),
    h(
      'p',
      { class: 'club-lead' },
      `Points in ladder games (tables made as ladder tables, registered players only), ${d.kind === 'month' ? 'this month' : 'this year'}, in UTC. `,
      `A player is ranked from ${d.min_games} game${d.min_games === 1 ? '' : 's'}; ranked by total, equal totals share a position. Abandoned games count nowhere.`,
    ),
    ranked,
    d.unranked.length
      ? h(
          'section',
          { class: 'club-section', 'aria-labelledby': 'unranked-title' },
          h('h2', { id: 'unranked-title' }, `Not ranked yet (fewer than ${d.min_games} games)`),
          table('ladder-unranked', 'Players not ranked yet', d.unranked, false),
        )
      : null,
  );
}
