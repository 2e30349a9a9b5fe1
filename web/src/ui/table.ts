// The table: a bar with the deal, the contract and whose turn it is; the
// seats around the felt (the bottom seat is one's own, or the one watched);
// the centre (the trick, the layout, the rows, or the chooser and the
// doubling panel); the hand; the Fife game's panel, the schedule and the
// last deal beside it (below it on a phone).  Everything is drawn afresh
// from the state on every change; `rerender` keeps the keyboard focus.

import type { App } from '../app';
import { bottomSeat, mySeat } from '../app';
import { h, rerender } from '../dom';
import type { Card, DealResult, Seat, TableMsg, TableRules, View, ViewMsg } from '../protocol';
import { SEATS, seatIndex } from '../protocol';
import { SEAT_NAME, SUIT_SYMBOL, cardLabel, cardShort, cardSuit, dealTitle, placeOf, points, seatRef, sortHand } from '../names';
import { renderBid } from './bid';
import { renderDeclare } from './declare';
import { renderFife } from './fife';
import { openScore } from './score';
import { renderSchedule } from './schedule';
import { cardBack, cardFace } from './cards';
import { renderHand, tapNote } from './hand';
import { renderLastTrick, renderTrick } from './trick';
import { ordinal, renderLayout, renderLayoutActions } from './layout';
import { pace } from '../pace';
import { barDoubles, renderDoublesBox, renderFinished, renderReview, renderSummary } from './pacing';
import { rulesLink } from './rules';
import { lastTrickOf } from './trick';
import { renderArrange, renderShowdown, renderShowdownDialog, showdownButton } from './chinese';
import { renderAgain, renderWaitingInvite } from './again';
import { barClock, clockWords, seatClock } from './clock';
import { leaveTable } from './leave';
import { absenceText, seatAbsence } from './seatnews';
import { guestMark } from '../account';
import { reportNameButton, reportTableButton } from '../report';
import { ladderBanner, renderFair } from './fair';
import { hintButton, hintNote } from './hint';

/** What every part of the table is drawn from. */
export interface Ctx {
  app: App;
  t: TableMsg;
  vm: ViewMsg | null;
  v: View | null;
  /** One's own seat; null for a kibitzer. */
  me: Seat | null;
  /** The seat at the bottom of the screen. */
  bottom: Seat;
  kibitz: boolean;
  rules: TableRules | undefined;
  fife: boolean;
}

// When each table message was first seen, so an away time can grow between messages.
const seenAt = new WeakMap<TableMsg, number>();

