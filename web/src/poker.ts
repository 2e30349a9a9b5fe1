// Chinese Poker's rows valued as poker hands (docs/rules.md, "Poker hands"),
// the same way the engine values them (src/engine/poker.c): for the names
// shown while the rows are built, the warning when they foul, and the
// showdown's row-by-row results.  The server still judges every
// arrangement; this only tells the player what the rows are.
//
// A value is [category, tie-breaking ranks...]; a front row of three fills
// fewer ranks, so it is the weaker of two rows equal as far as it goes
// (a front pair of kings with an ace is below a middle pair of kings with
// an ace and two more cards).

import type { Card, Rows } from './protocol';

export type RowKey = 'back' | 'middle' | 'front';
export const ROW_KEYS: RowKey[] = ['back', 'middle', 'front'];
export const ROW_SIZE: Record<RowKey, number> = { back: 5, middle: 5, front: 3 };
export const ROW_TITLE: Record<RowKey, string> = { back: 'Back', middle: 'Middle', front: 'Front' };

export const enum Cat {
  HighCard = 0,
  Pair,
  TwoPair,
  Trips,
  Straight,
  Flush,
  FullHouse,
  Quads,
  StraightFlush,
}

/** Category names, weakest first. */
export const CATEGORY_NAME = [
  'High Card',
  'Pair',
  'Two Pair',
  'Three of a Kind',
  'Straight',
  'Flush',
  'Full House',
  'Four of a Kind',
  'Straight Flush',
];

const RANK_VALUE: Record<string, number> = { A: 14, K: 13, Q: 12, J: 11, T: 10, '9': 9, '8': 8, '7': 7, '6': 6, '5': 5, '4': 4, '3': 3, '2': 2 };
const WORD = ['', '', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'jack', 'queen', 'king', 'ace'];
const PLURAL = ['', '', 'twos', 'threes', 'fours', 'fives', 'sixes', 'sevens', 'eights', 'nines', 'tens', 'jacks', 'queens', 'kings', 'aces'];

/** [category, ranks...] of a row of 3 or 5 cards (a row being built:
 * of what it holds so far, counting only pairs, trips and fours). */
export function evaluate(cards: Card[]): number[] {
  const ranks = cards.map((c) => RANK_VALUE[c.charAt(0)] ?? 0).sort((a, b) => b - a);
  const counts = new Map<number, number>();
  for (const r of ranks) counts.set(r, (counts.get(r) ?? 0) + 1);
  const groups = [...counts.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0]);
  const byGroups = groups.flatMap(([r, n]) => Array<number>(n).fill(r));
  const shape = groups.map(([, n]) => n);
  const top = shape[0] ?? 0;
  if (cards.length === 5) {
    const flush = cards.every((c) => c.charAt(1) === cards[0].charAt(1));
    let straightTop = 0;
    if (counts.size === 5) {
      if (ranks[0] - ranks[4] === 4) straightTop = ranks[0];
      else if (ranks.join() === '14,5,4,3,2') straightTop = 5;
    }
    if (straightTop && flush) return [Cat.StraightFlush, straightTop];
    if (top === 4) return [Cat.Quads, ...byGroups];
    if (top === 3 && shape[1] === 2) return [Cat.FullHouse, ...byGroups];
    if (flush) return [Cat.Flush, ...ranks];
    if (straightTop) return [Cat.Straight, straightTop];
  }
  if (top === 4) return [Cat.Quads, ...byGroups];
  if (top === 3 && shape[1] === 2) return [Cat.FullHouse, ...byGroups];
  if (top === 3) return [Cat.Trips, ...byGroups];
  if (top === 2 && shape[1] === 2) return [Cat.TwoPair, ...byGroups];
  if (top === 2) return [Cat.Pair, ...byGroups];
  return [Cat.HighCard, ...ranks];
}

