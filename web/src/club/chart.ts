// The rating history as a line chart: SVG drawn here at the width of its
// box (redrawn when the box changes size, so its text stays readable on a
// phone), the conservative rating (mu - 3 sigma) as a line with a point per
// rated game and mu as a dashed line, both axes labelled.  Its text
// alternative: a title and a description on the picture, and the same
// figures as a table below it.

import { h, svg } from '../dom';
import type { HistoryPoint } from './api';
import { day, fixed, gameHref, scroller } from './util';

const HEIGHT = 240;
const PAD = { left: 52, right: 14, top: 16, bottom: 46 };

/** Round steps for an axis: about `want` ticks between lo and hi. */
function ticks(lo: number, hi: number, want: number): number[] {
  const span = hi - lo || 1;
  const raw = span / want;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const out: number[] = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) out.push(Number(v.toFixed(6)));
  return out;
}

function draw(box: HTMLElement, hist: HistoryPoint[], name: string): void {
  const width = Math.max(280, Math.min(900, Math.floor(box.clientWidth || 600)));
  const n = hist.length;
  const values = hist.flatMap((p) => [p.rating, p.mu]);
  let lo = Math.min(...values, 0);
  let hi = Math.max(...values, 25);
  const margin = (hi - lo) * 0.05 || 1;
  lo -= margin;
  hi += margin;
  const iw = width - PAD.left - PAD.right;
  const ih = HEIGHT - PAD.top - PAD.bottom;
  const x = (i: number): number => PAD.left + (n === 1 ? iw / 2 : (i * iw) / (n - 1));
  const y = (v: number): number => PAD.top + ih - ((v - lo) * ih) / (hi - lo);
  const path = (f: (p: HistoryPoint) => number): string => hist.map((p, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)},${y(f(p)).toFixed(1)}`).join(' ');

  const yt = ticks(lo, hi, 5);
  const xt = n <= 1 ? [0] : ticks(0, n - 1, Math.min(6, n - 1)).filter((v) => Number.isInteger(v));
  const first = hist[0];
  const last = hist[n - 1];
  const desc = `The rating after each of ${n} rated game${n === 1 ? '' : 's'}, from ${day(first.at)} to ${day(last.at)}: it went from ${fixed(first.rating)} to ${fixed(last.rating)} (lowest ${fixed(Math.min(...hist.map((p) => p.rating)))}, highest ${fixed(Math.max(...hist.map((p) => p.rating)))}); mu from ${fixed(first.mu)} to ${fixed(last.mu)}.`;

  const pic = svg(
    'svg',
    {
      id: 'rating-chart',
      class: 'rating-chart',
      role: 'img',
      width,
      height: HEIGHT,
      viewBox: `0 0 ${width} ${HEIGHT}`,
      'aria-labelledby': 'rating-chart-title rating-chart-desc',
      'data-points': n,
    },
    svg('title', { id: 'rating-chart-title' }, `${name}: the rating game by game`),
    svg('desc', { id: 'rating-chart-desc' }, desc),
    // The grid and the y axis's figures.
    yt.map((v) => [
      svg('line', { class: 'chart-grid', x1: PAD.left, x2: width - PAD.right, y1: y(v), y2: y(v) }),
      svg('text', { class: 'chart-tick', x: PAD.left - 6, y: y(v) + 4, 'text-anchor': 'end' }, String(v)),
    ]),
    // The x axis: the games, in order.
    svg('line', { class: 'chart-axis', x1: PAD.left, x2: width - PAD.right, y1: PAD.top + ih, y2: PAD.top + ih }),
    svg('line', { class: 'chart-axis', x1: PAD.left, x2: PAD.left, y1: PAD.top, y2: PAD.top + ih }),
    xt.map((i) => svg('text', { class: 'chart-tick', x: x(i), y: PAD.top + ih + 16, 'text-anchor': 'middle' }, String(i + 1))),
    svg('text', { class: 'chart-label', x: PAD.left + iw / 2, y: HEIGHT - 8, 'text-anchor': 'middle' }, 'Rated games, in order'),
    svg(
      'text',
      { class: 'chart-label', x: 0, y: 0, transform: `translate(14 ${PAD.top + ih / 2}) rotate(-90)`, 'text-anchor': 'middle' },
      'Rating',
    ),
    svg('path', { class: 'chart-mu', d: path((p) => p.mu) }),
    svg('path', { class: 'chart-line', d: path((p) => p.rating) }),
    hist.map((p, i) =>
      svg(
        'circle',
        { class: 'chart-point', cx: x(i), cy: y(p.rating), r: 4, 'data-game': p.game },
        svg('title', null, `Game ${p.game} on ${day(p.at)}: rating ${fixed(p.rating)} (mu ${fixed(p.mu)}, sigma ${fixed(p.sigma)})`),
      ),
    ),
  );
  box.replaceChildren(pic);
}

/** The chart, its legend and its table; empty history: a sentence. */
export function ratingChart(hist: HistoryPoint[], name: string): HTMLElement {
  if (hist.length === 0) {
    return h('p', { class: 'muted', id: 'rating-chart-none' }, 'No rated game yet: the rating is the starting one, and the chart begins with the first rated game.');
  }
  const box = h('div', { class: 'chart-box' });
  // Drawn once the box is in the page (its width known), and again when it changes.
  let drawnAt = -1;
  const redraw = (): void => {
    const w = box.clientWidth;
    if (w === drawnAt) return;
    drawnAt = w;
    draw(box, hist, name);
  };
  draw(box, hist, name);
  if (typeof ResizeObserver !== 'undefined') new ResizeObserver(redraw).observe(box);
  const rows = hist.map((p, i) =>
    h(
      'tr',
      null,
      h('td', { class: 'num' }, String(i + 1)),
      h('td', null, h('a', { href: gameHref(p.game) }, `#${p.game}`)),
      h('td', null, day(p.at)),
      h('td', { class: 'num' }, fixed(p.rating)),
      h('td', { class: 'num' }, fixed(p.mu)),
      h('td', { class: 'num' }, fixed(p.sigma)),
    ),
  );
  return h(
    'figure',
    { class: 'chart' },
    box,
    h(
      'figcaption',
      { class: 'chart-legend' },
      h('span', { class: 'key key-line', 'aria-hidden': 'true' }),
      ' rating (mu \u2212 3 sigma), a point per rated game ',
      h('span', { class: 'key key-mu', 'aria-hidden': 'true' }),
      ' mu',
    ),
    h(
      'details',
      { class: 'chart-table' },
      h('summary', null, 'The history as a table'),
      scroller(
        'Rating history',
        h(
          'table',
          { class: 'club-table', id: 'rating-history' },
          h('thead', null, h('tr', null, ['#', 'Game', 'Date', 'Rating', 'mu', 'sigma'].map((t) => h('th', { scope: 'col' }, t)))),
          h('tbody', null, rows),
        ),
      ),
    ),
  );
}
