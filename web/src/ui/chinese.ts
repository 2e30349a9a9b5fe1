// Chinese Poker (#arrange): building the three rows from the hand (pick
// cards in #hand, then put them in a row), setting them, who has set theirs;
// after the deal everybody's rows and the scores (#showdown).  The server
// judges the rows: its refusal is shown in #arrange-error.

import { h } from '../dom';
import type { Card, Rows, Seat } from '../protocol';
import { SEATS } from '../protocol';
import { SEAT_NAME, cardLabel, points, sortHand } from '../names';
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

  let hint: string;
  if (!myTurn && v?.to_move) hint = `The rows are set in turn: ${SEAT_NAME[v.to_move]} first, then you.`;
  else if (!full) hint = 'Pick cards in your hand, then put them in a row: the back row the strongest, the front the weakest.';
  else hint = 'Your rows are complete: set them.';

  return h(
    'section',
    { id: 'arrange', class: 'arrange', 'aria-label': 'Set your rows' },
    h('h2', null, 'Set your rows'),
    h('p', { class: 'arrange-hint' }, hint),
    rows,
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

function rowsView(rows: Rows, mini = false): HTMLElement {
  return h(
    'div',
    { class: 'rows-view' },
    ROWS.map((r) =>
      h(
        'div',
        { class: 'rows-view-row', 'data-row-name': r },
        h('span', { class: 'row-title' }, TITLE[r]),
        h('div', { class: 'row-cards' }, rowCards(rows[r], SIZE[r], mini)),
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

/** Whether the person opened the folded showdown (kept across redraws). */
let showdownOpen: { deal: number; open: boolean } = { deal: -1, open: false };

/** After a Chinese Poker deal: everybody's rows and the scores, until the
 * next deal's play starts.  Folded while this seat has to act, so the
 * chooser and the hand stay in view. */
export function renderShowdown(ctx: Ctx): HTMLElement | null {
  const v = ctx.v;
  const ld = v?.last_deal;
  if (!v || !ld || !ld.rows || ld.deal !== v.deal - 1) return null;
  if (v.phase === 'play' || v.phase === 'arrange' || v.phase === 'over') return null;
  const rows = ld.rows;
  const seats = h(
    'div',
    { class: 'showdown-seats' },
    SEATS.map((s, i) => {
      const r = rows[s];
      return h(
        'div',
        { class: 'showdown-seat', 'data-seat': s },
        h(
          'div',
          { class: 'showdown-name' },
          s === ctx.me ? 'You' : SEAT_NAME[s],
          ' ',
          h('strong', null, points(ld.score[i])),
        ),
        r ? rowsView(r, true) : h('p', null, '—'),
      );
    }),
  );
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
