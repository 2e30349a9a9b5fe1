// Chinese Poker (#arrange): building the three rows from the hand (pick
// cards in #hand, then put them in a row), each row's poker hand named as
// it grows (.row-name), a warning when the rows foul, the scoring in a few
// sentences, the computer's suggestion (#arrange-suggest), setting them, who
// has set theirs; after the deal everybody's rows, who beat whom row by row
// and the units won (#showdown, again from #showdown-btn later), and the
// score window's per-row results (.row-result).  The server judges the
// rows: its refusal is shown in #arrange-error.

import type { App, AppState } from '../app';
import { mySeat } from '../app';
import { h } from '../dom';
import type { Card, DealResult, Rows, Seat, SuggestionMsg, TableRules } from '../protocol';
import { SEATS } from '../protocol';
import { SEAT_NAME, cardLabel, points, sortHand } from '../names';
import { ROW_KEYS, ROW_TITLE, foulWarning, fouled, handName, matchup } from '../poker';
import { cardFace } from './cards';
import { handMode } from './hand';
import type { Ctx } from './table';

type RowName = 'back' | 'middle' | 'front';
const ROWS: RowName[] = ['back', 'middle', 'front'];
const SIZE: Record<RowName, number> = { back: 5, middle: 5, front: 3 };
const TITLE: Record<RowName, string> = { back: 'Back row', middle: 'Middle row', front: 'Front row' };

/** Drops from the rows and the picks any card no longer in the hand. */
function tidy(ctx: Ctx): void {
  const ui = ctx.app.state.ui;
  const hand = new Set(ctx.me ? (ctx.v?.hands[ctx.me] ?? []) : []);
  for (const r of ROWS) ui.rows[r] = ui.rows[r].filter((c) => hand.has(c));
  const used = new Set([...ui.rows.back, ...ui.rows.middle, ...ui.rows.front]);
  ui.picked = ui.picked.filter((c) => hand.has(c) && !used.has(c));
}

function rowCards(cards: Card[], size: number, mini = false): HTMLElement[] {
  const out: HTMLElement[] = sortHand(cards).map((c) =>
    h('div', { class: 'row-card', 'data-card': c, role: 'img', 'aria-label': cardLabel(c) }, cardFace(c, { mini })),
  );
  for (let i = cards.length; i < size; i++) out.push(h('div', { class: 'row-slot', 'aria-hidden': 'true' }));
  return out;
}

