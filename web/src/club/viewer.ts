// The hand viewer (/club/viewer): a finished game, or a record file, replayed
// step by step.  The server replays the record with the engine and sends
// every step's table (docs/club.md, "The hand viewer"): this page only
// draws what it is given and decides no rule.  The address keeps the place:
// #game=ID&deal=N&step=K (step 0 is the deal as dealt, step K after its Kth
// action).  The Analysis panel asks the server for the expert's judgement
// of one seat's decisions (docs/club.md, "Analysis"): its worst mistakes
// are links to their positions, and at each position where that seat
// decides, #viewer-decision shows its options with their values.

import './viewer.css';
import { h } from '../dom';
import type { Child } from '../dom';
import { RANK_NAME, RED, SEAT_NAME, SUIT_NAME, SUIT_SYMBOL, cardLabel, cardShort, cardSuit, points } from '../names';
import { saved } from '../net';
import type { Seat, Suit } from '../protocol';

type Cards = string[];
type BySeat<T> = Partial<Record<Seat, T>>;

interface Trick {
  leader: Seat;
  cards: Cards;
  winner?: Seat;
}
interface Rows {
  back: Cards;
  middle: Cards;
  front: Cards;
}
interface Cut {
  card: string;
  words: string;
  for: 'call' | 'pass_on';
  note: string;
}
interface PassOn {
  direction: number;
  cards: Record<Seat, Cards>;
}
interface FifeTable {
  set: number;
  round: number;
  silly: boolean;
  calls_done: string[];
  cutter?: Seat;
  cut_for?: string;
  cuts?: Cut[];
  pass_ons?: PassOn[];
  chosen?: BySeat<Cards>;
  pass_dir?: number;
  piranha?: Seat;
}
interface Table {
  phase: string;
  to_move?: Seat;
  hands: Record<Seat, Cards>;
  contract?: string;
  kind?: string;
  bids?: Seat[];
  doubles?: BySeat<Seat[]>;
  redoubles?: BySeat<Seat[]>;
  trick?: Trick;
  last_trick?: Trick;
  winners?: Seat[];
  tricks?: number[];
  layout?: Partial<Record<Suit, { lo: string; hi: string }>>;
  out?: Seat[];
  rows?: BySeat<Rows>;
  fife?: FifeTable;
  totals: number[];
}
interface Step {
  seat: Seat;
  kind: string;
  words: string;
  cards?: Cards;
  table: Table;
}
interface Result {
  played: boolean;
  tricks_left: number;
  raw: number[];
  score: number[];
  tricks: number[];
  order?: Seat[];
  settled: { pair: [Seat, Seat]; level: number; points: number }[];
  piranha?: Seat;
}
interface Deal {
  deal: number;
  dealer: Seat;
  declarer: Seat;
  set?: number;
  round?: number;
  silly?: boolean;
  hands: Record<Seat, Cards>;
  totals_before: number[];
  contracts: string[];
  contract: string;
  doubles: BySeat<Seat[]>;
  redoubles: BySeat<Seat[]>;
  complete: boolean;
  result?: Result;
  totals_after?: number[];
  steps: Step[];
}
export interface Replay {
  rules: string;
  fife: boolean;
  players: Record<Seat, string | null>;
  event?: string;
  n_deals: number;
  complete: boolean;
  totals: number[];
  deals: Deal[];
}

/** The analysis of one seat's decisions (docs/club.md, "Analysis"). */
interface AnalysisOption {
  action: string;
  value: number;
  cards?: Cards;
}
interface AnalysisItem {
  deal: number;
  /** 1-based: the decision is the deal's step-th action (the viewer's step step-1 is its position). */
  step: number;
  kind: string;
  chosen: string;
  best: string;
  cost: number;
  forced?: boolean;
  words: string;
  options: AnalysisOption[];
}
interface Analysis {
  status: string;
  key?: string;
  seat: Seat;
  level: string;
  decisions: number;
  total_cost: number;
  worst: number[];
  items: AnalysisItem[];
}
/** What the server says of an analysis not yet done. */
interface AnalysisProgress {
  status: 'queued' | 'running';
  key?: string;
  done: number;
  total: number;
}

const SEATS: Seat[] = ['N', 'E', 'S', 'W'];
/** How often a running analysis is asked about (ms). */
const ANALYSIS_POLL_MS = 1000;
/** The mistakes listed at most (the costliest). */
const ANALYSIS_LISTED = 30;

/** An option as players read it: its cards as "Q♠", the rest as the server words it. */
function actionText(action: string): string {
  return action.replace(/\b([2-9TJQKA][CDHS])\b/g, (c) => cardShort(c));
}

/** Points with one decimal (two below 0.1, so that a small cost is not "0.0"). */
function pts(n: number): string {
  const a = Math.abs(n);
  return a > 0 && a < 0.1 ? a.toFixed(2) : a.toFixed(1);
}

function signedPts(n: number): string {
  return n > 0 ? `+${pts(n)}` : n < 0 ? `\u2212${pts(n)}` : '0';
}
const SUITS: Suit[] = ['S', 'H', 'D', 'C'];
const MAX_FILE = 1024 * 1024;
const DIRECTION = ['', 'to the left', 'across', 'to the right'];

/** The place on the screen: North at the top, South at the bottom. */
const PLACE: Record<Seat, string> = { N: 'top', E: 'right', S: 'bottom', W: 'left' };