function duration(sec: number): string {
  const s = Math.max(0, Math.floor(sec));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

function awayFor(ctx: Ctx, seat: Seat): number | undefined {
  const a = ctx.t.seats[seatIndex(seat)].away;
  if (a === undefined) return undefined;
  return a + (Date.now() - (seenAt.get(ctx.t) ?? Date.now())) / 1000;
}

/** A seat as a label or at the start of a sentence: "You", "East". */
function seatWord(ctx: Ctx, s: Seat): string {
  return seatRef(s, ctx.me, true);
}

/** A seat in the middle of a phrase: "you", "East". */
function seatObj(ctx: Ctx, s: Seat): string {
  return seatRef(s, ctx.me);
}

/** Someone watching a table where they play or played (their finished
 * game, say): this is their own seat. */
function watchingOwn(ctx: Ctx, s: Seat): boolean {
  const info = ctx.t.seats[seatIndex(s)];
  const name = ctx.app.state.name;
  return ctx.kibitz && !!name && (info.player ?? info.name) === name;
}

function isSilly(ctx: Ctx): boolean {
  return ctx.fife && ctx.v?.fife?.round === 4;
}

const ROUND_NAME = ['Round 1', 'Round 2', 'Round 3', 'Round 4', 'the Silly Round'];

// ------------------------------------------------------------------ the bar

function phaseVerb(ctx: Ctx): string {
  const v = ctx.v;
  if (!v) return '';
  switch (v.phase) {
    case 'cut':
      return 'to cut';
    case 'declare':
      return ctx.fife ? 'to call' : 'to choose the contract';
    case 'pass_on':
      return 'to pass on';
    case 'bid':
      return 'to double or pass';
    case 'arrange':
      return 'to set the rows';
    case 'play':
      return 'to play';
    default:
      return '';
  }
}

export function turnText(ctx: Ctx): string {
  const { v, t } = ctx;
  if (t.state === 'waiting') return 'Waiting for players';
  if (!v) return '';
  if (v.phase === 'over' || t.state === 'over') return 'Game over';
  const who = v.to_move;
  let s: string;
  if (!who) s = '';
  else if (who === ctx.me) s = `Your turn ${phaseVerb(ctx)}`;
  else s = seatAbsence(t, who) ?? `${SEAT_NAME[who]} ${phaseVerb(ctx)}`;
  if (t.state === 'paused') s = s ? `Paused — ${s}` : 'Paused';
  return s;
}

function dealText(ctx: Ctx): string {
  const v = ctx.v;
  if (!v) return `Table ${ctx.t.id}`;
  const f = v.fife;
  if (v.phase === 'over') return `All ${ctx.fife ? v.deal : v.deals} deals played`;
  if (ctx.fife && f) return `Deal ${v.deal + 1} · Set ${f.set + 1}, ${ROUND_NAME[f.round] ?? `Round ${f.round + 1}`}`;
  return `Deal ${v.deal + 1} of ${v.deals}`;
}

function bar(ctx: Ctx): HTMLElement {
  const { app, v, t } = ctx;
  const ui = app.state.ui;
  const info: (HTMLElement | null)[] = [
    h('span', { class: 'bar-deal' }, dealText(ctx)),
  ];
  if (v && v.phase !== 'over') {
    const title = v.contracts.length > 0 ? dealTitle(v.contracts, ctx.rules, v.trump, v.rank) : v.phase === 'cut' ? 'cutting for the Call' : 'contract not chosen yet';
    info.push(h('span', { class: 'bar-contract' }, title));
    if (!isSilly(ctx)) info.push(h('span', { class: 'bar-declarer' }, `${ctx.fife ? 'Caller' : 'Declarer'}: ${seatWord(ctx, v.declarer)}`));
    info.push(h('span', { class: 'bar-dealer' }, `Dealer: ${seatWord(ctx, v.dealer)}`));
    info.push(barDoubles(ctx));
  }
  const turn = turnText(ctx);
  const myTurn = !!v && !!ctx.me && v.to_move === ctx.me && v.phase !== 'over';
  return h(
    'header',
    { class: 'table-bar' },
    h('div', { class: 'bar-info' }, info),
    h('div', { class: `bar-turn${myTurn ? ' mine' : ''}`, role: 'status' }, turn, barClock(t, ctx.vm, ctx.me)),
    h(
      'div',
      { class: 'bar-buttons' },
      h('button', { type: 'button', id: 'score-btn', 'data-focus': 'score-btn', onclick: () => openScore(app) }, 'Scores'),
      showdownButton(ctx),
      hintButton(ctx),
      h(
        'button',
        {
          type: 'button',
          id: 'last-trick-btn',
          'data-focus': 'last-trick-btn',
          'aria-pressed': String(ui.showLastTrick && !!lastTrickOf(ctx)),
          disabled: !lastTrickOf(ctx),
          onclick: () => {
            ui.showLastTrick = !ui.showLastTrick;
            app.update();
          },
        },
        'Last trick',
      ),
      h(
        'button',
        {
          type: 'button',
          id: 'review-btn',
          'data-focus': 'review-btn',
          'aria-pressed': String(pace.reviewOpen && !!pace.done),
          disabled: !pace.done && !v?.last_deal,
          title: 'Every trick of the deal just finished',
          onclick: () => {
            if (pace.reviewOpen) {
              pace.reviewOpen = false;
              app.update();
            } else pace.openReview();
          },
        },
        'Last deal',
      ),
      rulesLink(ctx, '', 'Rules', `The rules of this table (${t.rules})`),
      reportTableButton(app, t.id),
      h(
        'button',
        { type: 'button', id: 'leave-btn', 'data-focus': 'leave-btn', onclick: () => void leaveTable(app) },
        ctx.kibitz || t.state === 'over' || t.state === 'waiting' ? 'Leave' : 'Leave table',
      ),
    ),
  );
}

// ---------------------------------------------------------------- banners

function botButton(ctx: Ctx, s: Seat): HTMLElement {
  return h(
    'button',
    {
      type: 'button',
      class: 't-small',
      'data-bot': s,
      'data-focus': `bot-${s}`,
      onclick: () => ctx.app.send({ type: 'bot', seat: s }),
    },
    `Computer player for ${SEAT_NAME[s]}`,
  );
}

/** A kibitzer's switch to another seat (during a deal the server keeps
 * it for the next deal: `you.next`). */
function watchButtons(ctx: Ctx, watched: Seat | 'all', next: Seat | undefined): HTMLElement {
  const t = ctx.t;
  const seats: (Seat | 'all')[] = SEATS.filter((s) => s !== watched && s !== next);
  if (t.kibitz === 'all' && watched !== 'all') seats.push('all');
  return h(
    'span',
    { class: 'bot-buttons watch-buttons' },
    seats.map((s) =>
      h(
        'button',
        {
          type: 'button',
          class: 't-small',
          'data-kibitz': s,
          'data-focus': `rewatch-${s}`,
          onclick: () => ctx.app.send({ type: 'kibitz', table: t.id, seat: s }),
        },
        s === 'all' ? 'Watch every hand' : `Watch ${SEAT_NAME[s]}`,
      ),
    ),
  );
}

function banners(ctx: Ctx): HTMLElement[] {
  const { t } = ctx;
  const out: HTMLElement[] = [];
  const ladder = ladderBanner(ctx);
  if (ladder) out.push(ladder);
  if (ctx.kibitz) {
    const you = t.you;
    const watched = 'kibitz' in you ? you.kibitz : 'all';
    const next = 'kibitz' in you ? you.next : undefined;
    const what = watched === 'all' ? 'every hand' : SEAT_NAME[watched];
    // Another seat waits for the next deal: this deal's other hands stay hidden.
    const then = next ? `; ${SEAT_NAME[next]} from the next deal` : '';
    out.push(
      h(
        'div',
        { class: 'table-banner kibitz', id: 'kibitz-banner', 'data-next': next ?? null },
        `Watching ${what}${then} — you cannot play`,
        t.state === 'over' ? null : watchButtons(ctx, watched, next),
      ),
    );
  }
  if (t.seed_chosen_by) {
    const who = t.seed_chosen_by;
    out.push(
      h(
        'div',
        { class: 'table-banner seed-chosen', id: 'seed-banner', 'data-seed-chosen-by': who, role: 'note' },
        h('span', { class: 'knows-icon', 'aria-hidden': 'true' }, '\u2605'),
        `Seed chosen by ${who}: ${who === ctx.app.state.name ? 'you know' : `${who} knows`} every deal of this game.`,
      ),
    );
  }
  if (t.state === 'paused') {
    const lines: (HTMLElement | string)[] = [];
    for (const s of SEATS) {
      const info = t.seats[seatIndex(s)];
      const away = awayFor(ctx, s);
      if (!info.name) lines.push(h('div', null, `${SEAT_NAME[s]}'s seat is empty.`));
      else if (away !== undefined || !info.connected) {
        const left = away !== undefined ? t.grace - away : 0;
        lines.push(
          h(
            'div',
            null,
            `${info.name} (${SEAT_NAME[s]}) is away${away !== undefined ? ` (${duration(away)})` : ''}. `,
            info.free
              ? t.takeover === 'vote'
                ? 'The seat is free: a computer player or a substitute may take it.'
                : 'A computer player will take the seat.'
              : left > 0
                ? `The seat is held for ${duration(left)} more.`
                : '',
          ),
        );
      }
      if (ctx.me && (info.free || !info.name) && t.takeover === 'vote') lines.push(botButton(ctx, s));
    }
    out.push(h('div', { class: 'table-banner paused', role: 'status' }, h('strong', null, 'Paused. '), lines));
  } else if (t.state === 'waiting') {
    const free = SEATS.filter((s) => !t.seats[seatIndex(s)].name);
    out.push(
      h(
        'div',
        { class: 'table-banner waiting', role: 'status' },
        h('strong', null, 'Waiting for players. '),
        free.length > 0 ? `Free seats: ${free.map((s) => SEAT_NAME[s]).join(', ')}. The game starts when all four are taken.` : '',
        ctx.me ? h('span', { class: 'bot-buttons' }, free.map((s) => botButton(ctx, s))) : null,
        renderWaitingInvite(ctx.app, t),
      ),
    );
  } else if (t.state === 'over') {
    out.push(
      h(
        'div',
        { class: 'table-banner over', role: 'status' },
        h('strong', null, 'Game over. '),
        t.seed ? `Seed ${t.seed}.` : '',
      ),
    );
  }
  return out;
}

// ------------------------------------------------------------------ seats

function owedApplies(ctx: Ctx): boolean {
  const v = ctx.v;
  if (!v || ctx.fife) return false;
  if (ctx.rules) return ctx.rules.doubling && ctx.rules.mandatory_doubles > 0;
  return v.owed.some((row) => row.some((n) => n > 0));
}

function penaltyTaken(ctx: Ctx, s: Seat): HTMLElement | null {
  const v = ctx.v;
  if (!v) return null;
  const taken = v.taken[s] ?? [];
  if (v.contracts.includes('ravage')) {
    // Ravage City: what counts is the most cards of one suit.
    const n: Record<string, number> = { S: 0, H: 0, D: 0, C: 0 };
    for (const c of taken) {
      const su = cardSuit(c);
      if (su) n[su]++;
    }
    if (taken.length === 0) return null;
    return h(
      'div',
      { class: 'seat-taken suits', 'aria-label': 'Cards taken by suit' },
      (['S', 'H', 'D', 'C'] as const).map((su) =>
        h('span', { class: `suit-count ${su === 'H' || su === 'D' ? 'red' : 'black'} suit-${su}` }, `${SUIT_SYMBOL[su]}${n[su]}`),
      ),
    );
  }
  const pen = new Set(v.penalty);
  if (pen.size === 0) return null;
  const mine = sortHand(taken.filter((c) => pen.has(c)));
  if (mine.length === 0) return null;
  return h(
    'div',
    { class: 'seat-taken', 'aria-label': `Penalty cards taken: ${mine.map(cardLabel).join(', ')}` },
    mine.map((c) => h('span', { class: 'mini-card', 'data-card': c, 'aria-hidden': 'true' }, cardFace(c, { mini: true }))),
  );
}

function handText(cards: Card[]): string {
  const by: Record<string, string[]> = { S: [], H: [], D: [], C: [] };
  for (const c of sortHand(cards)) {
    const su = cardSuit(c);
    if (su) by[su].push(cardShort(c).slice(0, -1));
  }
  return (['S', 'H', 'C', 'D'] as const)
    .filter((su) => by[su].length > 0)
    .map((su) => `${SUIT_SYMBOL[su]}${by[su].join(' ')}`)
    .join('  ');
}

function seatHand(ctx: Ctx, s: Seat): HTMLElement | null {
  const v = ctx.v;
  if (!v) return null;
  const known = v.hands[s];
  if (known) {
    const cards = sortHand(known);
    return h(
      'div',
      { class: 'seat-hand faceup', role: 'img', 'aria-label': `${SEAT_NAME[s]}'s hand: ${cards.map(cardLabel).join(', ') || 'empty'}` },
      h(
        'div',
        { class: 'seat-hand-cards', 'aria-hidden': 'true', style: `--n: ${Math.max(2, cards.length)}` },
        cards.map((c) => h('span', { class: 'mini-card', 'data-card': c }, cardFace(c, { mini: true }))),
      ),
      h('div', { class: 'seat-hand-text', 'aria-hidden': 'true' }, handText(cards)),
    );
  }
  const n = v.in_hand[seatIndex(s)];
  if (n === 0) return null;
  return h(
    'div',
    { class: 'seat-hand backs', 'aria-hidden': 'true' },
    Array.from({ length: n }, () => h('span', { class: 'mini-card back' }, cardBack())),
  );
}

function seatBox(ctx: Ctx, s: Seat): HTMLElement {
  const { v, t } = ctx;
  const i = seatIndex(s);
  const info = t.seats[i];
  const place = placeOf(s, ctx.bottom);
  const name = info.name ?? 'Free seat';
  const turn = !!v && v.phase !== 'over' && v.to_move === s;
  const away = awayFor(ctx, s);

  const notes: string[] = [];
  if (info.bot && info.name && !/bot/i.test(info.name)) notes.push('computer');
  if (info.name && info.player && info.player !== info.name) notes.push(`for ${info.player}`);
  if (!info.name && info.player && !info.bot && (t.state === 'playing' || t.state === 'paused')) notes.push(`${info.player} left`);
  const mine = watchingOwn(ctx, s);
  const guest = !!info.name && !info.bot && !info.registered;
  const other = !!info.name && !info.bot && info.name !== ctx.app.state.name;
  let status: string | null = null;
  if (mine) status = 'you, watching';
  else if (!info.name) status = 'free';
  else if (away !== undefined) status = `away ${duration(away)}`;
  else if (!info.connected) status = 'offline';

  const badges: HTMLElement[] = [];
  if (s === ctx.me) badges.push(h('span', { class: 'seat-badge you' }, 'You'));
  if (info.knows_deals) {
    badges.push(
      h(
        'span',
        { class: 'seat-badge knows-deals', role: 'img', title: 'Knows the deals (chose the seed)', 'aria-label': 'knows the deals' },
        '\u2605 knows deals',
      ),
    );
  }
  if (v && v.phase !== 'over') {
    if (v.dealer === s) badges.push(h('span', { class: 'seat-badge dealer', title: 'Dealer' }, 'Dealer'));
    if (v.declarer === s && !isSilly(ctx)) badges.push(h('span', { class: 'seat-badge declarer' }, ctx.fife ? 'Caller' : 'Declarer'));
    if (ctx.fife && v.fife?.cutter === s && (v.phase === 'cut' || v.phase === 'pass_on')) badges.push(h('span', { class: 'seat-badge' }, 'Cutter'));
  }

  const facts: (HTMLElement | null)[] = [];
  if (v) {
    const n = v.in_hand[i];
    facts.push(h('span', { class: 'seat-cards' }, `${n} card${n === 1 ? '' : 's'}`));
    if (v.kind === 'tricks' || v.kind === 'trumps') {
      const k = v.tricks[i];
      facts.push(h('span', { class: 'seat-tricks' }, `${k} trick${k === 1 ? '' : 's'}`));
    }
    if (v.out.includes(s)) facts.push(h('span', { class: 'seat-out' }, `out ${ordinal(v.out.indexOf(s) + 1)}`));
    if (owedApplies(ctx) && s !== v.declarer && v.phase !== 'over') {
      const owed = v.owed[i][seatIndex(v.declarer)];
      facts.push(
        h(
          'span',
          { class: `seat-owed${owed > 0 ? ' owes' : ''}`, title: `Compulsory doubles ${SEAT_NAME[s]} still owes ${SEAT_NAME[v.declarer]}` },
          `owes ${owed} double${owed === 1 ? '' : 's'}`,
        ),
      );
    }
    const total = v.totals[i];
    facts.push(h('span', { class: `seat-total ${total < 0 ? 'neg' : total > 0 ? 'pos' : ''}` }, `total ${points(total)}`));
  }

  const bids: string[] = [];
  if (v && (v.phase === 'bid' || v.phase === 'play' || v.phase === 'arrange')) {
    const d = v.doubles[s] ?? [];
    const r = v.redoubles[s] ?? [];
    if (d.length > 0) bids.push(`doubled ${d.map((x) => seatObj(ctx, x)).join(', ')}`);
    if (r.length > 0) bids.push(`redoubled ${r.map((x) => seatObj(ctx, x)).join(', ')}`);
    if (d.length === 0 && r.length === 0 && v.bids.includes(s) && v.phase === 'bid') bids.push('passed');
  }

  return h(
    'div',
    {
      class: `seat seat-${place}${turn ? ' turn' : ''}${!info.name ? ' empty' : ''}`,
      'data-seat': s,
      'data-place': place,
      'data-turn': turn ? 'true' : null,
      'data-guest': guest ? 'true' : null,
      role: 'group',
      'aria-label': `${SEAT_NAME[s]}: ${name}${guest ? ' (guest)' : ''}${mine ? ' (you, watching)' : ''}${info.knows_deals ? ', knows the deals' : ''}${turn ? ', to move' : ''}`,
    },
    h(
      'div',
      { class: 'seat-head' },
      h('span', { class: 'seat-dir', 'aria-hidden': 'true' }, s),
      h('span', { class: 'seat-name', title: name }, name),
      guest ? guestMark(false) : null,
      other ? reportNameButton(ctx.app, info.name as string, t.id) : null,
      notes.length > 0 ? h('span', { class: 'seat-note' }, `(${notes.join(', ')})`) : null,
      status ? h('span', { class: `seat-status ${mine ? 'watching' : status === 'free' ? 'free' : 'away'}` }, status) : null,
      seatClock(t, ctx.vm, s),
      badges.length > 0 ? h('span', { class: 'seat-badges' }, badges) : null,
    ),
    facts.length > 0 ? h('div', { class: 'seat-facts' }, facts) : null,
    bids.length > 0 ? h('div', { class: 'seat-bids' }, bids.join('; ')) : null,
    penaltyTaken(ctx, s),
    place !== 'bottom' ? seatHand(ctx, s) : null,
  );
}

// ----------------------------------------------------------------- centre

function note(text: string, cls = ''): HTMLElement {
  return h('p', { class: `centre-note ${cls}` }, text);
}

export function lastDealLine(ld: DealResult, ctx: Ctx): string {
  const title = dealTitle(ld.contracts, ctx.rules, ld.trump, ld.rank);
  const by = ld.declarer ? ` (${ld.declarer})` : '';
  const notPlayed = ld.played ? '' : ', not played';
  const scores = SEATS.map((s, i) => `${s} ${points(ld.score[i])}`).join(' · ');
  return `Last deal: ${title}${by}${notPlayed} — ${scores}`;
}

function lastDealBox(ctx: Ctx): HTMLElement | null {
  const v = ctx.v;
  const ld = v?.last_deal;
  if (!v || !ld || ld.deal !== v.deal - 1) return null;
  const show = renderShowdown(ctx);
  if (show) return show;
  // While this seat has to act the chooser needs the room; the side has the line.
  if (ctx.me && v.to_move === ctx.me) return null;
  return h(
    'section',
    { class: 'deal-result', 'aria-label': 'The last deal' },
    h(
      'h3',
      null,
      `Deal ${ld.deal + 1}: ${dealTitle(ld.contracts, ctx.rules, ld.trump, ld.rank)}`,
      ld.declarer ? ` — ${ctx.fife ? 'called' : 'declared'} by ${seatObj(ctx, ld.declarer)}` : '',
    ),
    ld.played ? null : h('p', null, 'Nobody doubled: not played, the points shared out.'),
    ld.order && ld.order.length > 0
      ? h('p', null, `Out: ${ld.order.map((s, i) => `${ordinal(i + 1)} ${seatObj(ctx, s)}`).join(', ')}`)
      : null,
    h(
      'ul',
      { class: 'deal-scores' },
      SEATS.map((s, i) =>
        h(
          'li',
          { 'data-seat': s },
          h('span', null, seatWord(ctx, s)),
          ' ',
          h('strong', { class: ld.score[i] < 0 ? 'neg' : ld.score[i] > 0 ? 'pos' : '' }, points(ld.score[i])),
        ),
      ),
    ),
  );
}

function overPanel(ctx: Ctx): HTMLElement {
  const { v, t, app } = ctx;
  const totals = v?.totals ?? [0, 0, 0, 0];
  const order = [...SEATS].sort((a, b) => totals[seatIndex(b)] - totals[seatIndex(a)]);
  return h(
    'section',
    { id: 'game-over', class: 'game-over', 'aria-label': 'Game over' },
    h('h2', null, 'Game over'),
    h(
      'ol',
      { class: 'final-totals' },
      order.map((s) => {
        const i = seatIndex(s);
        const place = SEATS.filter((x) => totals[seatIndex(x)] > totals[i]).length + 1;
        const who = t.seats[i].player ?? t.seats[i].name ?? SEAT_NAME[s];
        return h(
          'li',
          { 'data-seat': s },
          h('span', { class: 'place' }, ordinal(place)),
          h('span', { class: 'who' }, `${who} (${SEAT_NAME[s]})${s === ctx.me || watchingOwn(ctx, s) ? ' — you' : ''}`),
          h('strong', { class: totals[i] < 0 ? 'neg' : totals[i] > 0 ? 'pos' : '' }, points(totals[i])),
        );
      }),
    ),
    t.seed ? h('p', { class: 'seed' }, 'Seed: ', h('code', null, t.seed), ' (the rule set and this seed deal the same game again)') : null,
    renderAgain(app, t),
    h(
      'div',
      { class: 'over-actions' },
      h('button', { type: 'button', class: 't-primary', 'data-focus': 'over-score', onclick: () => openScore(app) }, 'The score sheet'),
      h('button', { type: 'button', 'data-focus': 'over-leave', onclick: () => app.send({ type: 'leave' }) }, 'Back to the lobby'),
    ),
    // The game's page in the club (web/src/club): its score sheet, record and replay.
    h('p', { class: 'over-club' }, h('a', { id: 'club-game', href: `/club/game/${t.id}`, target: '_blank', rel: 'noopener' }, 'This game in the club')),
  );
}

function waitingCentre(ctx: Ctx): HTMLElement {
  const t = ctx.t;
  return h(
    'section',
    { class: 'waiting-seats', 'aria-label': 'Seats' },
    h('h2', null, t.state === 'waiting' ? 'Waiting for players' : 'The game is starting'),
    h(
      'ul',
      null,
      SEATS.map((s) => {
        const info = t.seats[seatIndex(s)];
        return h(
          'li',
          { 'data-seat': s },
          h('strong', null, `${SEAT_NAME[s]}: `),
          info.name ? `${info.name}${info.bot ? ' (computer)' : info.registered ? '' : ' (guest)'}` : 'free',
          !info.name && ctx.me ? [' ', botButton(ctx, s)] : null,
        );
      }),
    ),
  );
}

function centre(ctx: Ctx, fifeInCentre: boolean): (HTMLElement | null)[] {
  const { app, v } = ctx;
  if (!v) return [waitingCentre(ctx)];
  if (pace.summaryOpen && pace.done && !pace.finished) return [renderSummary(ctx, pace.done)];
  if (v.phase === 'over') return [overPanel(ctx)];
  const who = v.to_move;
  const whoWord = who ? (who === ctx.me ? 'You' : SEAT_NAME[who]) : '';
  // Nobody is there to act: say so rather than that the seat is acting.
  const absent = who && who !== ctx.me ? absenceText(ctx.t, who) : null;
  const out: (HTMLElement | null)[] = [];
  switch (v.phase) {
    case 'cut':
    case 'pass_on':
      if (fifeInCentre) out.push(renderFife(app));
      if (absent) out.push(note(absent, 'absent'));
      else if (v.phase === 'pass_on' && who && who !== ctx.me) out.push(note(`${whoWord} is choosing three cards to pass on.`));
      else if (v.phase === 'pass_on' && who) out.push(note('Your turn: pick three cards in your hand, then pass them on.'));
      else if (v.phase === 'cut' && who && who !== ctx.me) out.push(note(`${whoWord} is cutting the Unused Pack.`));
      else if (v.phase === 'cut' && who) out.push(note('Your turn to cut the Unused Pack.'));
      if (v.deal > 0 && v.acted === 0) out.push(lastDealBox(ctx));
      break;
    case 'declare': {
      const d = renderDeclare(app);
      if (d) out.push(d);
      else if (who) out.push(note(who === ctx.me ? 'Your turn to choose the contract.' : `${whoWord} is choosing the ${ctx.fife ? 'Call' : 'contract'}…`));
      out.push(lastDealBox(ctx));
      break;
    }
    case 'bid': {
      const b = renderBid(app);
      if (b) out.push(b);
      else if (who) out.push(note(`${dealTitle(v.contracts, ctx.rules, v.trump, v.rank)}: ${whoWord} to double or pass…`));
      if (!ctx.me || who !== ctx.me) out.push(renderDoublesBox(ctx));
      out.push(lastDealBox(ctx));
      break;
    }
    case 'arrange':
      out.push(renderArrange(ctx));
      break;
    case 'play': {
      const f = pace.finished;
      if (absent) out.push(note(absent, 'absent'));
      if (v.kind === 'domino' || v.kind === 'patience') {
        out.push(renderLayout(ctx), f ? renderFinished(ctx, f) : renderLayoutActions(ctx));
      } else {
        out.push(f ? renderFinished(ctx, f) : renderTrick(ctx));
      }
      break;
    }
  }
  return out;
}

// ---------------------------------------------------------------- bottom

function handNotes(ctx: Ctx): HTMLElement[] {
  const v = ctx.v;
  const out: HTMLElement[] = [];
  if (!v) return out;
  if (v.advice.length > 0 && ctx.me && v.to_move === ctx.me) {
    out.push(
      h(
        'p',
        { class: 'advice', role: 'note' },
        h('strong', null, 'Israeli rule: '),
        `discard ${v.advice.map(cardShort).join(' or ')} now`,
      ),
    );
  }
  if (v.phase === 'pass_on' && ctx.me && v.to_move === ctx.me && !(v.fife?.passed_on ?? []).includes(ctx.me)) {
    const n = ctx.app.state.ui.picked.length;
    const dir = v.fife?.pass_dir;
    out.push(h('p', { class: 'hand-note' }, `Pick three cards to pass ${dir ? `${dir === 'across' ? 'across' : `to the ${dir}`}` : 'on'}: ${n} of 3 picked.`));
  }
  return out;
}

// ------------------------------------------------------------------- side

function side(ctx: Ctx, fifeInCentre: boolean): HTMLElement {
  const { app, v, t } = ctx;
  const parts: (HTMLElement | null)[] = [];
  // The last trick beside the felt, never over the trick being played.
  parts.push(renderLastTrick(ctx));
  if (!fifeInCentre) parts.push(renderFife(app));
  parts.push(renderSchedule(app));
  if (v?.last_deal) parts.push(h('p', { class: 'last-deal', id: 'last-deal' }, lastDealLine(v.last_deal, ctx)));
  parts.push(renderFair(ctx));
  parts.push(
    h(
      'p',
      { class: 'table-facts' },
      `Table ${t.id} · ${t.rules}${t.house ? ' with house rules' : ''}`,
      t.household ? ' · a household may watch' : '',
      t.kibitz_chat ? ' · kibitzers may talk to the players' : '',
      t.clock ? ` · move clock: ${clockWords(t.clock)}` : '',
      t.kibitzers.length > 0 ? h('span', { class: 'kibitzers' }, ` · watching: ${t.kibitzers.join(', ')}`) : null,
    ),
  );
  return h('aside', { class: 'table-side', 'aria-label': 'The game' }, parts);
}

// ------------------------------------------------------------------ table

function drawTable(app: App): HTMLElement {
  const s = app.state;
  const t = s.table;
  if (!t) return h('section', { id: 'table', class: 'table none' }, h('p', null, 'You are not at a table.'));
  if (!seenAt.has(t)) seenAt.set(t, Date.now());
  // The view shown may lag behind the newest while a finished trick is
  // seen (web/src/pace.ts); then it offers no move.
  const newest = s.view && s.view.table === t.id ? s.view : null;
  const shownVm = pace.shown && pace.shown.table === t.id ? pace.shown : newest;
  const vm = shownVm && shownVm !== newest ? { ...shownVm, legal: undefined } : shownVm;
  const v = vm?.view ?? null;
  const me = mySeat(s);
  const ctx: Ctx = {
    app,
    t,
    vm,
    v,
    me,
    bottom: bottomSeat(s),
    kibitz: me === null,
    rules: t.rule_set,
    fife: t.rule_set ? t.rule_set.game === 'fife' : !!v?.fife,
  };
  // The Fife game's panel (cuts, draw, Pass-ons) sits beside the felt at
  // 1280 px and below it on a phone, as the schedule does.
  const fifeInCentre = false;
  const placeSeat = (p: string): Seat => SEATS.find((x) => placeOf(x, ctx.bottom) === p) ?? 'N';
  const myTurn = !!v && !!me && v.to_move === me && v.phase !== 'over';

  const aside = side(ctx, fifeInCentre);
  const felt = h(
    'div',
    { class: 'felt' },
    h('div', { class: 'area-top' }, seatBox(ctx, placeSeat('top'))),
    h('div', { class: 'area-left' }, seatBox(ctx, placeSeat('left'))),
    h('div', { class: 'area-right' }, seatBox(ctx, placeSeat('right'))),
    h('div', { class: `centre centre-${v?.phase ?? 'none'}` }, centre(ctx, fifeInCentre)),
    h(
      'div',
      { class: `area-bottom${myTurn ? ' my-turn' : ''}` },
      seatBox(ctx, ctx.bottom),
      handNotes(ctx),
      tapNote(ctx),
      hintNote(ctx),
      v && v.phase !== 'over' ? renderHand(ctx) : null,
    ),
  );

  return h(
    'section',
    {
      id: 'table',
      class: `table state-${t.state}${ctx.kibitz ? ' kibitzing' : ''}`,
      'data-phase': v?.phase ?? t.state,
      'data-at': vm?.at ?? t.at,
      'data-kind': v?.kind ?? '',
      'data-to-move': v?.to_move ?? '',
      'data-you': me ?? 'kibitz',
      'data-deal': v?.deal ?? '',
      'data-state': t.state,
      'aria-label': `Table ${t.id}`,
    },
    bar(ctx),
    banners(ctx),
    h('div', { class: 'table-main' }, felt, aside),
    pace.reviewOpen && pace.done ? renderReview(ctx, pace.done) : null,
    renderShowdownDialog(ctx),
  );
}

/** After an action the element that had the focus (a card played, a
 * panel's button) may be gone: the focus goes back to the hand, so a
 * keyboard player can go on.  `index`: the played card's place in the hand
 * (the card after it takes the focus); otherwise the hand's tab stop (the
 * first card that may be played, else the first card). */
function focusHand(root: HTMLElement, index: number): void {
  const cards = Array.from(root.querySelectorAll<HTMLElement>('#hand button.card'));
  const b =
    (index >= 0 ? cards[Math.min(index, cards.length - 1)] : undefined) ??
    cards.find((c) => c.tabIndex === 0) ??
    cards.find((c) => c.classList.contains('playable')) ??
    cards[0];
  if (!b) {
    root.focus({ preventScroll: true });
    return;
  }
  for (const c of cards) c.tabIndex = -1;
  b.tabIndex = 0;
  b.focus({ preventScroll: true });
}

/** Draws the table this session is at into root (the whole table area). */
export function renderTable(root: HTMLElement, app: App): void {
  const active = document.activeElement;
  const inside = active instanceof HTMLElement && active !== root && root.contains(active);
  let handIndex = -1;
  if (inside && active.closest('#hand')) {
    handIndex = Array.from(root.querySelectorAll('#hand button.card')).indexOf(active);
  }
  rerender(root, () => drawTable(app));
  if (inside) {
    const now = document.activeElement;
    if (!(now instanceof HTMLElement) || !root.contains(now)) focusHand(root, handIndex);
  }
}