function builder(ctx: Ctx): HTMLElement {
  const { app, v, me } = ctx;
  tidy(ctx);
  const ui = app.state.ui;
  const full = ROWS.every((r) => ui.rows[r].length === SIZE[r]);
  const myTurn = v?.to_move === me && handMode(ctx) === 'arrange';

  const putIn = (r: RowName): void => {
    const space = SIZE[r] - ui.rows[r].length;
    const moving = ui.picked.slice(0, space);
    ui.rows[r] = [...ui.rows[r], ...moving];
    ui.picked = ui.picked.filter((c) => !moving.includes(c));
    ui.arrangeError = undefined;
    app.update();
  };
  const takeBack = (r: RowName, c: Card): void => {
    ui.rows[r] = ui.rows[r].filter((x) => x !== c);
    ui.arrangeError = undefined;
    app.update();
  };
  const clear = (): void => {
    ui.rows = { back: [], middle: [], front: [] };
    ui.picked = [];
    ui.arrangeError = undefined;
    app.update();
  };
  const submit = (): void => {
    if (!full || !myTurn) return;
    app.act({ type: 'arrange', back: [...ui.rows.back], middle: [...ui.rows.middle] });
  };

  const rows = ROWS.map((r) => {
    const cards = sortHand(ui.rows[r]);
    const space = SIZE[r] - cards.length;
    return h(
      'div',
      { class: 'arrange-row', 'data-row-name': r },
      h(
        'div',
        { class: 'row-head' },
        h('span', { class: 'row-title' }, TITLE[r]),
        h('span', { class: 'row-count' }, `${cards.length} of ${SIZE[r]}`),
        h('span', { class: 'row-name', 'data-row': r, 'aria-live': 'polite' }, buildingName(r, cards)),
        h(
          'button',
          {
            type: 'button',
            class: 't-small',
            'data-row': r,
            'data-focus': `row-btn-${r}`,
            disabled: !myTurn || ui.picked.length === 0 || space === 0,
            onclick: () => putIn(r),
          },
          `Put in ${r} row`,
        ),
      ),
      h(
        'div',
        { id: `row-${r}`, class: 'row-cards', role: 'group', 'aria-label': `${TITLE[r]}: ${cards.length} of ${SIZE[r]} cards` },
        cards.map((c) =>
          h(
            'button',
            {
              type: 'button',
              class: 'card',
              'data-card': c,
              'data-focus': `row-${c}`,
              'aria-label': `${cardLabel(c)}, ${TITLE[r].toLowerCase()}: take back to the hand`,
              'aria-disabled': myTurn ? null : 'true',
              onclick: () => {
                if (myTurn) takeBack(r, c);
              },
            },
            cardFace(c),
          ),
        ),
        Array.from({ length: space }, () => h('div', { class: 'row-slot', 'aria-hidden': 'true' })),
      ),
    );
  });

  const foul = full || ui.rows.back.length + ui.rows.middle.length + ui.rows.front.length > 0 ? foulWarning(ui.rows) : null;
  let hint: string;
  if (!myTurn && v?.to_move) hint = `The rows are set in turn: ${SEAT_NAME[v.to_move]} first, then you.`;
  else if (!full) hint = 'Pick cards in your hand, then put them in a row: the back row the strongest, the front the weakest.';
  else if (foul) hint = 'Your rows are complete but foul: move cards between rows, or ask for a suggestion.';
  else hint = 'Your rows are complete: set them.';

  return h(
    'section',
    { id: 'arrange', class: 'arrange', 'aria-label': 'Set your rows' },
    h('h2', null, 'Set your rows'),
    h('p', { class: 'arrange-hint' }, hint),
    scoringText(ctx.rules),
    rows,
    h(
      'p',
      { id: 'arrange-foul', class: `arrange-foul${foul ? ' is-foul' : full ? ' is-ready' : ''}`, role: 'status' },
      foul ? h('strong', null, 'These rows foul. ') : null,
      foul ?? (full ? 'The rows are in order: the back beats or ties the middle, and the middle the front.' : ''),
    ),
    h(
      'div',
      { class: 'arrange-actions' },
      h(
        'button',
        {
          type: 'button',
          id: 'arrange-submit',
          class: 't-primary',
          'data-focus': 'arrange-submit',
          disabled: !(full && myTurn),
          onclick: submit,
        },
        'Set these rows',
      ),
      h(
        'button',
        {
          type: 'button',
          id: 'arrange-suggest',
          'data-focus': 'arrange-suggest',
          disabled: !myTurn || suggesting === ctx.vm?.at,
          title: 'Fills the rows with the computer player’s choice; you can still change them',
          onclick: () => {
            suggesting = ctx.vm?.at ?? null;
            app.send({ type: 'suggest' });
            app.update();
          },
        },
        suggesting === ctx.vm?.at ? 'Asking the computer…' : 'Suggest rows',
      ),
      h(
        'button',
        { type: 'button', class: 't-small', 'data-focus': 'arrange-clear', disabled: !myTurn, onclick: clear },
        'Clear the rows',
      ),
      arrangedLine(ctx),
    ),
    h('p', { id: 'arrange-error', class: 'arrange-error', role: 'alert' }, ui.arrangeError ?? ''),
  );
}

