// A game's page (/club/game/ID): its players (kind and level, places,
// points, credit, substitutes), its score sheet (a row per deal: contract,
// declarer, doubles, each seat's points, the totals), a Fife game's sheet
// in a sandboxed frame (as the game client's score window), the record to
// download and a link into the hand viewer.  A running game shows only that
// it runs and who plays: the server sends nothing more.

import { h } from '../dom';
import type { Child } from '../dom';
import { contractName, dealTitle, SEAT_NAME } from '../names';
import type { DealResult, Seat } from '../protocol';
import { SEATS } from '../protocol';
import type { Game, GamePlayer, RatingNow } from './api';
import { kindTags, statusTag } from './games';
import { fixed, kindText, ordinal, pts, scroller, when, who } from './util';

export function gameApi(id: string): string {
  return `/club/api/game/${encodeURIComponent(id)}`;
}

export function gameTitle(g: Game): string {
  return `Game ${g.id}`;
}

function ratingOf(x: number | RatingNow): number {
  return typeof x === 'number' ? x : x.rating;
}

/** "E×N, W×N; N×E redoubled" with seat letters. */
function doublesText(d: DealResult): string {
  const parts: string[] = [];
  const re: string[] = [];
  for (const s of SEATS) {
    for (const t of d.doubles?.[s] ?? []) parts.push(`${s}\u00d7${t}`);
    for (const t of d.redoubles?.[s] ?? []) re.push(`${s}\u00d7${t}`);
  }
  let out = parts.join(', ');
  if (re.length) out += `${out ? '; ' : ''}${re.join(', ')} redoubled`;
  return out || '\u2014';
}

function contractText(d: DealResult, fife: boolean): string {
  if (fife) return d.contracts.length ? d.contracts.map((k) => contractName(k)).join(' + ') : 'no Call';
  return dealTitle(d.contracts, undefined, d.trump, d.rank);
}

function playersTable(g: Game): HTMLElement {
  const over = g.status !== 'running';
  const rows = SEATS.flatMap((s) => {
    const here = g.players.filter((p) => p.seat === s);
    return here.map((p: GamePlayer, i) =>
      h(
        'tr',
        {
          'data-seat': s,
          'data-name': p.name,
          'data-kind': p.kind,
          'data-credited': over ? (p.credited ? 'true' : 'false') : null,
          'data-points': over && p.points !== undefined ? p.points : null,
          'data-place': over && p.place ? p.place : null,
          class: i > 0 ? 'is-sub' : null,
        },
        h('th', { scope: 'row', 'data-label': 'Seat' }, i === 0 ? SEAT_NAME[s] : h('span', { class: 'sr-only' }, SEAT_NAME[s])),
        h(
          'td',
          { 'data-label': 'Player' },
          who(p),
          i > 0 ? h('span', { class: 'sub-mark' }, ' (substitute)') : null,
        ),
        h('td', { 'data-label': 'Kind' }, kindText(p)),
        over
          ? [
              h('td', { class: 'num', 'data-label': 'Deals' }, p.deals !== undefined ? String(p.deals) : '\u2014'),
              h('td', { class: 'num', 'data-label': 'Points' }, p.credited ? pts(p.points) : h('span', { class: 'muted' }, 'not credited')),
              h('td', { class: 'num', 'data-label': 'Place' }, p.place ? ordinal(p.place) : '\u2014'),
              h(
                'td',
                { class: 'num', 'data-label': 'Rating' },
                p.rating ? `${fixed(ratingOf(p.rating.before))} \u2192 ${fixed(ratingOf(p.rating.after))}` : '\u2014',
              ),
            ]
          : null,
      ),
    );
  });
  return scroller(
    'Players',
    h(
      'table',
      { class: 'club-table stack', id: 'game-players' },
      h('caption', { class: 'sr-only' }, 'The players, seat by seat, substitutes after the player of record'),
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          h('th', { scope: 'col' }, 'Seat'),
          h('th', { scope: 'col' }, 'Player'),
          h('th', { scope: 'col' }, 'Kind'),
          over
            ? [
                h('th', { scope: 'col', class: 'num' }, 'Deals'),
                h('th', { scope: 'col', class: 'num' }, 'Points'),
                h('th', { scope: 'col', class: 'num' }, 'Place'),
                h('th', { scope: 'col', class: 'num' }, 'Rating'),
              ]
            : null,
        ),
      ),
      h('tbody', null, rows),
    ),
  );
}

/** The seat's first player, for the sheet's heads. */
function recordName(g: Game, s: Seat): string {
  return g.players.find((p) => p.seat === s)?.name ?? '';
}

