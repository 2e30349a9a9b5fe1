// The score window (#score): a modal dialog over the table with every deal
// so far (declarer, contracts, doubles, each seat's points before and after
// the settlement of doubles, running totals), the totals and, at the end,
// the final standings.  The Fife game shows its score sheet with the
// pictures, a page from the server, in a sandboxed frame (no scripts, no
// access to this page); nothing from the server is ever parsed as markup
// here.

import type { App } from '../app';
import { mySeat } from '../app';
import { h } from '../dom';
import { dealTitle, points, SEAT_NAME } from '../names';
import type { DealResult, Four, ScoreMsg, Seat, TableRules } from '../protocol';
import { SEATS } from '../protocol';
import { bidsInWords } from './bid';
import { comboName } from './declare';
import { rowResult } from './chinese';

/** The score window keeps its frame (and its scroll) while the sheet is the same. */
interface Cache {
  title: HTMLElement;
  desc: HTMLElement;
  layer: HTMLElement;
  dialog: HTMLElement;
  head: HTMLElement;
  body: HTMLElement;
  standings: HTMLElement;
  sheetBox: HTMLElement;
  deals: HTMLElement;
  foot: HTMLElement;
  score: ScoreMsg | null;
  sheetKey: string | null;
  key: string;
}

let cache: Cache | null = null;
let wasOpen = false;
/** The number of completed deals the latest score request was sent for. */
let askedFor = -1;
let returnFocus: HTMLElement | null = null;

// Esc closes the window wherever the focus is (the dialog's own handler
// also traps Tab).
let escApp: App | null = null;
document.addEventListener('keydown', (e) => {
  if (e.key !== 'Escape' || !escApp || !escApp.state.ui.showScore || !cache?.layer.isConnected) return;
  if (e.defaultPrevented) return;
  e.preventDefault();
  closeScore(escApp);
});

/** Asks the server for the table's score and opens the window. */
export function openScore(app: App): void {
  const active = document.activeElement;
  returnFocus = active instanceof HTMLElement ? active : null;
  app.state.ui.showScore = true;
  askedFor = completedDeals(app);
  app.send({ type: 'score' });
  app.update();
}

function closeScore(app: App): void {
  app.state.ui.showScore = false;
  app.update();
  const back = returnFocus;
  returnFocus = null;
  setTimeout(() => {
    const el = back && back.isConnected ? back : document.getElementById('score-btn');
    el?.focus();
  }, 0);
}

/** Deals completed so far, as the latest view tells. */
function completedDeals(app: App): number {
  const v = app.state.view?.view;
  if (!v) return 0;
  if (v.last_deal) return v.last_deal.deal + 1;
  return v.phase === 'over' ? v.deals : v.deal;
}

function contractText(d: DealResult, rules: TableRules | undefined, fife: boolean): string {
  if (fife) return comboName(d.contracts, rules);
  return dealTitle(d.contracts, rules, d.trump, d.rank);
}

/** Places with ties sharing the better place: [1, 2, 2, 4]. */
function places(totals: Four<number>): number[] {
  return totals.map((t) => 1 + totals.filter((x) => x > t).length);
}

function ordinal(n: number): string {
  return n === 1 ? '1st' : n === 2 ? '2nd' : n === 3 ? '3rd' : `${n}th`;
}

function playerName(score: ScoreMsg | null, app: App, s: Seat): string {
  const i = SEATS.indexOf(s);
  return score?.players[i] ?? app.state.table?.seats[i]?.player ?? app.state.table?.seats[i]?.name ?? '';
}