function arrangedLine(ctx: Ctx): HTMLElement | null {
  const v = ctx.v;
  if (!v) return null;
  const done = v.arranged;
  const left = SEATS.filter((s) => !done.includes(s));
  const name = (s: Seat): string => (s === ctx.me ? 'you' : SEAT_NAME[s]);
  return h(
    'p',
    { class: 'arranged' },
    done.length > 0 ? `Rows set: ${done.map(name).join(', ')}.` : 'Nobody has set their rows yet.',
    left.length > 0 ? ` Still to set: ${left.map(name).join(', ')}.` : '',
  );
}


/** The `at` a suggestion was asked for (the button waits), or null. */
let suggesting: number | null = null;

/** The server's `suggestion`: its rows fill the builder (for the view it
 * was asked in; the person may still change them before setting them). */
export function applySuggestion(state: AppState, msg: SuggestionMsg): void {
  suggesting = null;
  const vm = state.view;
  const me = mySeat(state);
  if (!vm || vm.table !== msg.table || vm.at !== msg.at) return;
  const hand = (me ? vm.view.hands[me] : undefined) ?? [];
  const back = (msg.action.back ?? []).filter((c) => hand.includes(c));
  const middle = (msg.action.middle ?? []).filter((c) => hand.includes(c) && !back.includes(c));
  const front = hand.filter((c) => !back.includes(c) && !middle.includes(c));
  state.ui.rows = { back, middle, front };
  state.ui.picked = [];
  state.ui.arrangeError = undefined;
}

/** The server refused a `suggest` (its error is shown as a notice): the button is free again. */
export function suggestRefused(): void {
  suggesting = null;
}

/** A row's hand as it is built: "Back: Full House, queens over fours";
 * while it is incomplete, what it holds so far and how many cards are to come. */
function buildingName(r: RowName, cards: Card[]): string {
  const left = SIZE[r] - cards.length;
  if (cards.length === 0) return `${ROW_TITLE[r]}: ${SIZE[r]} cards to place`;
  if (left === 0) return `${ROW_TITLE[r]}: ${handName(cards)}`;
  return `${ROW_TITLE[r]}: ${handName(cards)} so far, ${left} more card${left === 1 ? '' : 's'}`;
}

/** Chinese Poker's scoring numbers: points a row and a scoop's extra rows
 * (the rule set's when the server sends them, else docs/rules.md's). */
export function chineseScoring(rules: TableRules | undefined): { perRow: number; scoop: number } {
  const c = rules?.contracts.find((k) => k.kind === 'chinese');
  return { perRow: c?.per_row ?? 4, scoop: c?.scoop ?? 3 };
}

function scoringText(rules: TableRules | undefined): HTMLElement {
  const { perRow, scoop } = chineseScoring(rules);
  // The table's rules page (rule_set.rules_url, docs/protocol.md), its Chinese Poker section.
  const rulesUrl = (rules as { rules_url?: string } | undefined)?.rules_url;
  return h(
    'div',
    { class: 'arrange-scoring', id: 'arrange-scoring' },
    h(
      'p',
      null,
      h('strong', null, 'Scoring. '),
      'Each of your rows is compared with the same row of each other player: a row won is 1 unit, a row lost −1 unit, equal rows 0. ',
      `Winning all three rows against one player is a scoop: ${scoop} more units from that player (${3 + scoop} in all). `,
      `A unit is ${perRow} points. The back row must be at least as strong as the middle, and the middle as the front, or the rows foul. `,
      'The front row of three counts only three of a kind, a pair and high card. ',
      rulesUrl
        ? h('a', { class: 'rules-link', href: `${rulesUrl}#chinese`, target: '_blank', rel: 'noopener' }, 'The rules of Chinese Poker')
        : null,
    ),
  );
}

function rowsView(rows: Rows, mini = false, results?: (string | null)[]): HTMLElement {
  return h(
    'div',
    { class: 'rows-view' },
    ROWS.map((r, i) =>
      h(
        'div',
        { class: 'rows-view-row', 'data-row-name': r },
        h('span', { class: 'row-title' }, TITLE[r]),
        h('div', { class: 'row-cards' }, rowCards(rows[r], SIZE[r], mini)),
        rows[r].length === SIZE[r]
          ? h(
              'div',
              { class: 'row-info' },
              h('span', { class: 'row-name', 'data-row': r }, `${ROW_TITLE[r]}: ${handName(rows[r])}`),
              results?.[i] ? h('span', { class: 'row-beats' }, results[i]) : null,
            )
          : null,
      ),
    ),
  );
}

