// Pacing that lets people follow the game.  The server sends a `view` for
// every action (computer players at delay 0 send many at once); the page
// keeps the newest in `state.view` (every action is sent against it) and
// draws the table from `shown` here, which may lag behind:
//
// - A trick just completed (and the last card of a deal) stays on the table,
//   `#trick[data-finished="true"]`, for `setting('trickPause')` ms or until
//   it is clicked, then goes towards its winner (a short animation, none
//   with prefers-reduced-motion).  Views that come meanwhile wait in `queue`
//   and are shown in order afterwards (each trick they complete lingers in
//   its turn).
// - While the table lags (the queue is not empty) the hand offers nothing
//   to play: input waits, so no click acts on a view that is not the
//   newest.  When the shown view is the newest (typically: the winner of
//   the trick is to lead) the hand stays playable during the pause, and
//   playing a card ends the pause at once.
// - At the end of a deal the summary (`#deal-summary`) opens once the last
//   trick has gone, in the centre of the table, and stays until closed or
//   `setting('summaryPause')` s pass; the views that come meanwhile wait
//   as above (the summary says when it is one's turn).  The tricks of the
//   deal are kept for the review (`#deal-review`).

import type { App } from './app';
import type { Card, DealResult, Kind, Seat, Trick, ViewMsg } from './protocol';
import { SEATS, seatIndex } from './protocol';
import { setting } from './settings';
import { lastWinner, recordDeal } from './record';

/** A trick (or a layout's last card) kept on the table after it is over. */
export interface Finished {
  trick: Trick;
  winner: Seat | null;
  deal: number;
  /** The deal's last card: the deal is over with it. */
  dealEnd: boolean;
  kind: Kind;
  /** After the pause: going towards the winner. */
  going: boolean;
}

/** The deal just finished, for the summary and the review. */
export interface DealDone {
  deal: number;
  result: DealResult;
  /** Totals after the deal, N E S W. */
  totals: [number, number, number, number];
  kind: Kind;
  /** The tricks in order, each with its leader and winner (null where this
   * page did not see the trick). */
  tricks: (Trick | null)[];
  /** A layout deal: each seat's cards in the order played. */
  played: Partial<Record<Seat, Card[]>>;
  /** How the deal ended: "early" (penalties all taken), "unplayed" (an
   * undoubled negative contract) or "played". */
  ended: 'played' | 'early' | 'unplayed';
  /** The hands as dealt, from the game record once asked for (a running
   * game's record holds them for the deals completed). */
  hands?: Partial<Record<Seat, Card[]>>;
  /** The record was asked for: 'loading', 'loaded' or 'failed'. */
  record?: 'loading' | 'loaded' | 'failed';
}

const GO_MS = 350;

export class Pace {
  shown: ViewMsg | null = null;
  queue: ViewMsg[] = [];
  finished: Finished | null = null;
  /** The last trick the page saw complete (also across a deal's end and at game over). */
  lastTrick: Trick | null = null;
  done: DealDone | null = null;
  summaryOpen = false;
  reviewOpen = false;
  /** Tricks seen completing, by deal. */
  private tricks = new Map<number, (Trick | null)[]>();
  private timer: number | undefined;
  private summaryTimer: number | undefined;
  private pendingSummary = false;
  private handled = new WeakSet<ViewMsg>();

  private app: App | null = null;

  attach(app: App): void {
    this.app = app;
  }

  update(): void {
    this.app?.update();
  }

  reset(): void {
    window.clearTimeout(this.timer);
    window.clearTimeout(this.summaryTimer);
    this.shown = null;
    this.queue = [];
    this.finished = null;
    this.lastTrick = null;
    this.done = null;
    this.summaryOpen = false;
    this.reviewOpen = false;
    this.pendingSummary = false;
    this.tricks.clear();
  }

  /** Whether the table shows an older view than the newest. */
  lagging(): boolean {
    return this.queue.length > 0 || (this.shown !== null && this.shown !== this.app?.state.view);
  }

  /** A new view from the server (already in state.view). */
  push(msg: ViewMsg): void {
    if (!this.shown || this.shown.table !== msg.table) {
      this.reset();
      this.shown = msg;
      this.seeTrick(null, msg);
      return;
    }
    if (this.finished || this.queue.length > 0 || this.summaryOpen) {
      this.queue.push(msg);
      return;
    }
    this.show(msg);
  }