function sheet(g: Game, fife: boolean): HTMLElement {
  const deals = g.deals ?? [];
  const run = [0, 0, 0, 0];
  const rows = deals.map((d) => {
    d.score.forEach((x, i) => (run[i] += x));
    let where = '';
    if (fife && d.round !== undefined) where = d.round === 4 ? `Silly ${(d.round_deal ?? 0) + 1}` : `R${d.round + 1}.${(d.round_deal ?? 0) + 1}`;
    return h(
      'tr',
      { 'data-deal': d.deal, class: d.played ? null : 'is-shared' },
      h('th', { scope: 'row', class: 'num' }, String(d.deal + 1), where ? h('span', { class: 'sheet-where' }, ` ${where}`) : null),
      h('td', { class: 'sheet-contract' }, contractText(d, fife), d.played ? null : h('span', { class: 'sheet-note' }, 'not played, shared')),
      h('td', null, d.declarer ?? '\u2014'),
      fife ? null : h('td', { class: 'sheet-doubles' }, doublesText(d)),
      SEATS.map((s, i) =>
        h(
          'td',
          { class: 'num sheet-seat', 'data-seat': s, 'data-points': d.score[i] },
          pts(d.score[i]),
          d.raw && d.raw[i] !== d.score[i] ? h('span', { class: 'sheet-raw', title: 'before the doubles were settled' }, ` (${d.raw[i]})`) : null,
          h('span', { class: 'sheet-run' }, h('span', { class: 'sr-only' }, 'running total '), `\u03a3 ${run[i]}`),
        ),
      ),
    );
  });
  const totals = g.totals;
  return scroller(
    'Score sheet',
    h(
      'table',
      { class: 'club-table sheet-table', id: 'score-sheet' },
      h('caption', { class: 'sr-only' }, 'Every deal: the contract, the declarer, the doubles, each seat\u2019s points after the doubles and the running total'),
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          h('th', { scope: 'col', class: 'num' }, 'Deal'),
          h('th', { scope: 'col' }, fife ? 'Calls' : 'Contract'),
          h('th', { scope: 'col' }, h('abbr', { title: fife ? 'Caller' : 'Declarer' }, fife ? 'Caller' : 'Decl.')),
          fife ? null : h('th', { scope: 'col' }, 'Doubles'),
          SEATS.map((s) => h('th', { scope: 'col', class: 'num' }, s, h('span', { class: 'sheet-who' }, recordName(g, s)))),
        ),
      ),
      h('tbody', null, rows.length ? rows : h('tr', null, h('td', { colspan: fife ? 7 : 8, class: 'muted' }, 'No deal was completed.'))),
      totals
        ? h(
            'tfoot',
            null,
            h(
              'tr',
              { id: 'sheet-totals' },
              h('th', { scope: 'row', colspan: fife ? 3 : 4 }, 'Totals'),
              SEATS.map((s) => h('td', { class: 'num', 'data-seat': s, 'data-points': totals[s] }, h('strong', null, pts(totals[s])))),
            ),
          )
        : null,
    ),
  );
}

export function gamePage(g: Game): HTMLElement {
  const running = g.status === 'running';
  const fife = !!g.sheet_html || g.preset === 'fife';
  const facts: Child[] = [
    h('dt', null, 'Rule set'),
    h('dd', null, g.preset, g.house ? ' with house rules' : '', ' ', kindTags(g)),
    h('dt', null, 'Started'),
    h('dd', null, `${when(g.started)} UTC`),
  ];
  if (!running) {
    facts.push(
      h('dt', null, g.status === 'abandoned' ? 'Abandoned' : 'Finished'),
      h('dd', null, `${when(g.finished)} UTC, after ${g.n_deals ?? 0} deal${g.n_deals === 1 ? '' : 's'}`),
      h('dt', null, 'Credit'),
      h(
        'dd',
        null,
        g.credit === 'deals'
          ? 'by deals: each deal\u2019s points go to who held the seat when it ended'
          : 'to the player of record: each seat\u2019s whole score goes to its first player, substitutes are credited nothing',
      ),
    );
  }
  return h(
    'div',
    { id: 'game', 'data-game': g.id, 'data-status': g.status },
    h('p', { class: 'club-lead' }, statusTag(g.status), running ? ' This game is being played: its deals and scores are shown here once it is over.' : null),
    h('dl', { class: 'facts', id: 'game-facts' }, facts),
    h('section', { class: 'club-section', 'aria-labelledby': 'players-title' }, h('h2', { id: 'players-title' }, 'Players'), playersTable(g)),
    running
      ? null
      : h(
          'section',
          { class: 'club-section', 'aria-labelledby': 'sheet-title' },
          h('h2', { id: 'sheet-title' }, 'Score sheet'),
          h(
            'p',
            { class: 'game-links' },
            g.record ? h('a', { class: 'btn', id: 'game-record', href: g.record, download: `barbu-game-${g.id}.txt` }, 'Download the record') : null,
            g.viewer ? h('a', { class: 'btn', id: 'game-viewer', href: g.viewer }, 'Replay in the hand viewer') : null,
          ),
          // The Fife game's sheet with its pictures: the server's page, in
          // a frame with no scripts and no access to this one.
          g.sheet_html
            ? h(
                'div',
                { class: 'sheet-frame-box' },
                h('iframe', { id: 'sheet', class: 'sheet-frame', title: 'Score sheet', sandbox: '', referrerpolicy: 'no-referrer', tabindex: 0, srcdoc: g.sheet_html }),
              )
            : null,
          fife ? h('details', { class: 'sheet-details' }, h('summary', null, 'Deal by deal'), sheet(g, true)) : sheet(g, false),
        ),
  );
}