/** Chinese Poker's arrangement: the builder, or the rows set and who has set theirs. */
export function renderArrange(ctx: Ctx): HTMLElement | null {
  const v = ctx.v;
  if (!v || v.kind !== 'chinese' || v.phase !== 'arrange') return null;
  if (ctx.me && ctx.t.state === 'playing' && !v.arranged.includes(ctx.me)) return builder(ctx);
  const mine = v.rows;
  const whose = ctx.me ? 'Your rows' : `${SEAT_NAME[ctx.bottom]}'s rows`;
  return h(
    'section',
    { id: 'arrange', class: 'arrange done', 'aria-label': 'Rows' },
    h('h2', null, mine ? whose : 'Setting the rows'),
    mine ? rowsView(mine) : h('p', null, ctx.kibitz ? `${SEAT_NAME[ctx.bottom]} has not set their rows yet.` : ''),
    arrangedLine(ctx),
    h('p', { class: 'arrange-hint' }, 'Nobody sees another player’s rows until all four are set.'),
  );
}

// ------------------------------------------------------------- showdown

/** The latest Chinese Poker deal this page has seen (from the view's
 * `last_deal` or the score message's deals), so that its showdown can be
 * opened again after the next deal starts. */
let lastChinese: { table: number; deal: DealResult } | null = null;
/** Whether the person opened the folded showdown (kept across redraws). */
let showdownOpen: { deal: number; open: boolean } = { deal: -1, open: false };
/** The showdown opened by #showdown-btn (a dialog over the table). */
let dialogOpen = false;
let returnFocus: HTMLElement | null = null;

function noteChinese(app: App): DealResult | null {
  const t = app.state.table;
  if (!t) return null;
  if (lastChinese && lastChinese.table !== t.id) lastChinese = null;
  const consider = (d: DealResult | undefined): void => {
    if (!d || !d.rows || !d.played) return;
    if (!lastChinese || lastChinese.deal.deal <= d.deal) lastChinese = { table: t.id, deal: d };
  };
  const vm = app.state.view;
  if (vm && vm.table === t.id) consider(vm.view.last_deal);
  const sc = app.state.score;
  if (sc && sc.table === t.id) for (const d of sc.deals) consider(d);
  return lastChinese?.deal ?? null;
}

export interface SeatResult {
  /** Net units by row (back, middle, front), scoops not included. */
  rows: number[];
  /** Net units of scoops (including fouls' scoops). */
  scoops: number;
  units: number;
  /** For each row, the seats beaten, lost to, tied with. */
  beats: Seat[][];
  losesTo: Seat[][];
  ties: Seat[][];
  fouled: boolean;
}

/** Each seat's results against the other three, as the engine scores them. */
export function seatResults(rows: Partial<Record<Seat, Rows>>, scoop: number): Partial<Record<Seat, SeatResult>> {
  const out: Partial<Record<Seat, SeatResult>> = {};
  for (const a of SEATS) {
    const ra = rows[a];
    if (!ra) continue;
    const res: SeatResult = { rows: [0, 0, 0], scoops: 0, units: 0, beats: [[], [], []], losesTo: [[], [], []], ties: [[], [], []], fouled: fouled(ra) };
    for (const b of SEATS) {
      const rb = rows[b];
      if (b === a || !rb) continue;
      const m = matchup(ra, rb, scoop);
      m.rows.forEach((o, i) => {
        res.rows[i] += o;
        (o > 0 ? res.beats : o < 0 ? res.losesTo : res.ties)[i].push(b);
      });
      res.units += m.units;
      res.scoops += m.units - m.rows.reduce<number>((x, y) => x + y, 0);
    }
    out[a] = res;
  }
  return out;
}