  /** Ends the pause now (a click on the finished trick, or one's own move). */
  skip(): void {
    if (!this.finished && this.queue.length === 0) return;
    window.clearTimeout(this.timer);
    this.finished = null;
    // Skipping shows everything that is waiting, at once.
    while (this.queue.length > 0) {
      const m = this.queue.shift() as ViewMsg;
      this.show(m, true);
    }
    this.finished = null;
    this.afterPause();
    this.update();
  }

  /** Opens the review of the deal just finished.  The tricks this page did
   * not see (it was opened mid-deal, or reloaded since) and the hands as
   * dealt come from the game record. */
  openReview(): void {
    const app = this.app;
    const v = app?.state.view?.view;
    const table = app?.state.table;
    if (!app || !table) return;
    if (!this.done && v?.last_deal) {
      const ld = v.last_deal;
      this.done = {
        deal: ld.deal,
        result: ld,
        totals: v.totals,
        kind: ld.order ? 'domino' : 'tricks',
        tricks: [],
        played: {},
        ended: !ld.played ? 'unplayed' : (ld.tricks_left ?? 0) > 0 ? 'early' : 'played',
      };
    }
    const d = this.done;
    if (!d) return;
    this.reviewOpen = true;
    if (this.summaryOpen) this.closeSummary();
    if (!d.record) {
      d.record = 'loading';
      void app.request({ type: 'record', table: table.id }, true).then((r) => {
        if (r.type !== 'record') {
          d.record = 'failed';
          this.update();
          return;
        }
        const rd = recordDeal(r.text, d.deal);
        if (!rd) {
          d.record = 'failed';
          this.update();
          return;
        }
        d.hands = rd.hands;
        const trickKind = !d.result.order && d.kind !== 'chinese';
        if (trickKind && rd.tricks.length > 0 && (d.tricks.length === 0 || d.tricks.some((t) => !t))) {
          const lw = lastWinner(rd.tricks, d.result.tricks);
          if (lw) rd.tricks[rd.tricks.length - 1].winner = lw;
          d.tricks = rd.tricks.map((t, k) => d.tricks[k] ?? t);
        }
        d.record = 'loaded';
        this.update();
      });
    }
    this.update();
  }

  closeSummary(): void {
    window.clearTimeout(this.summaryTimer);
    if (!this.summaryOpen) return;
    this.summaryOpen = false;
    this.next();
  }

  private show(msg: ViewMsg, quick = false): void {
    const prev = this.shown;
    this.shown = msg;
    // The deal's first view waited behind its last trick: seen already.
    if (this.handled.has(msg)) {
      if (!this.finished) this.afterPause();
      return;
    }
    this.handled.add(msg);
    const f = this.seeTrick(prev, msg);
    const pause = setting('trickPause');
    if (f && pause > 0 && !quick) {
      this.finished = f;
      if (f.dealEnd && prev) {
        // The deal's last view, without the last card in hand: the table
        // stays on the deal just finished while its last trick is seen.
        this.shown = lastOf(prev, msg);
        this.queue.unshift(msg);
      }
      this.startPause(pause);
    } else if (!this.finished) {
      this.afterPause();
    }
  }

  private startPause(ms: number): void {
    window.clearTimeout(this.timer);
    this.timer = window.setTimeout(() => {
      if (!this.finished) return;
      this.finished.going = true;
      this.update();
      const reduce = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
      this.timer = window.setTimeout(() => this.next(), reduce ? 0 : GO_MS);
    }, ms);
  }

  /** The pause is over: the views that waited, in order. */
  private next(): void {
    this.finished = null;
    while (this.queue.length > 0 && !this.finished && !this.summaryOpen) {
      const m = this.queue.shift() as ViewMsg;
      this.show(m);
    }
    if (!this.finished) this.afterPause();
    this.update();
  }

  private afterPause(): void {
    if (!this.pendingSummary) return;
    this.pendingSummary = false;
    this.summaryOpen = true;
    this.reviewOpen = false;
    window.clearTimeout(this.summaryTimer);
    const s = setting('summaryPause');
    if (s > 0) this.summaryTimer = window.setTimeout(() => this.closeSummary(), s * 1000);
  }

