// Words for what the protocol names with codes: cards, seats, contracts.

import type { Card, ContractInfo, Seat, Suit, TableRules } from './protocol';
import { SEATS } from './protocol';

export const SUIT_SYMBOL: Record<Suit, string> = { S: '\u2660', H: '\u2665', D: '\u2666', C: '\u2663' };
export const SUIT_NAME: Record<Suit, string> = { S: 'spades', H: 'hearts', D: 'diamonds', C: 'clubs' };
export const RED: Record<Suit, boolean> = { S: false, H: true, D: true, C: false };

/** Ranks high to low. */
export const RANKS = 'AKQJT98765432';
export const RANK_NAME: Record<string, string> = {
  A: 'Ace',
  K: 'King',
  Q: 'Queen',
  J: 'Jack',
  T: 'Ten',
  '9': 'Nine',
  '8': 'Eight',
  '7': 'Seven',
  '6': 'Six',
  '5': 'Five',
  '4': 'Four',
  '3': 'Three',
  '2': 'Two',
};
/** The index shown in a card's corner. */
export const RANK_INDEX: Record<string, string> = { T: '10' };

export const SEAT_NAME: Record<Seat, string> = { N: 'North', E: 'East', S: 'South', W: 'West' };

export function isSuit(c: string): c is Suit {
  return c === 'S' || c === 'H' || c === 'D' || c === 'C';
}

export function cardRank(c: Card): string {
  return c.charAt(0);
}
export function cardSuit(c: Card): Suit | null {
  const s = c.charAt(1);
  return c.length === 2 && isSuit(s) ? s : null;
}

/** "Queen of spades"; the Fife cuts "Joker" and "Bridge card". */
export function cardLabel(c: Card): string {
  if (c === 'Joker') return 'Joker';
  if (c === 'Bridge') return 'Bridge card';
  const s = cardSuit(c);
  const r = RANK_NAME[cardRank(c)];
  return s && r ? `${r} of ${SUIT_NAME[s]}` : c;
}

/** "Q♠", "10♥". */
export function cardShort(c: Card): string {
  const s = cardSuit(c);
  if (!s) return c;
  const r = cardRank(c);
  return (RANK_INDEX[r] ?? r) + SUIT_SYMBOL[s];
}

/** A hand sorted for a person: suits alternating in colour (♠ ♥ ♣ ♦), each high to low. */
export function sortHand(cards: readonly Card[]): Card[] {
  const order: Record<string, number> = { S: 0, H: 1, C: 2, D: 3 };
  return [...cards].sort((a, b) => {
    const ds = (order[a.charAt(1)] ?? 9) - (order[b.charAt(1)] ?? 9);
    return ds !== 0 ? ds : RANKS.indexOf(a.charAt(0)) - RANKS.indexOf(b.charAt(0));
  });
}

/** Where a seat sits on the screen when `bottom` is at the bottom. */
export type Place = 'bottom' | 'left' | 'top' | 'right';
export function placeOf(seat: Seat, bottom: Seat): Place {
  const d = (SEATS.indexOf(seat) - SEATS.indexOf(bottom) + 4) % 4;
  return (['bottom', 'left', 'top', 'right'] as const)[d];
}

// The contracts' names, for when the table message has no rule set.
const KNOWN: Record<string, string> = {
  'no-tricks': 'No Tricks',
  'no-hearts': 'No Hearts',
  'no-queens': 'No Queens',
  'no-king': 'No King',
  'no-last-two': 'No Last Two',
  trumps: 'Trumps',
  domino: 'Domino',
  ravage: 'Ravage City',
  chinese: 'Chinese Poker',
  'no-girls': 'No Girls',
  'no-boys': 'No Boys',
  'no-7th-last': 'No 7th and Last',
  aces: 'Aces',
  'king-hearts': 'King of Hearts',
  queens: 'Queens',
  hearts: 'Hearts',
  tricks: 'Tricks',
  'patience-1': 'Patience 1',
  'patience-2': 'Patience 2',
};

export function contractInfo(key: string, rules: TableRules | undefined): ContractInfo | undefined {
  return rules?.contracts.find((c) => c.key === key);
}

export function contractName(key: string, rules?: TableRules): string {
  return contractInfo(key, rules)?.name ?? KNOWN[key] ?? key;
}

/** "No Hearts", "Trumps (♥)", "Domino from 7", "Aces + Queens". */
export function dealTitle(
  contracts: readonly string[],
  rules: TableRules | undefined,
  trump?: Suit,
  rank?: string,
): string {
  if (contracts.length === 0) return 'not declared yet';
  let t = contracts.map((k) => contractName(k, rules)).join(' + ');
  if (trump) t += ` (${SUIT_SYMBOL[trump]} ${SUIT_NAME[trump]})`;
  if (rank) t += ` from ${RANK_NAME[rank] ?? rank}s`;
  return t;
}

/** "+25", "−10", "0". */
export function points(n: number): string {
  return n > 0 ? `+${n}` : n < 0 ? `\u2212${-n}` : '0';
}

/** A seat in a sentence: "you" for one's own seat ("You" at the start of a
 * sentence), else the seat's name ("East"). */
export function seatRef(seat: Seat, me: Seat | null | undefined, start = false): string {
  if (seat !== me) return SEAT_NAME[seat];
  return start ? 'You' : 'you';
}
