// The archive (/club/games): games found by player, dates, rule set, status
// and ladder, 25 a page, the filters in the page's address so that a search
// can be kept or shared.  Its table of games is also the games list of a
// player's and a level's page.

import { h } from '../dom';
import type { Child } from '../dom';
import { SEAT_NAME } from '../names';
import { PRESETS, SEATS } from '../protocol';
import type { Archive, ArchiveRow, GamePlayer } from './api';
import { gameHref, ordinal, pager, pts, scroller, when, who } from './util';

/** The archive's filters, as the page's address and the JSON twin take them. */
export const FILTERS = ['player', 'from', 'to', 'rules', 'status', 'ladder'] as const;

/** The filters of a query string (unknown parameters dropped), page last. */
export function archiveQuery(q: URLSearchParams, page?: number): string {
  const out = new URLSearchParams();
  for (const k of FILTERS) {
    const v = q.get(k);
    if (v) out.set(k, v);
  }
  const p = page ?? Number(q.get('page'));
  if (Number.isInteger(p) && p > 1) out.set('page', String(p));
  const s = out.toString();
  return s ? `?${s}` : '';
}

export function gamesApi(q: URLSearchParams): string {
  return `/club/api/games${archiveQuery(q)}`;
}

export function statusTag(status: string): HTMLElement {
  return h('span', { class: `tag status-tag status-${status}` }, status);
}

/** "ladder", "rated" tags. */
export function kindTags(g: { ladder: boolean; rated: boolean }): Child[] {
  return [g.ladder ? h('span', { class: 'tag ladder-tag' }, 'ladder') : null, g.rated && !g.ladder ? h('span', { class: 'tag rated-tag' }, 'rated') : null];
}

function seatCell(players: GamePlayer[], seat: string, running: boolean): HTMLElement {
  const here = players.filter((p) => p.seat === seat);
  return h(
    'td',
    { class: 'seat-cell', 'data-seat': seat, 'data-label': SEAT_NAME[seat as keyof typeof SEAT_NAME] },
    here.length === 0
      ? '\u2014'
      : here.map((p, i) =>
          h(
            'span',
            { class: `seat-player${i > 0 ? ' is-sub' : ''}` },
            who(p),
            p.kind === 'guest' ? h('span', { class: 'guest-mark' }, ' (guest)') : null,
            // A substitute's figures only when credited with some (credit by deals).
            !running && p.points !== undefined && (i === 0 || p.points !== 0) ? [' ', pts(p.points)] : null,
            !running && p.place && i === 0 ? h('span', { class: 'place' }, ` ${ordinal(p.place)}`) : null,
          ),
        ),
  );
}

/** The games as a table: on a phone each game's row stacks into a card. */
export function gamesTable(rows: ArchiveRow[], id: string, label: string, none = 'No game matches.'): HTMLElement {
  if (rows.length === 0) return h('p', { class: 'muted', id: `${id}-none` }, none);
  return scroller(
    label,
    h(
      'table',
      { class: 'club-table games-table stack', id },
      h('caption', { class: 'sr-only' }, label),
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          h('th', { scope: 'col' }, 'Game'),
          h('th', { scope: 'col' }, 'Started (UTC)'),
          h('th', { scope: 'col' }, 'Rule set'),
          h('th', { scope: 'col' }, 'Status'),
          SEATS.map((s) => h('th', { scope: 'col' }, SEAT_NAME[s])),
        ),
      ),
      h(
        'tbody',
        null,
        rows.map((g) =>
          h(
            'tr',
            { 'data-game': g.id, 'data-status': g.status, 'data-preset': g.preset, 'data-ladder': g.ladder ? 'true' : 'false' },
            h('th', { scope: 'row', 'data-label': 'Game' }, h('a', { href: gameHref(g.id) }, `#${g.id}`)),
            h('td', { 'data-label': 'Started' }, when(g.started)),
            h('td', { 'data-label': 'Rule set' }, g.preset, ' ', kindTags(g)),
            h('td', { 'data-label': 'Status' }, statusTag(g.status)),
            SEATS.map((s) => seatCell(g.players, s, g.status === 'running')),
          ),
        ),
      ),
    ),
  );
}

/** "Games 26-50 of 112". */
export function countLine(a: Archive): string {
  if (a.total === 0) return 'No game.';
  const from = (a.page - 1) * a.per_page + 1;
  const to = Math.min(a.total, from + a.rows.length - 1);
  return `Games ${from}\u2013${to} of ${a.total}.`;
}

function input(id: string, name: string, label: string, type: string, value: string, extra: Record<string, string> = {}): HTMLElement {
  return h('div', { class: 'field' }, h('label', { for: id }, label), h('input', { id, name, type, value, ...extra }));
}

function select(id: string, name: string, label: string, options: [string, string][], value: string): HTMLElement {
  const s = h('select', { id, name }, options.map(([v, t]) => h('option', { value: v }, t)));
  s.value = options.some(([v]) => v === value) ? value : '';
  return h('div', { class: 'field' }, h('label', { for: id }, label), s);
}

export function gamesPage(d: Archive, q: URLSearchParams, go: (href: string) => void): HTMLElement {
  const form = h(
    'form',
    { id: 'games-filter', class: 'filter-form', role: 'search', 'aria-label': 'Find games' },
    input('f-player', 'player', 'Player', 'text', q.get('player') ?? '', { autocomplete: 'off', spellcheck: 'false' }),
    input('f-from', 'from', 'From (UTC)', 'date', q.get('from') ?? ''),
    input('f-to', 'to', 'To (UTC, included)', 'date', q.get('to') ?? ''),
    select('f-rules', 'rules', 'Rule set', [['', 'Any'], ...PRESETS.map((p): [string, string] => [p.key, p.key])], q.get('rules') ?? ''),
    select(
      'f-status',
      'status',
      'Status',
      [
        ['', 'Any'],
        ['over', 'Over'],
        ['abandoned', 'Abandoned'],
        ['running', 'Running'],
      ],
      q.get('status') ?? '',
    ),
    select(
      'f-ladder',
      'ladder',
      'Ladder',
      [
        ['', 'Any game'],
        ['1', 'Ladder games'],
        ['0', 'Other games'],
      ],
      q.get('ladder') ?? '',
    ),
    h(
      'div',
      { class: 'filter-buttons' },
      h('button', { type: 'submit', class: 'btn primary', id: 'f-apply' }, 'Find'),
      h('a', { class: 'btn', id: 'f-clear', href: '/club/games' }, 'Clear'),
    ),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const fd = new FormData(form);
    const next = new URLSearchParams();
    for (const k of FILTERS) {
      const v = String(fd.get(k) ?? '').trim();
      if (v) next.set(k, v);
    }
    go(`/club/games${archiveQuery(next, 1)}`);
  });
  return h(
    'div',
    { id: 'archive' },
    form,
    d.total ? h('p', { class: 'club-lead', id: 'games-count', 'aria-live': 'polite' }, countLine(d)) : null,
    gamesTable(d.rows, 'games', 'Games found', 'No game matches these filters.'),
    pager(d.page, d.pages, (k) => `/club/games${archiveQuery(q, k)}`),
  );
}
