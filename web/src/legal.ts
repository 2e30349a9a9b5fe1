// Reading the `legal` list the server sends to the seat to move.  The
// client never decides what is legal: it offers what the list holds and
// sends it back as it came.

import type { Action, BidAction, Card, DeclareAction, PlayAction, ViewMsg } from './protocol';

export function legalActions(v: ViewMsg | null): Action[] {
  return v?.legal ?? [];
}

/** Plays of one card. */
export function playableCards(v: ViewMsg | null): Set<Card> {
  const s = new Set<Card>();
  for (const a of legalActions(v)) if (a.type === 'play' && a.cards.length === 1) s.add(a.cards[0]);
  return s;
}

/** Plays of several cards at once (the Fife game's Patience). */
export function groupPlays(v: ViewMsg | null): PlayAction[] {
  return legalActions(v).filter((a): a is PlayAction => a.type === 'play' && a.cards.length > 1);
}

export function canPass(v: ViewMsg | null): boolean {
  return legalActions(v).some((a) => a.type === 'pass');
}

export function declareOptions(v: ViewMsg | null): DeclareAction[] {
  return legalActions(v).filter((a): a is DeclareAction => a.type === 'declare');
}

export function bidOptions(v: ViewMsg | null): BidAction[] {
  return legalActions(v).filter((a): a is BidAction => a.type === 'bid');
}

function sorted(x: readonly string[] | undefined): string {
  return x ? [...x].sort().join(',') : '';
}

export function key(a: Action): string {
  switch (a.type) {
    case 'declare':
      return `declare|${sorted(a.contracts)}|${a.trump ?? ''}|${a.rank ?? ''}`;
    case 'bid':
      return `bid|${sorted(a.double)}|${sorted(a.redouble)}`;
    case 'play':
      return `play|${sorted(a.cards)}`;
    case 'pass_on':
      return `pass_on|${sorted(a.cards)}`;
    case 'arrange':
      return `arrange|${sorted(a.back)}|${sorted(a.middle)}`;
    default:
      return a.type;
  }
}

/** The list's entry equal to `a`, if any. */
export function findLegal(v: ViewMsg | null, a: Action): Action | undefined {
  const k = key(a);
  return legalActions(v).find((x) => key(x) === k);
}