function dealsTable(app: App, score: ScoreMsg, fife: boolean): HTMLElement {
  const rules = app.state.table?.rule_set;
  const me = mySeat(app.state);
  const running: number[] = [0, 0, 0, 0];
  const rows = score.deals.map((d) => {
    d.score.forEach((x, i) => (running[i] += x));
    const bids = bidsInWords(d.doubles ?? {}, d.redoubles ?? {}, SEATS);
    let where = '';
    if (fife && d.round !== undefined)
      where = d.round === 4 ? `Silly ${(d.round_deal ?? 0) + 1}` : `R${d.round + 1}.${(d.round_deal ?? 0) + 1}`;
    return h(
      'tr',
      { class: d.played ? '' : 'is-shared' },
      h('th', { scope: 'row', class: 'num score-deal' }, String(d.deal + 1), where ? h('span', { class: 'score-where' }, where) : null),
      h('td', { class: 'score-decl' }, d.declarer ? (fife && d.round === 4 ? '\u2014' : d.declarer) : '\u2014'),
      h(
        'td',
        { class: 'score-contract' },
        contractText(d, rules, fife),
        d.played ? null : h('span', { class: 'score-shared' }, 'not played \u2014 shared'),
        d.piranha ? h('span', { class: 'score-shared' }, `Piranha: ${SEAT_NAME[d.piranha]}`) : null,
      ),
      fife ? null : h('td', { class: `score-bids${bids ? '' : ' is-empty'}` }, bids || '\u2014'),
      SEATS.map((s, i) => {
        const raw = d.raw[i];
        const fin = d.score[i];
        return h(
          'td',
          { class: `num score-seat${s === me ? ' is-me' : ''}`, 'data-seat': s },
          h('span', { class: 'score-seat-name', 'aria-hidden': 'true' }, s),
          h('span', { class: 'score-pts' }, points(raw)),
          fin !== raw
            ? h('span', { class: 'score-settled' }, `(${points(fin)} after doubles)`)
            : null,
          rowResult(d, s, rules),
          h('span', { class: 'score-run', title: 'running total' }, h('span', { class: 'sr-only' }, 'total '), `\u03a3 ${points(running[i])}`),
        );
      }),
    );
  });
  return h(
    'div',
    { class: 'score-scroll', tabindex: '0', role: 'region', 'aria-label': 'Deals' },
    h(
      'table',
      { class: 'score-table' },
      h('caption', { class: 'sr-only' }, 'Every deal: points before doubles, after the settlement of doubles, and the running total'),
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          h('th', { scope: 'col', class: 'num score-meta' }, 'Deal'),
          h('th', { scope: 'col', class: 'score-meta' }, h('abbr', { title: fife ? 'Caller' : 'Declarer' }, fife ? 'Caller' : 'Decl.')),
          h('th', { scope: 'col', class: 'score-meta' }, fife ? 'Calls' : 'Contract'),
          fife ? null : h('th', { scope: 'col', class: 'score-meta' }, 'Doubles'),
          SEATS.map((s) =>
            h(
              'th',
              { scope: 'col', class: `num score-seat${s === me ? ' is-me' : ''}` },
              SEAT_NAME[s],
              h('span', { class: 'score-player' }, playerName(score, app, s) || '\u2014'),
            ),
          ),
        ),
      ),
      h('tbody', null, rows.length ? rows : h('tr', null, h('td', { colspan: fife ? 7 : 8, class: 'muted' }, 'No deal has been completed yet.'))),
      h(
        'tfoot',
        null,
        h(
          'tr',
          null,
          h('th', { scope: 'row', colspan: fife ? 3 : 4, class: 'score-total-head' }, 'Totals'),
          SEATS.map((s, i) =>
            h(
              'td',
              { class: `num score-seat${s === me ? ' is-me' : ''}` },
              h('span', { class: 'score-seat-name', 'aria-hidden': 'true' }, s),
              h('strong', null, points(score.totals[i])),
            ),
          ),
        ),
      ),
    ),
  );
}

function standings(app: App, score: ScoreMsg): HTMLElement {
  const pl = places(score.totals);
  const order = [0, 1, 2, 3].sort((a, b) => pl[a] - pl[b] || a - b);
  return h(
    'div',
    { class: 'score-final' },
    h('h3', { class: 'panel-sub' }, 'Final standings'),
    h(
      'ol',
      { class: 'standings' },
      order.map((i) => {
        const s = SEATS[i];
        return h(
          'li',
          { class: pl[i] === 1 ? 'is-first' : '' },
          h('span', { class: 'standing-place' }, ordinal(pl[i])),
          h('span', { class: 'standing-who' }, `${SEAT_NAME[s]}${s === mySeat(app.state) ? ' (you)' : ''}`, h('span', { class: 'score-player' }, playerName(score, app, s))),
          h('span', { class: 'standing-pts' }, points(score.totals[i])),
        );
      }),
    ),
  );
}