function suitOf(c: string): Suit | null {
  return cardSuit(c);
}

/** One card as text: "Q♥", read out "Queen of hearts". */
function cardEl(c: string): HTMLElement {
  const s = suitOf(c);
  return h('span', { class: `vcard${s && RED[s] ? ' red' : ''}`, 'data-card': c, role: 'img', 'aria-label': cardLabel(c) }, cardShort(c));
}

/** A hand as text, a line a suit: "♠ A K 7". */
function handEl(cards: Cards): HTMLElement {
  const list = h('ul', { class: 'vhand-suits' });
  for (const s of SUITS) {
    const mine = cards.filter((c) => suitOf(c) === s);
    // Read out as "Spades: Ace, King, Seven"; seen as "♠ A K 7".
    const said = `${SUIT_NAME[s][0].toUpperCase()}${SUIT_NAME[s].slice(1)}: ${mine.length ? mine.map((c) => RANK_NAME[c.charAt(0)] ?? c).join(', ') : 'none'}.`;
    list.append(
      h(
        'li',
        { class: RED[s] ? 'red' : '' },
        h('span', { class: 'visually-hidden' }, said),
        h(
          'span',
          { 'aria-hidden': 'true' },
          h('span', { class: 'vsuit' }, SUIT_SYMBOL[s]),
          mine.length ? mine.map((c) => h('span', { class: 'vrank', 'data-card': c }, cardShort(c).slice(0, -1))) : h('span', { class: 'vvoid' }, '\u2014'),
        ),
      ),
    );
  }
  return list;
}

const rankText = (r: string): string => (r === 'T' ? '10' : r);

function seatsText(list: Seat[] | undefined): string {
  return (list ?? []).join(', ');
}

function doublesText(d: BySeat<Seat[]> | undefined, r: BySeat<Seat[]> | undefined): string {
  const parts: string[] = [];
  for (const s of SEATS) {
    const dd = d?.[s] ?? [];
    const rr = r?.[s] ?? [];
    if (dd.length) parts.push(`${s} doubles ${seatsText(dd)}`);
    if (rr.length) parts.push(`${s} redoubles ${seatsText(rr)}`);
  }
  return parts.length ? parts.join('; ') : 'no doubles';
}

/** Where the viewer is: the deal (0-based) and the step (0: as dealt). */
interface Place {
  deal: number;
  step: number;
}

