// A small poker evaluator for Chinese Poker rows (docs/rules.md "Poker
// hands"): the test builds a right arrangement and a fouled one with it.
// Rows compare category first, then the tie-breaking ranks in order; a row
// whose ranks are a prefix of the other's (a front row of three against a
// middle row of five) is the weaker.

const RANK = { A: 14, K: 13, Q: 12, J: 11, T: 10, 9: 9, 8: 8, 7: 7, 6: 6, 5: 5, 4: 4, 3: 3, 2: 2 };
export const CATEGORY = ['high card', 'pair', 'two pair', 'three of a kind', 'straight', 'flush', 'full house', 'four of a kind', 'straight flush'];

/** [category, ranks...] of a row of 3 or 5 cards. */
export function evaluate(cards) {
  const ranks = cards.map((c) => RANK[c[0]]).sort((a, b) => b - a);
  const counts = new Map();
  for (const r of ranks) counts.set(r, (counts.get(r) ?? 0) + 1);
  // Groups: by count, then by rank, highest first.
  const groups = [...counts.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0]);
  const byGroups = groups.flatMap(([r, n]) => Array(n).fill(r));
  const shape = groups.map(([, n]) => n).join('');
  if (cards.length === 3) {
    if (shape === '3') return [3, ...byGroups];
    if (shape === '21') return [1, ...byGroups];
    return [0, ...ranks];
  }
  const flush = cards.every((c) => c[1] === cards[0][1]);
  let straightTop = 0;
  if (counts.size === 5) {
    if (ranks[0] - ranks[4] === 4) straightTop = ranks[0];
    else if (ranks.join() === '14,5,4,3,2') straightTop = 5;
  }
  if (straightTop && flush) return [8, straightTop];
  if (shape === '41') return [7, ...byGroups];
  if (shape === '32') return [6, ...byGroups];
  if (flush) return [5, ...ranks];
  if (straightTop) return [4, straightTop];
  if (shape === '311') return [3, ...byGroups];
  if (shape === '221') return [2, ...byGroups];
  if (shape === '2111') return [1, ...byGroups];
  return [0, ...ranks];
}

/** >0 when a beats b, <0 when b beats a, 0 for equal rows. */
export function compare(a, b) {
  const x = evaluate(a);
  const y = evaluate(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

export function describe(cards) {
  return `${CATEGORY[evaluate(cards)[0]]} (${cards.join(' ')})`;
}

function* combinations(list, k, start = 0, acc = []) {
  if (acc.length === k) {
    yield [...acc];
    return;
  }
  for (let i = start; i <= list.length - (k - acc.length); i++) {
    acc.push(list[i]);
    yield* combinations(list, k, i + 1, acc);
    acc.pop();
  }
}

function best5(cards) {
  let best = null;
  for (const c of combinations(cards, 5)) if (!best || compare(c, best) > 0) best = c;
  return best;
}

const without = (cards, out) => cards.filter((c) => !out.includes(c));

/** A right arrangement: the best five at the back, the best five of the
 * rest in the middle, the last three in front (always in order). */
export function rightRows(hand) {
  const back = best5(hand);
  const rest = without(hand, back);
  const middle = best5(rest);
  const front = without(rest, middle);
  return { back, middle, front };
}

export function fouled({ back, middle, front }) {
  return compare(back, middle) < 0 || compare(middle, front) < 0;
}

/** A fouled arrangement: the right one with the back and middle swapped
 * (when the back is stronger), else the front swapped into the middle,
 * else a search. */
export function wrongRows(hand) {
  const r = rightRows(hand);
  const tries = [
    { back: r.middle, middle: r.back, front: r.front },
    { back: r.back, middle: [...r.front, ...r.middle.slice(3)], front: r.middle.slice(0, 3) },
  ];
  for (const t of tries) if (fouled(t)) return t;
  const cards = [...hand];
  for (let i = 0; i < 5000; i++) {
    for (let j = cards.length - 1; j > 0; j--) {
      const k = (i * 7919 + j * 104729) % (j + 1);
      [cards[j], cards[k]] = [cards[k], cards[j]];
    }
    const t = { back: cards.slice(0, 5), middle: cards.slice(5, 10), front: cards.slice(10) };
    if (fouled(t)) return t;
  }
  return null;
}
