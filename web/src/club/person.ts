// A player's page (/club/player/NAME) and a computer level's
// (/club/level/LEVEL): the rating with mu and sigma, "plays like", the
// rating's history as a chart, the results, and the games, 25 a page.

import { h } from '../dom';
import type { Person } from './api';
import { ratingChart } from './chart';
import { countLine, gamesTable } from './games';
import { average, day, fixed, levelHref, ordinal, pager, periodName, pts } from './util';
import { ladderHref } from './ladder';

export function personApi(kind: 'player' | 'level', name: string, page: number): string {
  return `/club/api/${kind}/${encodeURIComponent(name)}${page > 1 ? `?page=${page}` : ''}`;
}

export function personTitle(d: Person): string {
  return d.level ? `Computer level ${d.level}` : d.name;
}

function fact(term: string, ...value: (Node | string)[]): HTMLElement[] {
  return [h('dt', null, term), h('dd', null, ...value)];
}

export function personPage(d: Person, selfHref: (page: number) => string): HTMLElement {
  const r = d.rating;
  const res = d.results;
  const level = d.level;
  const playsLike = level
    ? null
    : h(
        'p',
        { id: 'plays-like', 'data-level': d.plays_like ?? '' },
        d.plays_like
          ? ['Plays like ', h('a', { href: levelHref(d.plays_like) }, d.plays_like), ' (the computer level whose mu is nearest).']
          : 'Plays like: not known yet (no computer level has played a rated game).',
      );
  const ratingBox = h(
    'section',
    { class: 'club-section rating-box', 'aria-labelledby': 'rating-title' },
    h('h2', { id: 'rating-title' }, 'Rating'),
    h(
      'p',
      { id: 'rating', 'data-rating': r.rating, 'data-mu': r.mu, 'data-sigma': r.sigma, 'data-games': r.games },
      h('span', { class: 'rating-big' }, fixed(r.rating)),
      h('span', { class: 'rating-parts' }, `mu ${fixed(r.mu, 2)}, sigma ${fixed(r.sigma, 2)} \u00b7 ${r.games} rated game${r.games === 1 ? '' : 's'}`),
    ),
    h('p', { class: 'muted small' }, 'The rating is mu \u2212 3 sigma: the skill the club is fairly sure of. It starts at 0 (mu 25, sigma 8.33) and moves after every rated or ladder game that ends.'),
    playsLike,
  );
  const places = [1, 2, 3, 4].map((k) => `${ordinal(k)} \u00d7${res.best_place_count?.[String(k)] ?? 0}`).join(', ');
  const ladderLine = (what: string, l: NonNullable<NonNullable<Person['results']['ladder']>['month']>): HTMLElement[] =>
    fact(
      what,
      h('a', { href: ladderHref(l.period) }, periodName(l.period)),
      `: ${l.position ? `position ${l.position}` : 'not ranked yet'}, ${l.games} game${l.games === 1 ? '' : 's'}, total `,
      pts(l.total),
      `, average ${average(l.average)}`,
    );
  const results = h(
    'section',
    { class: 'club-section', 'aria-labelledby': 'results-title' },
    h('h2', { id: 'results-title' }, 'Results'),
    h(
      'dl',
      { class: 'facts', id: 'results', 'data-games': res.games, 'data-total': res.total },
      fact('Games', `${res.games} (${res.over} over, ${res.abandoned} abandoned)`),
      fact('Points', pts(res.total), `, ${average(res.average)} a game`),
      fact('Places', places),
      res.ladder?.month ? ladderLine('Ladder, this month', res.ladder.month) : [],
      res.ladder?.year ? ladderLine('Ladder, this year', res.ladder.year) : [],
    ),
  );
  const games = h(
    'section',
    { class: 'club-section', 'aria-labelledby': 'games-title' },
    h('h2', { id: 'games-title' }, 'Games'),
    d.games.total ? h('p', { class: 'club-lead', id: 'games-count' }, countLine(d.games)) : null,
    gamesTable(d.games.rows, 'player-games', `${personTitle(d)}: games`, 'No game yet.'),
    pager(d.games.page, d.games.pages, selfHref),
  );
  return h(
    'div',
    { id: level ? 'level' : 'player', 'data-name': d.name, 'data-level': level ?? null },
    h(
      'p',
      { class: 'club-lead' },
      level ? `The computer players of level ${level}, rated together as one player.` : d.since ? `Registered since ${day(d.since)}.` : 'A registered player.',
    ),
    ratingBox,
    h(
      'section',
      { class: 'club-section', 'aria-labelledby': 'history-title' },
      h('h2', { id: 'history-title' }, 'Rating history'),
      ratingChart(d.history, personTitle(d)),
      (d.history_total ?? 0) > d.history.length
        ? h('p', { id: 'history-newest' }, `The newest ${d.history.length} of ${d.history_total} rated games.`)
        : null,
    ),
    results,
    games,
  );
}