/** The score window (#score) while it is open, else null. */
export function renderScore(app: App): HTMLElement | null {
  const st = app.state;
  if (!st.ui.showScore || !st.table) {
    wasOpen = false;
    return null;
  }
  const table = st.table;
  const score = st.score && st.score.table === table.id ? st.score : null;
  const fife = table.rule_set?.game === 'fife' || !!st.view?.view.fife || table.rules === 'fife';
  const over = st.view?.view.phase === 'over' || table.state === 'over';

  // A deal completed while the window is open: ask again.
  const done = completedDeals(app);
  if (done > (score?.deals.length ?? -1) && done !== askedFor) {
    askedFor = done;
    app.send({ type: 'score' });
  }

  const justOpened = !wasOpen;
  wasOpen = true;
  escApp = app;
  if (!cache || justOpened) cache = build(app);
  const c = cache;

  // Redraw what changed; the sheet's frame only when the sheet did.
  const key = JSON.stringify([score ? score.deals.length : -1, score?.totals, over, fife, table.id, mySeat(st)]);
  if (c.score !== score || c.key !== key) {
    c.score = score;
    c.key = key;
    c.title.textContent = `Scores \u2014 table ${table.id}`;
    c.desc.textContent = score
      ? `${score.deals.length} deal${score.deals.length === 1 ? '' : 's'} completed${over ? ': the game is over' : ''}.`
      : 'Asking the server for the scores\u2026';
    c.standings.replaceChildren(...(score && over ? [standings(app, score)] : []));
    // The Fife game's sheet.
    const sheetKey = score ? (score.sheet_html ?? score.sheet ?? '') : null;
    if (fife && sheetKey !== c.sheetKey) {
      c.sheetKey = sheetKey;
      if (score?.sheet_html) {
        c.sheetBox.replaceChildren(
          h('iframe', {
            id: 'sheet',
            class: 'score-sheet',
            title: 'Score sheet',
            sandbox: '',
            referrerpolicy: 'no-referrer',
            tabindex: '0',
            srcdoc: score.sheet_html,
          }),
        );
      } else if (score?.sheet) {
        c.sheetBox.replaceChildren(h('pre', { class: 'score-pre', id: 'sheet-text', tabindex: '0', 'aria-label': 'Score sheet' }, score.sheet));
      } else {
        c.sheetBox.replaceChildren(h('p', { class: 'muted' }, score ? 'The score sheet starts once the first deal is complete.' : ''));
      }
    }
    if (!fife) c.sheetBox.replaceChildren();
    if (score) {
      const t = dealsTable(app, score, fife);
      c.deals.replaceChildren(fife ? h('details', { class: 'score-details' }, h('summary', null, 'Deal by deal'), t) : t);
    } else {
      c.deals.replaceChildren();
    }
  }
  if (justOpened) {
    setTimeout(() => {
      const el = c.dialog.querySelector<HTMLElement>('#score-title');
      if (c.layer.isConnected) el?.focus();
    }, 0);
  }
  // The same element every time while the window is open: the page keeps
  // it where it is (main.ts redraws the score area only for a new element),
  // so the sheet's frame is not reloaded and the deals keep their scroll.
  return c.layer;
}

function build(app: App): Cache {
  const title = h('h2', { id: 'score-title', class: 'panel-title', tabindex: '-1', 'data-focus': 'score-title' }, 'Scores');
  const desc = h('p', { class: 'panel-line', id: 'score-desc' });
  const head = h('div', { class: 'score-head-text' }, title, desc);
  const standingsBox = h('div', { class: 'score-standings' });
  const sheetBox = h('div', { class: 'score-sheet-box' });
  const deals = h('div', { class: 'score-deals' });
  const close = h(
    'button',
    { type: 'button', class: 'btn ghost score-close', id: 'score-close', 'data-focus': 'score-close', onclick: () => closeScore(app) },
    h('span', { 'aria-hidden': 'true' }, '\u2715 '),
    'Close',
  );
  const foot = h(
    'div',
    { class: 'panel-actions score-foot' },
    h(
      'button',
      {
        type: 'button',
        class: 'btn',
        id: 'score-record',
        'data-focus': 'score-record',
        onclick: () => {
          const id = app.state.table?.id;
          if (id !== undefined) app.send({ type: 'record', table: id });
        },
      },
      'Download record',
    ),
    h(
      'button',
      {
        type: 'button',
        class: 'btn',
        id: 'score-refresh',
        'data-focus': 'score-refresh',
        onclick: () => app.send({ type: 'score' }),
      },
      'Refresh',
    ),
  );
  const body = h('div', { class: 'score-body' }, standingsBox, sheetBox, deals);
  const dialog = h(
    'div',
    {
      id: 'score',
      class: 'score-dialog',
      role: 'dialog',
      'aria-modal': 'true',
      'aria-labelledby': 'score-title',
      'aria-describedby': 'score-desc',
      onkeydown: (e: Event) => {
        const k = e as KeyboardEvent;
        if (k.key === 'Escape') {
          k.preventDefault();
          k.stopPropagation();
          closeScore(app);
        } else if (k.key === 'Tab') {
          trapTab(k, dialog);
        }
      },
    },
    h('div', { class: 'score-top' }, head, close),
    body,
    foot,
  );
  const layer = h(
    'div',
    {
      class: 'score-layer',
      onclick: (e: Event) => {
        if (e.target === layer) closeScore(app);
      },
    },
    dialog,
  );
  return { title, desc, layer, dialog, head, body, standings: standingsBox, sheetBox, deals, foot, score: null, sheetKey: null, key: '' };
}

/** Keeps Tab and Shift+Tab inside the dialog. */
function trapTab(e: KeyboardEvent, dialog: HTMLElement): void {
  const items = [
    ...dialog.querySelectorAll<HTMLElement>('button, [href], iframe, summary, [tabindex]:not([tabindex="-1"])'),
  ].filter((el) => !el.hasAttribute('disabled') && el.offsetParent !== null);
  if (items.length === 0) return;
  const first = items[0];
  const last = items[items.length - 1];
  const active = document.activeElement;
  if (e.shiftKey && (active === first || !dialog.contains(active))) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && active === last) {
    e.preventDefault();
    first.focus();
  }
}