/** >0 when row a beats row b, <0 when b beats a, 0 for equal rows. */
export function compareRows(a: Card[], b: Card[]): number {
  const x = evaluate(a);
  const y = evaluate(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

/** The hand's category name: "Full House". */
export function categoryName(cards: Card[]): string {
  return CATEGORY_NAME[evaluate(cards)[0]];
}

/** What the hand is, in words: "queens over fours", "ace high". */
export function handDetail(cards: Card[]): string {
  const v = evaluate(cards);
  const [cat, r1, r2] = v;
  switch (cat) {
    case Cat.HighCard:
      return `${WORD[r1]} high`;
    case Cat.Pair:
      return PLURAL[r1];
    case Cat.TwoPair:
      return `${PLURAL[r1]} and ${PLURAL[v[3]]}`;
    case Cat.Trips:
    case Cat.Quads:
      return PLURAL[r1];
    case Cat.Straight:
      return `to the ${WORD[r1]}`;
    case Cat.Flush:
      return `${WORD[r1]} high`;
    case Cat.FullHouse:
      return `${PLURAL[r1]} over ${PLURAL[v[4] ?? r2]}`;
    default:
      return r1 === 14 ? 'royal' : `to the ${WORD[r1]}`;
  }
}

/** "Full House, queens over fours". */
export function handName(cards: Card[]): string {
  if (cards.length === 0) return '';
  return `${categoryName(cards)}, ${handDetail(cards)}`;
}

/** The row that beats the one it must not ("middle" above the back, or
 * "front" above the middle), or null when the rows are in order. */
export function foulOf(rows: Rows): RowKey | null {
  if (compareRows(rows.middle, rows.back) > 0) return 'middle';
  if (compareRows(rows.front, rows.middle) > 0) return 'front';
  return null;
}

export function fouled(rows: Rows): boolean {
  return foulOf(rows) !== null;
}

/** Where a set of rows, complete or not, already fouls: compares only
 * complete rows.  The sentence says which row beats which. */
export function foulWarning(rows: Rows): string | null {
  const done = (r: RowKey): boolean => rows[r].length === ROW_SIZE[r];
  const say = (strong: RowKey, weak: RowKey): string =>
    `The ${strong} row (${handName(rows[strong])}) beats the ${weak} row (${handName(rows[weak])}): the back must be the strongest and the front the weakest, or the rows foul.`;
  if (done('back') && done('middle') && compareRows(rows.middle, rows.back) > 0) return say('middle', 'back');
  if (done('middle') && done('front') && compareRows(rows.front, rows.middle) > 0) return say('front', 'middle');
  if (done('back') && done('front') && !done('middle') && compareRows(rows.front, rows.back) > 0) return say('front', 'back');
  return null;
}

/** One row against the same row of another player: 1 won, -1 lost, 0 equal. */
export type RowOutcome = 1 | -1 | 0;

export interface Matchup {
  /** Each row's outcome for the first player, back middle front. */
  rows: RowOutcome[];
  /** Units for the first player: rows won less rows lost, with the scoop. */
  units: number;
  /** Whether either hand fouled (a fouled hand loses every row to a hand
   * that did not, which counts as a scoop; two fouled hands are even). */
  foul: boolean;
  scoop: boolean;
}

/** Rows a against rows b, as the engine scores them (barbu_rows_compare). */
export function matchup(a: Rows, b: Rows, scoop: number): Matchup {
  const fa = fouled(a);
  const fb = fouled(b);
  if (fa || fb) {
    const o: RowOutcome = fa && fb ? 0 : fa ? -1 : 1;
    return { rows: [o, o, o], units: o * (3 + scoop), foul: true, scoop: o !== 0 };
  }
  const rows = ROW_KEYS.map((r) => Math.sign(compareRows(a[r], b[r])) as RowOutcome);
  const won = rows.filter((x) => x === 1).length;
  const lost = rows.filter((x) => x === -1).length;
  return { rows, units: won - lost + (won === 3 ? scoop : 0) - (lost === 3 ? scoop : 0), foul: false, scoop: won === 3 || lost === 3 };
}