  /** Notes a trick completed between prev and msg; returns it when it should linger. */
  private seeTrick(prev: ViewMsg | null, msg: ViewMsg): Finished | null {
    const v = msg.view;
    const list = this.tricks.get(v.deal) ?? [];
    this.tricks.set(v.deal, list);
    if (v.last_trick && v.winners.length > 0) {
      list[v.winners.length - 1] = v.last_trick;
      this.lastTrick = v.last_trick;
    }
    if (!prev) return null;
    const p = prev.view;
    const last = msg.last;
    // Within a deal: a view that completes a trick.
    if (v.deal === p.deal && v.phase === 'play' && v.winners.length > p.winners.length && v.last_trick && last?.type === 'play') {
      return { trick: v.last_trick, winner: v.last_trick.winner ?? null, deal: v.deal, dealEnd: false, kind: v.kind, going: false };
    }
    // The deal is over: the next deal's first view, or the game's end.
    const ended = v.deal !== p.deal || (v.phase === 'over' && p.phase !== 'over');
    if (!ended || !v.last_deal) return null;
    const ld = v.last_deal;
    const kind = p.kind;
    let fin: Finished | null = null;
    const dl = this.tricks.get(p.deal) ?? [];
    // Only when this view follows the last one (not after a reconnection
    // that missed actions): the last card then ends the trick in view.
    if (p.phase === 'play' && last?.type === 'play' && last.cards.length > 0 && msg.at === prev.at + 1) {
      if (kind === 'tricks' || kind === 'trumps') {
        const cards = [...p.trick.cards, ...last.cards];
        let winner: Seat | null = null;
        if (ld.tricks) for (const s of SEATS) if (ld.tricks[seatIndex(s)] > p.tricks[seatIndex(s)]) winner = s;
        const t: Trick = { leader: p.trick.cards.length > 0 ? p.trick.leader : last.seat, cards, top: -1, winner: winner ?? undefined };
        dl[p.winners.length] = t;
        this.lastTrick = t;
        fin = { trick: t, winner, deal: p.deal, dealEnd: true, kind, going: false };
      } else {
        // A layout's last card(s): shown as they went down.
        const t: Trick = { leader: last.seat, cards: last.cards, top: -1 };
        fin = { trick: t, winner: null, deal: p.deal, dealEnd: true, kind, going: false };
      }
    }
    // The tricks this page did not see complete: from the cards each seat played.
    const played = p.played ?? {};
    for (let k = 0; k < p.winners.length; k++) {
      if (dl[k]) continue;
      const leader = k > 0 ? p.winners[k - 1] : null;
      if (!leader) continue;
      const cards: Card[] = [];
      for (let i = 0; i < 4; i++) {
        const s = SEATS[(seatIndex(leader) + i) % 4];
        const c = played[s]?.[k];
        if (c) cards.push(c);
      }
      if (cards.length === 4) dl[k] = { leader, cards, top: -1, winner: p.winners[k] };
    }
    const lastPlayed: Partial<Record<Seat, Card[]>> = {};
    for (const s of SEATS) {
      const c = [...(played[s] ?? [])];
      if (last?.type === 'play' && last.seat === s && p.phase === 'play') c.push(...last.cards);
      lastPlayed[s] = c;
    }
    this.done = {
      deal: ld.deal,
      result: ld,
      totals: v.totals,
      kind: p.kind,
      tricks: kind === 'tricks' || kind === 'trumps' ? Array.from({ length: dl.length }, (_, i) => dl[i] ?? null) : [],
      played: lastPlayed,
      ended: !ld.played ? 'unplayed' : (ld.tricks_left ?? 0) > 0 ? 'early' : 'played',
    };
    this.tricks.delete(p.deal);
    this.pendingSummary = true;
    return fin;
  }
}

/** The deal's last view as it was once its last card was down. */
function lastOf(prev: ViewMsg, next: ViewMsg): ViewMsg {
  const last = next.last;
  const v = { ...prev.view, hands: { ...prev.view.hands }, in_hand: [...prev.view.in_hand] as typeof prev.view.in_hand };
  if (last?.type === 'play') {
    const s = last.seat;
    const gone = new Set(last.cards);
    const hand = v.hands[s];
    if (hand) v.hands[s] = hand.filter((c) => !gone.has(c));
    v.in_hand[seatIndex(s)] = Math.max(0, v.in_hand[seatIndex(s)] - last.cards.length);
  }
  v.to_move = undefined;
  return { ...prev, view: v, legal: undefined, last: next.last };
}

/** The page's one pacing state. */
export const pace = new Pace();
