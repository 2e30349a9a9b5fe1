// Every rating (/club/ratings): the registered players and the computer
// levels, each with mu and sigma, best first.

import { h } from '../dom';
import type { Ratings } from './api';
import { fixed, levelHref, playerHref, scroller } from './util';

function table(id: string, label: string, rows: { name: string; href: string; rating: number; mu: number; sigma: number; games: number }[]): HTMLElement {
  if (rows.length === 0) return h('p', { class: 'muted', id: `${id}-none` }, 'Nobody yet.');
  return scroller(
    label,
    h(
      'table',
      { class: 'club-table', id },
      h('caption', { class: 'sr-only' }, label),
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          h('th', { scope: 'col', class: 'num' }, '#'),
          h('th', { scope: 'col' }, 'Name'),
          h('th', { scope: 'col', class: 'num' }, 'Rating'),
          h('th', { scope: 'col', class: 'num' }, 'mu'),
          h('th', { scope: 'col', class: 'num' }, 'sigma'),
          h('th', { scope: 'col', class: 'num' }, 'Games'),
        ),
      ),
      h(
        'tbody',
        null,
        rows.map((r, i) =>
          h(
            'tr',
            { 'data-name': r.name, 'data-rating': r.rating },
            h('td', { class: 'num' }, String(i + 1)),
            h('th', { scope: 'row' }, h('a', { href: r.href }, r.name)),
            h('td', { class: 'num' }, fixed(r.rating)),
            h('td', { class: 'num' }, fixed(r.mu, 2)),
            h('td', { class: 'num' }, fixed(r.sigma, 2)),
            h('td', { class: 'num' }, String(r.games)),
          ),
        ),
      ),
    ),
  );
}

export function ratingsPage(d: Ratings): HTMLElement {
  return h(
    'div',
    { id: 'ratings' },
    h(
      'p',
      { class: 'club-lead' },
      'Ratings from ladder and rated games (Weng and Lin\u2019s Bayesian approximation, the Bradley-Terry model with every pair of a game compared). The rating is mu \u2212 3 sigma; the computer levels are rated in the same pool.',
    ),
    h(
      'section',
      { class: 'club-section', 'aria-labelledby': 'rp-title' },
      h('h2', { id: 'rp-title' }, 'Players'),
      table(
        'ratings-players',
        'Registered players',
        d.players.map((p) => ({ ...p, href: playerHref(p.name) })),
      ),
    ),
    h(
      'section',
      { class: 'club-section', 'aria-labelledby': 'rl-title' },
      h('h2', { id: 'rl-title' }, 'Computer levels'),
      table(
        'ratings-levels',
        'Computer levels',
        d.levels.map((l) => ({ ...l, name: l.level, href: levelHref(l.level) })),
      ),
    ),
  );
}
