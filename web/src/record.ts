// Reading one deal of a game record (docs/record-format.md) for the review
// of the deal just finished: the hands as dealt (`[Hands]`, in a running
// game's record only for the deals completed) and the tricks (`[Play]`, a
// line a trick, "N: QH TH 8H 3H").  Nothing here decides a rule: a trick's
// winner is the next trick's leader, the last one's comes from the
// server's tricks count.

import type { Card, Seat, Trick } from './protocol';
import { SEATS, seatIndex } from './protocol';

export interface RecordDeal {
  hands: Partial<Record<Seat, Card[]>>;
  /** Trick contracts only: the tricks in order (the last without a winner). */
  tricks: Trick[];
}

const SUITS = ['S', 'H', 'D', 'C'];

function parseHands(v: string): Partial<Record<Seat, Card[]>> {
  const out: Partial<Record<Seat, Card[]>> = {};
  const m = /^([NESW]):(.*)$/.exec(v.trim());
  if (!m) return out;
  const first = m[1] as Seat;
  m[2]
    .trim()
    .split(/\s+/)
    .forEach((hand, i) => {
      const seat = SEATS[(seatIndex(first) + i) % 4];
      const cards: Card[] = [];
      hand.split('.').forEach((ranks, k) => {
        if (ranks === '-' || k > 3) return;
        for (const r of ranks) cards.push(`${r}${SUITS[k]}`);
      });
      out[seat] = cards;
    });
  return out;
}

/** Deal number `deal` (from 0) of a record's text, or null if it is not there. */
export function recordDeal(text: string, deal: number): RecordDeal | null {
  const lines = text.split(/\r?\n/);
  let inDeal = false;
  let section = '';
  let found = false;
  const rd: RecordDeal = { hands: {}, tricks: [] };
  for (const raw of lines) {
    const line = raw.trim();
    if (line.startsWith('%') || line === '') continue;
    const tag = /^\[(\w+)(?:\s+"([^"]*)")?\]$/.exec(line);
    if (tag) {
      if (tag[1] === 'Deal') {
        if (inDeal) break;
        inDeal = Number(tag[2]) === deal + 1;
        found ||= inDeal;
        section = '';
        continue;
      }
      if (!inDeal) continue;
      if (tag[2] === undefined) section = tag[1];
      else {
        section = '';
        if (tag[1] === 'Hands') rd.hands = parseHands(tag[2]);
      }
      continue;
    }
    if (!inDeal || section !== 'Play') continue;
    const m = /^([NESW]):\s*(.*)$/.exec(line);
    if (!m) continue;
    const cards = m[2].split(/\s+/).filter((c) => /^[2-9TJQKA][SHDC]$/.test(c));
    rd.tricks.push({ leader: m[1] as Seat, cards, top: -1 });
  }
  if (!found) return null;
  // Winners: the next trick's leader; the last from the tricks each took.
  for (let k = 0; k + 1 < rd.tricks.length; k++) rd.tricks[k].winner = rd.tricks[k + 1].leader;
  return rd;
}

/** The last trick's winner: the seat whose count of tricks won is one short. */
export function lastWinner(tricks: Trick[], taken: readonly number[] | undefined): Seat | undefined {
  if (!taken || tricks.length === 0) return undefined;
  const n = [0, 0, 0, 0];
  for (const t of tricks.slice(0, -1)) if (t.winner) n[seatIndex(t.winner)]++;
  const s = SEATS.find((x) => taken[seatIndex(x)] === n[seatIndex(x)] + 1);
  return s;
}