export function mountViewer(root: HTMLElement): void {
  let replay: Replay | null = null;
  let source: { game: string } | { file: string; text: string } | null = null;
  let analysis: Analysis | null = null;
  /** Bumped by every new analysis asked for (and a new game): a poll of an older one stops. */
  let analysisRun = 0;
  let pollTimer: number | null = null;
  const at: Place = { deal: 0, step: 0 };

  const fileInput = h('input', { id: 'viewer-file', type: 'file', accept: '.txt,.pgn,text/plain', class: 'visually-hidden-file' });
  const fileLabel = h('label', { for: 'viewer-file', class: 'btn' }, 'Open a record file\u2026');
  const errorEl = h('p', { id: 'viewer-error', class: 'club-error', role: 'alert', hidden: true });
  const gameEl = h('div', { id: 'viewer-game', class: 'viewer-game' });
  const dealSel = h('select', { id: 'viewer-deal', 'aria-label': 'Deal' });
  const btn = (id: string, text: string, label: string, key: string): HTMLButtonElement =>
    h('button', { id, type: 'button', class: 'btn', 'aria-label': label, title: `${label} (${key})` }, text);
  const first = btn('viewer-first', '\u00ab First', 'First step of the deal', 'Home');
  const prev = btn('viewer-prev', '\u2039 Back', 'Back one step', 'Left arrow');
  const next = btn('viewer-next', 'Next \u203a', 'Next step', 'Right arrow');
  const last = btn('viewer-last', 'Last \u00bb', 'Last step of the deal', 'End');
  const counter = h('span', { id: 'viewer-counter', class: 'viewer-counter' });
  const stepEl = h('p', { id: 'viewer-step', class: 'viewer-step', 'aria-live': 'polite', 'aria-atomic': 'true' });
  const dealInfo = h('div', { id: 'viewer-dealinfo', class: 'viewer-dealinfo' });
  const seatEls = {} as Record<Seat, HTMLElement>;
  for (const s of SEATS) seatEls[s] = h('section', { class: `viewer-seat place-${PLACE[s]}`, 'data-seat': s });
  const centre = h('div', { id: 'viewer-centre', class: 'viewer-centre' });
  const tableEl = h('div', { id: 'viewer-table', class: 'viewer-table' }, SEATS.map((s) => seatEls[s]), centre);
  const extra = h('div', { id: 'viewer-extra', class: 'viewer-extra' });
  const resultEl = h('section', { id: 'viewer-result', class: 'viewer-result', hidden: true, 'aria-label': 'Points of the deal' });
  // The analysis: a seat and a level, the button, its progress, then the
  // mistakes worst first; the panel of the decision at the current step.
  const seatPick = h('select', { id: 'viewer-analyse-seat' });
  const levelPick = h('select', { id: 'viewer-analyse-level' }, h('option', { value: 'medium' }, 'medium'), h('option', { value: 'hard' }, 'hard (slower)'));
  const analyseBtn = h('button', { id: 'viewer-analyse', type: 'button', class: 'btn' }, 'Analyse');
  const anStatus = h('p', { id: 'viewer-analysis-status', class: 'viewer-analysis-status', 'aria-live': 'polite' });
  const anSummary = h('p', { id: 'viewer-analysis-summary', hidden: true });
  const anList = h('ol', { id: 'viewer-analysis', class: 'viewer-analysis', hidden: true });
  const anPanel = h(
    'section',
    { id: 'viewer-analysis-panel', class: 'viewer-analysis-panel', 'aria-labelledby': 'viewer-analysis-title' },
    h('h2', { id: 'viewer-analysis-title' }, 'Analysis'),
    h('p', { class: 'small muted' }, 'The expert goes through one seat\u2019s decisions and judges each from what that seat could see at the time, never from the hidden cards. A mistake\u2019s cost is the points it is expected to lose against the best choice.'),
    h('div', { class: 'viewer-analyse-form' }, h('label', null, 'Seat ', seatPick), h('label', null, 'Level ', levelPick), analyseBtn),
    anStatus,
    anSummary,
    anList,
  );
  const decisionEl = h('section', { id: 'viewer-decision', class: 'viewer-decision', hidden: true, 'aria-label': 'The expert on this decision' });
  const board = h(
    'div',
    { id: 'viewer-board', hidden: true },
    h('div', { class: 'viewer-controls', role: 'group', 'aria-label': 'Steps' }, h('label', { class: 'viewer-deal-label' }, 'Deal ', dealSel), first, prev, counter, next, last),
    stepEl,
    decisionEl,
    dealInfo,
    tableEl,
    resultEl,
    extra,
    anPanel,
  );
  const intro = h(
    'p',
    { class: 'club-lead', id: 'viewer-intro' },
    'Open a finished game from its page in the club, or a record file (barbu\u2019s game record) picked here or dropped on this page. The server replays it with the engine; step through it with the buttons or the arrow keys (Home and End for the first and last step of a deal).',
  );
  const viewer = h(
    'div',
    { id: 'viewer', class: 'viewer', 'data-state': 'empty' },
    intro,
    h('div', { class: 'viewer-open' }, fileLabel, fileInput, h('span', { class: 'muted small' }, 'or drop a record file on this page')),
    errorEl,
    gameEl,
    board,
  );
  root.replaceChildren(viewer);

  /** A refusal: its sentence alone, no earlier game left beneath it. */
  function showError(text: string): void {
    errorEl.textContent = text;
    errorEl.hidden = false;
    viewer.dataset.state = 'error';
    replay = null;
    source = null;
    resetAnalysis();
    board.hidden = true;
    gameEl.replaceChildren();
    intro.hidden = false;
  }

  function clearError(): void {
    errorEl.hidden = true;
    errorEl.textContent = '';
  }

  function writeHash(): void {
    if (!replay) return;
    const q = new URLSearchParams();
    if (source && 'game' in source) q.set('game', source.game);
    q.set('deal', String(at.deal + 1));
    q.set('step', String(at.step));
    const hash = `#${q.toString()}`;
    if (location.hash !== hash) history.replaceState(history.state, '', location.pathname + location.search + hash);
  }

  function dealOf(): Deal | null {
    return replay?.deals[at.deal] ?? null;
  }

  function name(s: Seat): string {
    return replay?.players[s] ?? SEAT_NAME[s];
  }

  function drawGame(): void {
    if (!replay) return;
    const r = replay;
    gameEl.replaceChildren(
      h('p', { class: 'viewer-title' }, `${r.rules} rules`, r.event ? ` \u00b7 ${r.event}` : '', source && 'file' in source ? ` \u00b7 ${source.file}` : '', ` \u00b7 ${r.deals.length} deal${r.deals.length === 1 ? '' : 's'}${r.complete ? ', game complete' : ''}`),
      h('p', { class: 'viewer-totals' }, 'Final totals: ', SEATS.map((s, i) => h('span', { class: 'viewer-total', 'data-seat': s }, `${name(s)} (${s}) `, h('strong', null, points(r.totals[i] ?? 0)), i < 3 ? ' \u00b7 ' : ''))),
    );
    dealSel.replaceChildren(
      ...r.deals.map((d, i) => {
        const what = d.contract || (d.silly ? 'Silly Round' : 'no declaration');
        const where = d.set ? `Set ${d.set}, ${d.silly ? 'Silly Round' : `Round ${d.round}`}: ` : '';
        return h('option', { value: String(i) }, `${d.deal}. ${where}${d.silly ? '' : `${d.declarer} `}${what}`);
      }),
    );
  }

  function trickEl(t: Table): HTMLElement | null {
    const cur = t.trick && t.trick.cards.length ? t.trick : t.last_trick && (!t.trick || t.trick.cards.length === 0) ? t.last_trick : null;
    if (!t.trick && !t.last_trick) return null;
    const n = (t.winners?.length ?? 0) + (t.trick && t.trick.cards.length ? 1 : 0);
    const el = h('div', { id: 'viewer-trick', class: 'viewer-trick', role: 'group', 'aria-label': n ? `Trick ${n}` : 'No trick yet' });
    if (cur) {
      el.dataset.leader = cur.leader;
      el.dataset.cards = cur.cards.join(' ');
      if (cur.winner) el.dataset.winner = cur.winner;
      const start = SEATS.indexOf(cur.leader);
      cur.cards.forEach((c, i) => {
        const seat = SEATS[(start + i) % 4];
        el.append(h('div', { class: `vtrick-card place-${PLACE[seat]}${cur.winner === seat ? ' winner' : ''}`, 'data-seat': seat }, h('span', { class: 'vtrick-seat' }, h('span', { 'aria-hidden': 'true' }, seat), h('span', { class: 'visually-hidden' }, `${SEAT_NAME[seat]}: `)), cardEl(c)));
      });
      el.append(h('p', { class: 'vtrick-note' }, cur.winner ? `Trick ${n}: ${name(cur.winner)} (${cur.winner}) takes it` : `Trick ${n}, led by ${cur.leader}`));
    } else {
      el.dataset.cards = '';
      el.append(h('p', { class: 'vtrick-note' }, t.phase === 'play' ? `${t.to_move ?? ''} to lead` : ''));
    }
    return el;
  }

  function layoutEl(t: Table): HTMLElement {
    const rows = SUITS.map((s) => {
      const ends = t.layout?.[s];
      return h(
        'li',
        { 'data-suit': s, class: RED[s] ? 'red' : '' },
        h('span', { class: 'vsuit', role: 'img', 'aria-label': SUIT_NAME[s] }, SUIT_SYMBOL[s]),
        ends ? (ends.lo === ends.hi ? ` ${rankText(ends.lo)}` : ` ${rankText(ends.lo)} to ${rankText(ends.hi)}`) : ' nothing yet',
      );
    });
    return h(
      'div',
      { id: 'viewer-layout', class: 'viewer-layout', role: 'group', 'aria-label': 'The layout' },
      h('ul', null, rows),
      t.out && t.out.length ? h('p', { class: 'small' }, `Out: ${t.out.map((s, i) => `${i + 1}. ${s}`).join(', ')}`) : null,
    );
  }

  function rowsEl(t: Table): HTMLElement {
    return h(
      'div',
      { id: 'viewer-rows', class: 'viewer-rows' },
      h('h2', null, 'Chinese Poker rows'),
      SEATS.map((s) => {
        const r = t.rows?.[s];
        return h(
          'div',
          { class: 'vrows', 'data-seat': s },
          h('p', { class: 'vrows-who' }, `${name(s)} (${s})`),
          r
            ? (['back', 'middle', 'front'] as const).map((k) => h('p', { class: 'vrow', 'data-row': k }, h('span', { class: 'vrow-name' }, `${k}: `), r[k].map(cardEl)))
            : h('p', { class: 'muted small' }, 'rows not set yet'),
        );
      }),
    );
  }

  function fifeEl(d: Deal, t: Table): HTMLElement | null {
    const f = t.fife;
    if (!f) return null;
    const parts: Child[] = [h('h2', null, `Set ${f.set}, ${f.silly ? 'the Silly Round' : `Round ${f.round}`}`)];
    if (!f.silly) parts.push(h('p', { class: 'small' }, `Caller: ${name(d.declarer)} (${d.declarer})`));
    parts.push(h('p', { id: 'viewer-calls' }, 'Calls: ', t.contract ? h('strong', null, t.contract) : h('span', { class: 'muted' }, f.silly ? 'to be cut' : 'to be called')));
    if (f.cuts && f.cuts.length) {
      parts.push(
        h('h3', null, f.cutter ? `Cuts by ${name(f.cutter)} (${f.cutter})` : 'Cuts'),
        h(
          'ol',
          { id: 'viewer-cuts', class: 'viewer-cuts' },
          f.cuts.map((c) => h('li', { 'data-for': c.for }, h('strong', null, c.words), c.note ? ` \u2014 ${c.note}` : '')),
        ),
      );
    }
    const passOns: Child[] = [];
    (f.pass_ons ?? []).forEach((p, k) => {
      passOns.push(
        h(
          'li',
          { 'data-pass-on': k + 1 },
          `Pass-on ${k + 1}, ${DIRECTION[p.direction] ?? ''}: `,
          SEATS.map((s) => h('span', { class: 'vpass', 'data-seat': s }, `${s}: `, (p.cards[s] ?? []).map(cardEl), ' ')),
        ),
      );
    });
    if (f.chosen) {
      passOns.push(
        h(
          'li',
          { class: 'muted' },
          `Pass-on under way${f.pass_dir ? `, ${DIRECTION[f.pass_dir]}` : ''}, chosen so far: `,
          SEATS.filter((s) => f.chosen?.[s]).map((s) => h('span', { class: 'vpass', 'data-seat': s }, `${s}: `, (f.chosen?.[s] ?? []).map(cardEl), ' ')),
        ),
      );
    }
    if (passOns.length) parts.push(h('h3', null, 'Pass-ons'), h('ul', { id: 'viewer-pass-ons', class: 'viewer-pass-ons' }, passOns));
    if (f.piranha) parts.push(h('p', { class: 'small' }, `Piranha: ${name(f.piranha)} took El Kingko in a trick won by an 8`));
    return h('section', { id: 'viewer-fife', class: 'viewer-fife', 'aria-label': 'The Fife game' }, parts);
  }

  function resultTable(d: Deal): HTMLElement {
    const r = d.result as Result;
    const after = d.totals_after ?? [];
    const tricks = r.tricks.some((n) => n > 0);
    return h(
      'div',
      null,
      h('h2', null, r.played ? 'Points of the deal' : 'Points of the deal (not played: nobody doubled)'),
      h(
        'div',
        { class: 'table-scroll' },
        h(
          'table',
          { class: 'viewer-points' },
          h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Seat'), tricks ? h('th', { scope: 'col' }, 'Tricks') : null, h('th', { scope: 'col' }, 'Before doubles'), h('th', { scope: 'col' }, 'After doubles'), h('th', { scope: 'col' }, 'Total'))),
          h(
            'tbody',
            null,
            SEATS.map((s, i) =>
              h(
                'tr',
                { 'data-seat': s },
                h('th', { scope: 'row' }, `${name(s)} (${s})`),
                tricks ? h('td', { class: 'tricks' }, String(r.tricks[i] ?? 0)) : null,
                h('td', { class: 'raw' }, points(r.raw[i] ?? 0)),
                h('td', { class: 'score' }, points(r.score[i] ?? 0)),
                h('td', { class: 'total' }, points(after[i] ?? 0)),
              ),
            ),
          ),
        ),
      ),
      r.settled.length ? h('p', { class: 'small' }, 'Doubles settled: ', r.settled.map((x) => `${x.pair[0]} takes ${x.points} from ${x.pair[1]}${x.level === 2 ? ' (redoubled)' : ''}`).join('; ')) : null,
      r.order ? h('p', { class: 'small' }, `Order out: ${r.order.join(', ')}`) : null,
      r.tricks_left ? h('p', { class: 'small' }, `Ended early: ${r.tricks_left} trick${r.tricks_left === 1 ? '' : 's'} not played`) : null,
    );
  }

  function draw(): void {
    const d = dealOf();
    if (!replay || !d) return;
    const total = d.steps.length;
    at.step = Math.max(0, Math.min(at.step, total));
    const step = at.step > 0 ? d.steps[at.step - 1] : null;
    const t: Table = step
      ? step.table
      : { phase: 'dealt', hands: d.hands, totals: d.totals_before, fife: d.silly !== undefined ? { set: d.set ?? 1, round: d.round ?? 1, silly: !!d.silly, calls_done: [] } : undefined };
    viewer.dataset.state = 'shown';
    viewer.dataset.deal = String(at.deal + 1);
    viewer.dataset.step = String(at.step);
    viewer.dataset.steps = String(total);
    viewer.dataset.phase = t.phase;
    dealSel.value = String(at.deal);
    counter.textContent = `Step ${at.step} of ${total}`;
    const atStart = at.deal === 0 && at.step === 0;
    const atEnd = at.deal === replay.deals.length - 1 && at.step === total;
    prev.disabled = atStart;
    first.disabled = at.step === 0;
    next.disabled = atEnd;
    last.disabled = at.step === total;
    stepEl.textContent = step ? `Deal ${d.deal}, step ${at.step} of ${total}: ${step.words}.` : `Deal ${d.deal} as dealt: ${d.silly ? `${d.dealer} deals the Silly Round` : `${d.declarer} ${replay.fife ? 'calls' : 'declares'}`}.`;
    stepEl.dataset.kind = step ? step.kind : 'dealt';
    dealInfo.replaceChildren(
      h('p', { id: 'viewer-contract' }, d.silly ? `Dealer ${name(d.dealer)} (${d.dealer}) \u00b7 ` : `Declarer ${name(d.declarer)} (${d.declarer}) \u00b7 `, t.contract ? h('strong', null, t.contract) : h('span', { class: 'muted' }, 'not declared yet')),
      h('p', { id: 'viewer-doubles' }, 'Doubles: ', doublesText(t.doubles, t.redoubles)),
    );
    for (const s of SEATS) {
      const cards = t.hands[s] ?? [];
      const el = seatEls[s];
      el.classList.toggle('to-move', t.to_move === s);
      const tricks = t.tricks?.[SEATS.indexOf(s)];
      el.replaceChildren(
        h(
          'h2',
          { class: 'vseat-name' },
          replay.players[s] ? [`${name(s)} `, h('span', { class: 'muted' }, `(${SEAT_NAME[s]})`)] : SEAT_NAME[s],
          s === d.declarer && !d.silly ? h('span', { class: 'vtag' }, replay.fife ? 'Caller' : 'declarer') : null,
          t.to_move === s ? h('span', { class: 'vtag turn' }, 'to act') : null,
        ),
        h('div', { class: 'vhand', 'data-seat': s, 'data-cards': cards.join(' '), 'aria-label': `${SEAT_NAME[s]}\u2019s hand, ${cards.length} card${cards.length === 1 ? '' : 's'}` }, handEl(cards)),
        h('p', { class: 'vseat-score small' }, tricks !== undefined ? `${tricks} trick${tricks === 1 ? '' : 's'} \u00b7 ` : '', `total ${points(t.totals[SEATS.indexOf(s)] ?? 0)}`),
      );
    }
    const kids: Child[] = [];
    const tr = trickEl(t);
    if (tr) kids.push(tr);
    if (t.kind === 'domino' || t.kind === 'patience') kids.push(layoutEl(t));
    centre.replaceChildren(...(kids as Node[]));
    const more: Child[] = [];
    if (t.kind === 'chinese') more.push(rowsEl(t));
    const f = fifeEl(d, t);
    if (f) more.push(f);
    extra.replaceChildren(...(more as Node[]));
    const ended = at.step === total && d.complete && d.result;
    resultEl.hidden = !ended;
    if (ended) resultEl.replaceChildren(resultTable(d));
    else resultEl.replaceChildren();
    drawDecision();
    writeHash();
  }

  /** The analysed seat's decision at this position, if it has one here. */
  function drawDecision(): void {
    const a = analysis;
    const item = a?.items.find((it) => it.deal === at.deal + 1 && it.step - 1 === at.step);
    decisionEl.hidden = !item;
    if (!a || !item) {
      decisionEl.replaceChildren();
      delete decisionEl.dataset.deal;
      return;
    }
    decisionEl.dataset.deal = String(item.deal);
    decisionEl.dataset.step = String(item.step);
    decisionEl.dataset.cost = String(item.cost);
    const who = `${name(a.seat)} (${a.seat})`;
    const verdict = item.forced
      ? 'It was the only choice.'
      : item.cost > 0
        ? `Expected to cost ${pts(item.cost)} point${pts(item.cost) === '1.0' ? '' : 's'} against ${actionText(item.best)}.`
        : 'The best choice, by the expert\u2019s estimate.';
    decisionEl.replaceChildren(
      h('h2', null, `${who} decides here`),
      h('p', { id: 'viewer-decision-verdict', class: item.cost > 0 ? 'viewer-decision-cost' : '' }, `Chosen: ${item.words}. `, h('strong', null, verdict)),
      h(
        'div',
        { class: 'table-scroll' },
        h(
          'table',
          { class: 'viewer-options' },
          h('caption', { class: 'small' }, `The options, with the points of the deal ${who} could expect from each`),
          h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Option'), h('th', { scope: 'col' }, 'Expected points'), h('th', { scope: 'col' }, 'Note'))),
          h(
            'tbody',
            null,
            item.options.map((o, i) => {
              const chosen = o.action === item.chosen;
              const best = i === 0;
              // A card stands for the seat's cards that play alike to it (a Pass-on's cards are its own).
              const alike = /^[2-9TJQKA][CDHS]$/.test(o.action) && o.cards ? o.cards.filter((c) => c !== o.action) : [];
              const same = alike.length ? ` (or ${alike.map(cardShort).join(', ')}, alike)` : '';
              return h(
                'tr',
                { class: `${chosen ? 'chosen' : ''}${best ? ' best' : ''}`, 'data-action': o.action },
                h('th', { scope: 'row' }, actionText(o.action), same),
                h('td', { class: 'value' }, signedPts(o.value)),
                h('td', null, [best ? 'best' : '', chosen ? 'chosen' : ''].filter(Boolean).join(', ')),
              );
            }),
          ),
        ),
      ),
    );
  }

  // ------------------------------------------------------------ analysis

  function stopPolling(): void {
    if (pollTimer !== null) window.clearTimeout(pollTimer);
    pollTimer = null;
  }

  /** Forgets the analysis shown (a new game, a new one asked for). */
  function resetAnalysis(): void {
    analysisRun++;
    stopPolling();
    analysis = null;
    anStatus.textContent = '';
    delete anStatus.dataset.state;
    anSummary.hidden = true;
    anList.hidden = true;
    anList.replaceChildren();
    analyseBtn.disabled = false;
    decisionEl.hidden = true;
  }

  /** The seat chooser: the four seats with their players, the signed-in player's seat chosen if they played, else South. */
  function fillSeats(): void {
    const me = (saved.session() ?? saved.last())?.name?.toLowerCase() ?? '';
    const mine = SEATS.find((s) => me && (replay?.players[s] ?? '').toLowerCase() === me);
    seatPick.replaceChildren(...SEATS.map((s) => h('option', { value: s }, replay?.players[s] ? `${replay.players[s]} (${s})` : SEAT_NAME[s])));
    seatPick.value = mine ?? 'S';
  }

  function analysisStatus(text: string, state: string): void {
    anStatus.textContent = text;
    anStatus.dataset.state = state;
  }

  function showProgress(p: AnalysisProgress, seat: Seat): void {
    const who = `${name(seat)}\u2019s`;
    if (p.status === 'queued') analysisStatus(`Waiting for the server to analyse ${who} decisions (other analyses come first)\u2026`, 'queued');
    else analysisStatus(p.total > 0 ? `Analysing ${who} decisions: ${p.done} of ${p.total} judged\u2026` : `Analysing ${who} decisions\u2026`, 'running');
  }

  function showAnalysis(a: Analysis): void {
    analysis = a;
    analyseBtn.disabled = false;
    const who = `${name(a.seat)} (${a.seat})`;
    const costly = a.worst.length;
    analysisStatus(`The analysis of ${who}\u2019s decisions at level ${a.level} is done.`, 'done');
    anSummary.hidden = false;
    anSummary.textContent =
      `${a.decisions} decision${a.decisions === 1 ? '' : 's'} judged; together they are expected to cost ${pts(a.total_cost)} points. ` +
      (costly === 0
        ? 'None of them cost anything by the expert\u2019s estimate.'
        : costly === 1
          ? 'One of them cost something:'
          : `${costly} cost something, the worst first${costly > ANALYSIS_LISTED ? ` (the ${ANALYSIS_LISTED} costliest listed)` : ''}:`);
    anList.replaceChildren(
      ...a.worst.slice(0, ANALYSIS_LISTED).map((k) => {
        const it = a.items[k];
        const q = new URLSearchParams();
        if (source && 'game' in source) q.set('game', source.game);
        q.set('deal', String(it.deal));
        q.set('step', String(it.step - 1));
        const link = h('a', { href: `#${q.toString()}` }, `Deal ${it.deal}: ${it.words}`, h('span', { class: 'viewer-analysis-cost' }, ` \u2014 expected to cost ${pts(it.cost)} points against ${actionText(it.best)}`));
        link.addEventListener('click', (e) => {
          e.preventDefault();
          go(it.deal - 1, it.step - 1);
          stepEl.scrollIntoView({ block: 'nearest' });
        });
        return h('li', { 'data-deal': String(it.deal), 'data-step': String(it.step), 'data-cost': String(it.cost) }, link);
      }),
    );
    anList.hidden = costly === 0;
    drawDecision();
  }

  function analysisUrl(post: boolean, seat: Seat, level: string, key: string | null): string | null {
    const q = `seat=${seat}&level=${encodeURIComponent(level)}`;
    if (source && 'game' in source) return `/club/api/game/${encodeURIComponent(source.game)}/analysis?${q}`;
    if (post) return `/club/api/analysis?${q}`;
    return key && key.startsWith('record:') ? `/club/api/analysis/${key.slice(7)}?${q}` : null;
  }

  /** One answer of the server about an analysis: done, under way (polled again), or refused. */
  async function analysisAnswer(res: Response, run: number, seat: Seat, level: string): Promise<void> {
    let body: unknown = null;
    try {
      body = await res.json();
    } catch {
      body = null;
    }
    if (run !== analysisRun) return;
    const o = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
    if (res.status === 200 && o.status === 'done' && Array.isArray(o.items)) {
      showAnalysis(o as unknown as Analysis);
      return;
    }
    if (res.status === 202) {
      const p = o as unknown as AnalysisProgress;
      showProgress(p, seat);
      const url = analysisUrl(false, seat, level, typeof p.key === 'string' ? p.key : null);
      if (!url) {
        analysisStatus('The server did not say how to follow the analysis. Ask for it again.', 'error');
        analyseBtn.disabled = false;
        return;
      }
      pollTimer = window.setTimeout(() => void poll(url, run, seat, level), ANALYSIS_POLL_MS);
      return;
    }
    analyseBtn.disabled = false;
    analysisStatus(typeof o.error === 'string' ? o.error : `The server answered ${res.status} without a reason. Try again in a moment.`, 'error');
  }

  async function poll(url: string, run: number, seat: Seat, level: string): Promise<void> {
    pollTimer = null;
    if (run !== analysisRun || !viewer.isConnected) return;
    let res: Response;
    try {
      res = await fetch(url, { headers: { accept: 'application/json' }, credentials: 'same-origin' });
    } catch {
      if (run === analysisRun) pollTimer = window.setTimeout(() => void poll(url, run, seat, level), ANALYSIS_POLL_MS * 3);
      return;
    }
    await analysisAnswer(res, run, seat, level);
  }

  async function startAnalysis(): Promise<void> {
    if (!replay || !source) return;
    resetAnalysis();
    const run = analysisRun;
    const seat = seatPick.value as Seat;
    const level = levelPick.value;
    const url = analysisUrl(true, seat, level, null);
    if (!url) return;
    analyseBtn.disabled = true;
    analysisStatus(`Asking the server to analyse ${name(seat)}\u2019s decisions\u2026`, 'asked');
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'text/plain; charset=utf-8', accept: 'application/json' },
        body: 'text' in source ? source.text : undefined,
        credentials: 'same-origin',
      });
    } catch {
      if (run !== analysisRun) return;
      analyseBtn.disabled = false;
      analysisStatus('The server could not be reached. Check the connection and try again.', 'error');
      return;
    }
    await analysisAnswer(res, run, seat, level);
  }

  /** A game opened: its analysis for the seat and level offered is shown at
   * once when the server keeps it (or followed when it runs); nothing is
   * started. */
  async function peekAnalysis(): Promise<void> {
    if (!source || !('game' in source)) return;
    const run = analysisRun;
    const seat = seatPick.value as Seat;
    const level = levelPick.value;
    const url = analysisUrl(false, seat, level, null);
    if (!url) return;
    let res: Response;
    try {
      res = await fetch(url, { headers: { accept: 'application/json' }, credentials: 'same-origin' });
    } catch {
      return;
    }
    if (run === analysisRun && (res.status === 200 || res.status === 202)) await analysisAnswer(res, run, seat, level);
  }

  analyseBtn.addEventListener('click', () => void startAnalysis());
  seatPick.addEventListener('change', resetAnalysis);
  levelPick.addEventListener('change', resetAnalysis);

  function go(deal: number, step: number): void {
    if (!replay) return;
    at.deal = Math.max(0, Math.min(deal, replay.deals.length - 1));
    at.step = step;
    draw();
  }

  function forward(): void {
    const d = dealOf();
    if (!replay || !d) return;
    if (at.step < d.steps.length) go(at.deal, at.step + 1);
    else if (at.deal + 1 < replay.deals.length) go(at.deal + 1, 0);
  }

  function back(): void {
    const d = dealOf();
    if (!replay || !d) return;
    if (at.step > 0) go(at.deal, at.step - 1);
    else if (at.deal > 0) go(at.deal - 1, replay.deals[at.deal - 1].steps.length);
  }

  first.addEventListener('click', () => go(at.deal, 0));
  last.addEventListener('click', () => go(at.deal, dealOf()?.steps.length ?? 0));
  prev.addEventListener('click', back);
  next.addEventListener('click', forward);
  dealSel.addEventListener('change', () => go(Number(dealSel.value), 0));

  const onKey = (e: KeyboardEvent): void => {
    if (!viewer.isConnected) {
      document.removeEventListener('keydown', onKey);
      return;
    }
    if (!replay || e.altKey || e.ctrlKey || e.metaKey) return;
    const target = e.target as HTMLElement | null;
    if (target && (target.tagName === 'SELECT' || target.tagName === 'INPUT' || target.tagName === 'TEXTAREA')) return;
    const d = dealOf();
    if (e.key === 'ArrowRight') forward();
    else if (e.key === 'ArrowLeft') back();
    else if (e.key === 'Home') go(at.deal, 0);
    else if (e.key === 'End') go(at.deal, d?.steps.length ?? 0);
    else return;
    e.preventDefault();
  };
  document.addEventListener('keydown', onKey);

  function shown(r: Replay, src: typeof source, place: Place): void {
    if (!Array.isArray(r.deals) || r.deals.length === 0) {
      showError('This record has no deal to show.');
      return;
    }
    replay = r;
    source = src;
    clearError();
    intro.hidden = true;
    board.hidden = false;
    resetAnalysis();
    fillSeats();
    drawGame();
    go(place.deal, place.step);
    void peekAnalysis();
  }

  async function answer(res: Response): Promise<{ ok: true; data: Replay } | { ok: false; error: string }> {
    let body: unknown = null;
    try {
      body = await res.json();
    } catch {
      body = null;
    }
    if (!res.ok) {
      const said = body && typeof body === 'object' && typeof (body as { error?: unknown }).error === 'string' ? (body as { error: string }).error : '';
      return { ok: false, error: said || `The server answered ${res.status} without a reason. Try again in a moment.` };
    }
    if (!body || typeof body !== 'object') return { ok: false, error: 'The server sent something that is not a replay. Try again in a moment.' };
    return { ok: true, data: body as Replay };
  }

  async function openGame(id: string, place: Place): Promise<void> {
    viewer.dataset.state = 'loading';
    let res: Response;
    try {
      res = await fetch(`/club/api/game/${encodeURIComponent(id)}/replay`, { headers: { accept: 'application/json' }, credentials: 'same-origin' });
    } catch {
      showError('The server could not be reached. Check the connection and reload the page.');
      return;
    }
    const got = await answer(res);
    if (!got.ok) showError(got.error);
    else shown(got.data, { game: id }, place);
  }

  async function openFile(file: File): Promise<void> {
    if (file.size > MAX_FILE) {
      showError(`${file.name} is ${Math.ceil(file.size / 1024)} KiB: a game record is at most 1 MiB. Pick the record file of one game.`);
      return;
    }
    viewer.dataset.state = 'loading';
    const text = await file.text();
    let res: Response;
    try {
      res = await fetch('/club/api/replay', { method: 'POST', headers: { 'content-type': 'text/plain; charset=utf-8', accept: 'application/json' }, body: text, credentials: 'same-origin' });
    } catch {
      showError('The server could not be reached. Check the connection and try again.');
      return;
    }
    const got = await answer(res);
    if (!got.ok) showError(res.status === 400 ? `${file.name}: ${got.error.replace(/\.?$/, '.')} The engine replays a record only as the game was played: correct that line, or pick another record file.` : `${file.name}: ${got.error}`);
    else shown(got.data, { file: file.name, text }, { deal: 0, step: 0 });
  }

  fileInput.addEventListener('change', () => {
    const f = fileInput.files?.[0];
    if (f) void openFile(f);
    fileInput.value = '';
  });
  viewer.addEventListener('dragover', (e) => {
    e.preventDefault();
    viewer.classList.add('drop');
  });
  viewer.addEventListener('dragleave', () => viewer.classList.remove('drop'));
  viewer.addEventListener('drop', (e) => {
    e.preventDefault();
    viewer.classList.remove('drop');
    const f = e.dataTransfer?.files?.[0];
    if (f) void openFile(f);
  });

  function fromHash(): void {
    const q = new URLSearchParams(location.hash.replace(/^#/, ''));
    const game = q.get('game');
    const deal = Math.max(1, Number(q.get('deal') ?? '1') || 1) - 1;
    const step = Math.max(0, Number(q.get('step') ?? '0') || 0);
    if (game && /^[0-9]{1,18}$/.test(game)) {
      if (replay && source && 'game' in source && source.game === game) go(deal, step);
      else void openGame(game, { deal, step });
    } else if (game) {
      showError('The address names no game: a game is a number, as in #game=12.');
    } else if (replay) {
      go(deal, step);
    }
  }
  const onHash = (): void => {
    if (!viewer.isConnected) {
      window.removeEventListener('hashchange', onHash);
      return;
    }
    fromHash();
  };
  window.addEventListener('hashchange', onHash);
  fromHash();
}