function signed(n: number): string {
  return n > 0 ? `+${n}` : n < 0 ? `\u2212${-n}` : '0';
}

function seatList(ctx: Ctx, seats: Seat[]): string {
  const names = seats.map((s) => (s === ctx.me ? 'you' : SEAT_NAME[s]));
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** "beats East and South; loses to West" for one row of one seat. */
function beatsText(ctx: Ctx, r: SeatResult, i: number): string {
  const parts: string[] = [];
  if (r.beats[i].length) parts.push(`beats ${seatList(ctx, r.beats[i])}`);
  if (r.losesTo[i].length) parts.push(`loses to ${seatList(ctx, r.losesTo[i])}`);
  if (r.ties[i].length) parts.push(`ties ${seatList(ctx, r.ties[i])}`);
  return `${parts.join('; ')} (${signed(r.rows[i])})`;
}

function showdownSeats(ctx: Ctx, ld: DealResult): HTMLElement {
  const rows = ld.rows ?? {};
  const { scoop } = chineseScoring(ctx.rules);
  const res = seatResults(rows, scoop);
  return h(
    'div',
    { class: 'showdown-seats' },
    SEATS.map((s, i) => {
      const r = rows[s];
      const sr = res[s];
      const who = s === ctx.me ? 'You' : SEAT_NAME[s];
      const settled = ld.score[i] !== ld.raw[i] ? ` (${points(ld.score[i])} after doubles)` : '';
      return h(
        'div',
        { class: `showdown-seat${s === ctx.me ? ' is-me' : ''}`, 'data-seat': s },
        h(
          'div',
          { class: 'showdown-name' },
          h('span', { class: 'showdown-who' }, who),
          ' ',
          h(
            'strong',
            { class: `showdown-units ${ld.raw[i] < 0 ? 'neg' : ld.raw[i] > 0 ? 'pos' : ''}`, 'data-units': sr ? sr.units : '' },
            sr ? `${signed(sr.units)} unit${Math.abs(sr.units) === 1 ? '' : 's'}, ` : '',
            `${points(ld.raw[i])} points${settled}`,
          ),
        ),
        sr?.fouled ? h('p', { class: 'showdown-foul' }, 'Fouled: loses every row to each player whose rows are in order.') : null,
        r ? rowsView(r, true, sr ? [0, 1, 2].map((k) => beatsText(ctx, sr, k)) : undefined) : h('p', null, '—'),
        sr && sr.scoops !== 0 ? h('p', { class: 'showdown-scoop' }, `Scoops: ${signed(sr.scoops)} units`) : null,
      );
    }),
  );
}

/** After a Chinese Poker deal: everybody's rows, who beat whom and the
 * scores, until the next deal's play starts (folded while this seat has to
 * act, so the chooser and the hand stay in view); later, from
 * #showdown-btn, as a dialog over the table. */
export function renderShowdown(ctx: Ctx): HTMLElement | null {
  const v = ctx.v;
  const ld = v?.last_deal;
  noteChinese(ctx.app);
  if (dialogOpen) return null;
  if (!v || !ld || !ld.rows || ld.deal !== v.deal - 1) return null;
  if (v.phase === 'play' || v.phase === 'arrange' || v.phase === 'over') return null;
  const seats = showdownSeats(ctx, ld);
  const title = `Chinese Poker, deal ${ld.deal + 1}: everybody’s rows`;
  if (ctx.me && v.to_move === ctx.me) {
    const open = showdownOpen.deal === ld.deal && showdownOpen.open;
    const deal = ld.deal;
    return h(
      'details',
      {
        id: 'showdown',
        class: 'showdown',
        open,
        ontoggle: (e: Event) => {
          showdownOpen = { deal, open: (e.currentTarget as HTMLDetailsElement).open };
        },
      },
      h('summary', { 'data-focus': 'showdown-summary' }, title),
      seats,
    );
  }
  return h('section', { id: 'showdown', class: 'showdown', 'aria-label': title }, h('h3', null, title), seats);
}

function closeDialog(app: App): void {
  dialogOpen = false;
  app.update();
  const back = returnFocus;
  returnFocus = null;
  setTimeout(() => (back && back.isConnected ? back : document.getElementById('showdown-btn'))?.focus(), 0);
}

document.addEventListener('keydown', (e) => {
  if (e.key !== 'Escape' || !dialogOpen || !dialogApp || e.defaultPrevented) return;
  e.preventDefault();
  closeDialog(dialogApp);
});
let dialogApp: App | null = null;

/** The table bar's button that shows the last Chinese Poker showdown again
 * (there once a Chinese Poker deal has been seen at this table). */
export function showdownButton(ctx: Ctx): HTMLElement | null {
  const ld = noteChinese(ctx.app);
  if (!ld) return null;
  return h(
    'button',
    {
      type: 'button',
      id: 'showdown-btn',
      'data-focus': 'showdown-btn',
      'aria-pressed': String(dialogOpen),
      'aria-label': `Showdown of deal ${ld.deal + 1}`,
      onclick: () => {
        if (dialogOpen) {
          closeDialog(ctx.app);
          return;
        }
        const a = document.activeElement;
        returnFocus = a instanceof HTMLElement ? a : null;
        dialogOpen = true;
        ctx.app.update();
        setTimeout(() => document.getElementById('showdown-title')?.focus(), 0);
      },
    },
    'Showdown',
  );
}

/** The last showdown as a dialog over the table, while opened. */
export function renderShowdownDialog(ctx: Ctx): HTMLElement | null {
  dialogApp = ctx.app;
  const ld = noteChinese(ctx.app);
  if (!dialogOpen || !ld) return null;
  const title = `Chinese Poker, deal ${ld.deal + 1}: the showdown`;
  const layer = h(
    'div',
    {
      class: 'showdown-layer',
      onclick: (e: Event) => {
        if (e.target === layer) closeDialog(ctx.app);
      },
    },
    h(
      'div',
      { id: 'showdown', class: 'showdown showdown-dialog', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'showdown-title' },
      h(
        'div',
        { class: 'showdown-top' },
        h('h2', { id: 'showdown-title', tabindex: '-1', 'data-focus': 'showdown-title' }, title),
        h(
          'button',
          { type: 'button', id: 'showdown-close', class: 'btn ghost', 'data-focus': 'showdown-close', onclick: () => closeDialog(ctx.app) },
          h('span', { 'aria-hidden': 'true' }, '\u2715 '),
          'Close',
        ),
      ),
      showdownSeats(ctx, ld),
    ),
  );
  return layer;
}

/** The score window's per-row results of a Chinese Poker deal for one seat:
 * net units by row (against the three others) and the scoops. */
export function rowResult(d: DealResult, seat: Seat, rules: TableRules | undefined): HTMLElement | null {
  if (!d.rows || !d.played) return null;
  const sr = seatResults(d.rows, chineseScoring(rules).scoop)[seat];
  if (!sr) return null;
  const words = ROW_KEYS.map((r, i) => `${r} ${signed(sr.rows[i])}`);
  if (sr.scoops) words.push(`scoops ${signed(sr.scoops)}`);
  return h(
    'span',
    { class: 'row-result', 'data-seat': seat, title: `Units by row: ${words.join(', ')}`, 'aria-label': `Units by row: ${words.join(', ')}` },
    ROW_KEYS.map((r, i) => h('span', { class: 'row-result-row', 'data-row': r, 'data-units': sr.rows[i] }, `${r} ${signed(sr.rows[i])}`)),
    sr.scoops ? h('span', { class: 'row-result-row', 'data-row': 'scoop', 'data-units': sr.scoops }, `scoops ${signed(sr.scoops)}`) : null,
  );
}
