// Who has which contracts left (#schedule): for each seat, each contract
// of the rule set declared so far out of the times it may be (view.used
// against per_player), the running scores, and the order of declarers.
// King's schedule (Trumps twice each, eight in all) and Ravage City show
// here the same way.  The Fife game: the Round's Calls played and left.

import type { App } from '../app';
import { mySeat } from '../app';
import { h } from '../dom';
import { contractName, points, SEAT_NAME } from '../names';
import type { ContractInfo, Seat, View } from '../protocol';
import { SEATS } from '../protocol';
import { FIFE_CALLS, seatsFrom } from './declare';

function abbrOf(key: string, info: ContractInfo | undefined): string {
  if (info?.abbr) return info.abbr;
  return key
    .split('-')
    .map((w) => w.charAt(0).toUpperCase())
    .join('');
}

function totalsRow(app: App, v: View): HTMLElement {
  const me = mySeat(app.state);
  return h(
    'ul',
    { class: 'sched-totals', 'aria-label': 'Scores so far' },
    SEATS.map((s, i) =>
      h(
        'li',
        { class: s === me ? 'is-me' : '' },
        h('span', { class: 'sched-seat' }, SEAT_NAME[s], s === me ? ' (you)' : ''),
        h('span', { class: 'sched-pts' }, points(v.totals[i])),
      ),
    ),
  );
}

export function renderSchedule(app: App): HTMLElement | null {
  const vm = app.state.view;
  const t = app.state.table;
  if (!vm || !t || vm.table !== t.id) return null;
  const v = vm.view;
  const rules = t.rule_set;
  const me = mySeat(app.state);
  const over = v.phase === 'over';

  if (v.fife || rules?.game === 'fife') {
    const done = new Set(v.fife?.calls_done ?? []);
    const now = new Set(v.contracts);
    return h(
      'section',
      { class: 'panel panel-schedule', id: 'schedule', 'aria-labelledby': 'schedule-title' },
      h('h2', { class: 'panel-sub', id: 'schedule-title' }, over ? 'Final scores' : 'This Round\u2019s Calls'),
      over
        ? null
        : h(
            'p',
            { class: 'sched-calls' },
            h('span', { class: 'sched-label' }, 'Played: '),
            done.size ? FIFE_CALLS.filter((k) => done.has(k)).map((k) => contractName(k, rules)).join(', ') : 'none yet',
            h('br'),
            h('span', { class: 'sched-label' }, 'Left: '),
            FIFE_CALLS.filter((k) => !done.has(k))
              .map((k) => contractName(k, rules) + (now.has(k) ? ' (this deal)' : ''))
              .join(', ') || 'none',
          ),
      totalsRow(app, v),
    );
  }

  // The contracts: the rule set's, else those seen declared.
  let list: { key: string; info?: ContractInfo }[];
  if (rules) list = rules.contracts.map((c) => ({ key: c.key, info: c }));
  else {
    const seen = new Set<string>();
    for (const s of SEATS) for (const k of Object.keys(v.used[s] ?? {})) seen.add(k);
    for (const k of v.contracts) seen.add(k);
    list = [...seen].map((key) => ({ key }));
  }
  const current = new Set(v.contracts);

  const cell = (s: Seat, key: string, info: ContractInfo | undefined) => {
    const used = v.used[s]?.[key] ?? 0;
    const per = info?.per_player;
    const name = contractName(key, rules);
    let text: string;
    let label: string;
    let cls = '';
    if (per === undefined) {
      text = used ? String(used) : '';
      label = `${name}: declared ${used} time${used === 1 ? '' : 's'}`;
    } else if (per === 1) {
      text = used >= 1 ? '\u2713' : '\u00b7';
      label = `${name}: ${used >= 1 ? 'declared' : 'left'}`;
    } else {
      text = `${used}/${per}`;
      label = `${name}: declared ${used} of ${per}`;
    }
    if (per !== undefined) cls = used >= per ? 'is-used' : used > 0 ? 'is-part' : 'is-left';
    if (current.has(key) && s === v.declarer && !over) cls += ' is-now';
    return h('td', { class: cls.trim(), title: label }, h('span', { 'aria-hidden': 'true' }, text), h('span', { class: 'sr-only' }, label));
  };

  const order = seatsFrom(v.first);
  const table = h(
    'table',
    { class: 'sched-table' },
    h('caption', { class: 'sr-only' }, 'Contracts each player has declared, and the scores'),
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        h('th', { scope: 'col' }, h('span', { class: 'sr-only' }, 'Player')),
        list.map(({ key, info }) =>
          h(
            'th',
            { scope: 'col', class: current.has(key) && !over ? 'is-now' : '' },
            h('abbr', { title: contractName(key, rules) }, abbrOf(key, info)),
          ),
        ),
        h('th', { scope: 'col', class: 'num' }, 'Score'),
      ),
    ),
    h(
      'tbody',
      null,
      order.map((s) =>
        h(
          'tr',
          { class: `${s === me ? 'is-me' : ''}${s === v.declarer && !over ? ' is-declarer' : ''}`.trim() },
          h(
            'th',
            { scope: 'row', title: `${SEAT_NAME[s]}${s === me ? ' (you)' : ''}${s === v.declarer && !over ? ', declaring' : ''}` },
            h('span', { 'aria-hidden': 'true' }, s),
            h('span', { class: 'sr-only' }, SEAT_NAME[s]),
            s === me ? h('span', { class: 'sr-only' }, ' (you)') : null,
          ),
          list.map(({ key, info }) => cell(s, key, info)),
          h('td', { class: 'num sched-pts' }, points(v.totals[SEATS.indexOf(s)])),
        ),
      ),
    ),
  );

  const line = over
    ? `All ${v.deals} deals played.`
    : `Deal ${v.deal + 1} of ${v.deals} \u00b7 dealer ${SEAT_NAME[v.dealer]} \u00b7 declarer ${SEAT_NAME[v.declarer]}`;
  return h(
    'section',
    { class: 'panel panel-schedule', id: 'schedule', 'aria-labelledby': 'schedule-title' },
    h('h2', { class: 'panel-sub', id: 'schedule-title' }, 'Contracts and scores'),
    h('p', { class: 'panel-line sched-where' }, line),
    h('div', { class: 'sched-scroll', tabindex: '0', role: 'region', 'aria-label': 'Contracts declared, by seat' }, table),
    h(
      'p',
      { class: 'panel-note sched-order' },
      'Declarers in turn from ',
      SEAT_NAME[v.first],
      ': ',
      order.map((s) => SEAT_NAME[s].charAt(0)).join(' \u2192 '),
      '. ',
      h('span', { 'aria-hidden': 'true' }, '\u2713 declared, \u00b7 left.'),
    ),
  );
}
