// The lobby (#lobby): the live list of tables, each `[data-table=ID]` with
// its seats (`button[data-sit=X]` on a free one) and `button[data-kibitz=X]`
// where watching is allowed; Refresh; `#new-table` opens the create form.

import type { App } from '../app';
import { h, rerender } from '../dom';
import { SEAT_NAME } from '../names';
import type { Seat, TableSummary } from '../protocol';
import { PRESETS, SEATS } from '../protocol';
import { CreateView } from './create';
import { clockWords } from './clock';
import { ask } from './confirm';
import { createdBy, handedOver, rememberHanded } from '../mine';
import { guestMark } from '../account';

const STATE_WORDS: Record<TableSummary['state'], string> = {
  waiting: 'Waiting',
  playing: 'Playing',
  paused: 'Paused',
  over: 'Over',
};

function dealWords(t: TableSummary): string {
  if (t.state === 'waiting') {
    const free = t.seats.filter((s) => s === null || !s.name).length;
    return `${free} ${free === 1 ? 'seat' : 'seats'} free \u00b7 ${t.deals} deals`;
  }
  if (t.state === 'over') return `${t.deals} deals played`;
  return `Deal ${Math.min(t.deal + 1, t.deals)} of ${t.deals}`;
}

/** A computer player's name is its level and its seat ("medium bot E"):
 * in its seat's column, the level says it. */
function botWord(name: string): string {
  const m = /^(.+) bot [NESW]$/.exec(name);
  return m ? m[1] : name;
}

/** Said before anyone sits: whoever chose the seed can know every hand. */
function seedMark(who: string): HTMLElement {
  const text = `Seed chosen by ${who}: ${who} knows every deal`;
  return h(
    'span',
    { class: 'seed-chosen', 'data-seed-chosen-by': who },
    h('span', { class: 'tag seed-tag', 'aria-hidden': 'true' }, 'seed'),
    ' ',
    text,
  );
}

/** Brings row `old` to `nu`'s content, keeping the cells that did not
 * change (a button under the pointer stays the same element while a game
 * elsewhere in the row moves on). */
function patchRow(old: Element, nu: Element): void {
  if (old.outerHTML === nu.outerHTML) return;
  if (old.children.length !== nu.children.length) {
    old.replaceWith(nu);
    return;
  }
  for (const a of [...old.attributes]) if (!nu.hasAttribute(a.name)) old.removeAttribute(a.name);
  for (const a of [...nu.attributes]) if (old.getAttribute(a.name) !== a.value) old.setAttribute(a.name, a.value);
  const fresh = [...nu.children];
  fresh.forEach((c, i) => {
    const cur = old.children[i];
    if (cur.outerHTML !== c.outerHTML) cur.replaceWith(c);
  });
}

/** Patches the drawn list of tables in place when it holds the same tables
 * in the same order; false when it must be drawn afresh. */
function patchTable(old: Element | null, nu: HTMLElement): boolean {
  if (!old || old.tagName !== 'TABLE' || nu.tagName !== 'TABLE') return false;
  const ids = (e: Element): string[] => [...e.querySelectorAll('tbody > tr')].map((r) => r.getAttribute('data-table') ?? '');
  if (ids(old).join() !== ids(nu).join()) return false;
  const oldRows = [...old.querySelectorAll('tbody > tr')];
  [...nu.querySelectorAll('tbody > tr')].forEach((r, i) => patchRow(oldRows[i], r));
  return true;
}

export class LobbyView {
  readonly el: HTMLElement;
  private list: HTMLElement;
  private count: HTMLElement;
  private create: CreateView;
  private newBtn: HTMLButtonElement;
  private drawn = -1;

  constructor(private readonly app: App) {
    this.create = new CreateView(app, () => {
      this.newBtn.setAttribute('aria-expanded', 'false');
      this.newBtn.focus();
    });
    this.newBtn = h(
      'button',
      {
        type: 'button',
        id: 'new-table',
        class: 'btn primary',
        'aria-expanded': 'false',
        'aria-controls': 'create',
        'data-focus': 'new-table',
        onclick: () => this.toggleCreate(),
      },
      'New table',
    );
    this.count = h('span', { class: 'count', 'aria-live': 'polite' });
    this.list = h('div', { class: 'table-list' });
    this.el = h(
      'main',
      { id: 'lobby', class: 'lobby', 'aria-labelledby': 'lobby-title' },
      h(
        'div',
        { class: 'lobby-head' },
        h('h2', { id: 'lobby-title', tabindex: -1 }, 'Tables ', this.count),
        h(
          'div',
          { class: 'lobby-actions' },
          // The club's pages: the ladder, ratings, the games played.
          h('a', { class: 'btn', id: 'club-link', href: '/club/' }, 'Club'),
          h(
            'button',
            {
              type: 'button',
              class: 'btn',
              id: 'refresh',
              'data-focus': 'refresh',
              onclick: () => this.app.send({ type: 'tables' }),
            },
            'Refresh',
          ),
          this.newBtn,
        ),
      ),
      this.create.el,
      this.list,
    );
  }

  /** Focus on arriving in the lobby: its heading. */
  focus(): void {
    (this.el.querySelector('#lobby-title') as HTMLElement | null)?.focus({ preventScroll: true });
  }

  private toggleCreate(): void {
    if (this.create.isOpen) {
      this.create.close();
    } else {
      this.newBtn.setAttribute('aria-expanded', 'true');
      this.create.open();
    }
  }

  /** Redraws the list when the tables changed (`version` counts changes). */
  update(version: number): void {
    if (version === this.drawn) return;
    this.drawn = version;
    const tables = [...this.app.state.tables.values()].sort((a, b) => b.id - a.id);
    const open = tables.filter((t) => t.state !== 'over').length;
    this.count.textContent = tables.length ? `(${open} open, ${tables.length} in all)` : '';
    const next = tables.length === 0 ? this.empty() : this.table(tables);
    if (!patchTable(this.list.firstElementChild, next)) rerender(this.list, () => next);
  }

  private empty(): HTMLElement {
    return h(
      'p',
      { class: 'lobby-empty' },
      'No tables yet. Start one with ',
      h('strong', null, 'New table'),
      ': computer players can fill the seats nobody takes.',
    );
  }

  private table(tables: TableSummary[]): HTMLElement {
    return h(
      'table',
      { class: 'tables' },
      h('caption', { class: 'sr-only' }, 'Tables on this server'),
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          h('th', { scope: 'col' }, 'Table'),
          h('th', { scope: 'col' }, 'Rules'),
          h('th', { scope: 'col' }, 'State'),
          SEATS.map((s) => h('th', { scope: 'col' }, SEAT_NAME[s])),
          h('th', { scope: 'col' }, 'Watching'),
        ),
      ),
      h(
        'tbody',
        null,
        tables.map((t) => this.row(t)),
      ),
    );
  }

  private row(t: TableSummary): HTMLElement {
    const about = PRESETS.find((p) => p.key === t.rules)?.about;
    const watch = t.kibitz !== 'none';
    return h(
      'tr',
      { 'data-table': t.id, 'data-state': t.state, 'data-ladder': t.ladder ? 'true' : null, class: 'table-row' },
      h('th', { scope: 'row', class: 'c-id' }, h('span', { class: 'label' }, 'Table '), `${t.id}`),
      h(
        'td',
        { class: 'c-rules', 'data-label': 'Rules' },
        h('span', { class: 'rules-key' }, t.rules),
        t.house ? h('span', { class: 'tag house-tag', title: 'House rules apply' }, 'house rules') : null,
        t.ladder ? h('span', { class: 'tag ladder-tag', title: 'A ladder table: registered players only' }, 'ladder') : null,
        t.ladder ? h('span', { class: 'sr-only' }, ' (registered players only)') : null,
        t.hints ? h('span', { class: 'tag hints-tag', title: 'Its players may ask the computer for a hint' }, 'hints') : null,
        about ? h('span', { class: 'rules-about' }, about) : null,
        t.seed_chosen_by ? seedMark(t.seed_chosen_by) : null,
      ),
      h(
        'td',
        { class: 'c-state', 'data-label': 'State' },
        h('span', { class: `state state-${t.state}` }, STATE_WORDS[t.state]),
        h('span', { class: 'deal' }, dealWords(t)),
        t.clock ? h('span', { class: 'tag clock-tag', title: 'The move clock' }, `\u25f7 ${clockWords(t.clock)}`) : null,
        this.ownerActions(t),
      ),
      // A seat left empty during a game names its player (seatCell offers
      // it back to that player, and to a substitute when it is free).
      SEATS.map((s, i) => this.seatCell(t, s, t.seats[i], watch)),
      h(
        'td',
        { class: 'c-watch', 'data-label': 'Watching' },
        t.kibitz === 'none'
          ? h('span', { class: 'watchers' }, 'Not open to watchers')
          : h('span', { class: 'watchers' }, t.kibitzers === 1 ? '1 watching' : `${t.kibitzers} watching`),
        watch && t.kibitz === 'all'
          ? h(
              'button',
              {
                type: 'button',
                class: 'btn small',
                'data-kibitz': 'all',
                'data-focus': `kibitz-${t.id}-all`,
                'aria-label': `Watch every hand at table ${t.id}`,
                onclick: () => this.go({ type: 'kibitz', table: t.id, seat: 'all' }),
              },
              'Watch all',
            )
          : null,
      ),
    );
  }

  private seatCell(
    t: TableSummary,
    s: Seat,
    who: TableSummary['seats'][number],
    watch: boolean,
  ): HTMLElement {
    const cell = h('td', { class: 'c-seat', 'data-seat': s, 'data-label': SEAT_NAME[s] });
    const actions = h('div', { class: 'seat-actions' });
    const me = this.app.state.name;
    const running = t.state === 'playing' || t.state === 'paused';
    const kept = t.reserved?.[SEATS.indexOf(s)] ?? null;
    // One's own seat of a running game, empty or kept by a computer player.
    const mine = running && !!who && !!me && who.player === me && (!who.name || who.bot);
    if (mine) {
      cell.append(
        h('span', { class: 'seat-who away' }, who?.name ? `${botWord(who.name)} (computer) keeps your seat` : 'Your seat, empty'),
      );
      actions.append(
        h(
          'button',
          {
            type: 'button',
            class: 'btn small primary',
            'data-sit-back': s,
            'data-focus': `sit-back-${t.id}-${s}`,
            'aria-label': `Sit back in your seat, ${SEAT_NAME[s]}, at table ${t.id}`,
            onclick: () => this.go({ type: 'sit', table: t.id, seat: s }),
          },
          'Sit back',
        ),
      );
    } else if (who && !who.name) {
      // Empty during the game: its player left; a substitute may sit when free.
      cell.append(h('span', { class: 'seat-who away' }, who.player ? `empty (${who.player} left)` : 'empty'));
      if (who.free) actions.append(this.sitButton(t, s, 'Sit as substitute'));
    } else if (who) {
      cell.append(
        h(
          'span',
          { class: 'seat-who' + (who.bot ? ' bot' : '') + (who.away ? ' away' : '') },
          who.bot ? h('span', { class: 'tag bot-tag', title: 'Computer player', 'aria-label': 'Computer player:' }, 'CPU') : null,
          h('span', { class: 'who-name', title: who.bot ? who.name : null }, who.bot ? botWord(who.name ?? '') : who.name),
          guestMark(who.registered, who.bot),
          who.away ? h('span', { class: 'tag away-tag' }, 'away') : null,
          who.player && who.player !== who.name ? h('span', { class: 'for-player' }, ` for ${who.player}`) : null,
        ),
      );
      if (running && who.free) actions.append(this.sitButton(t, s, 'Sit as substitute'));
    } else if (t.state !== 'over') {
      if (kept) cell.append(h('span', { class: 'seat-kept' }, kept === me ? 'Kept for you' : `Kept for ${kept}`));
      if (!kept || kept === me) actions.append(this.sitButton(t, s, `Sit ${SEAT_NAME[s]}`));
    } else {
      cell.append(h('span', { class: 'hint' }, 'empty'));
    }
    if (watch) {
      actions.append(
        h(
          'button',
          {
            type: 'button',
            class: 'btn small ghost',
            'data-kibitz': s,
            'data-focus': `kibitz-${t.id}-${s}`,
            'aria-label': `Watch ${SEAT_NAME[s]}'s hand at table ${t.id}`,
            onclick: () => this.go({ type: 'kibitz', table: t.id, seat: s }),
          },
          'Watch',
        ),
      );
    }
    if (actions.firstChild) cell.append(actions);
    return cell;
  }

  private sitButton(t: TableSummary, s: Seat, words: string): HTMLElement {
    return h(
      'button',
      {
        type: 'button',
        class: 'btn small primary',
        'data-sit': s,
        'data-focus': `sit-${t.id}-${s}`,
        'aria-label': `${words === `Sit ${SEAT_NAME[s]}` ? words : `${words} ${SEAT_NAME[s]}`} at table ${t.id}`,
        onclick: () => this.go({ type: 'sit', table: t.id, seat: s }),
      },
      words,
    );
  }

  /** The creator's buttons: close a waiting table, hand a running one it
   * left to the computer players (both ask first). */
  private ownerActions(t: TableSummary): HTMLElement | null {
    const me = this.app.state.name;
    if (!createdBy(t, me)) return null;
    if (t.state === 'waiting') {
      return h(
        'div',
        { class: 'owner-actions' },
        h(
          'button',
          {
            type: 'button',
            class: 'btn small',
            'data-close': t.id,
            'data-focus': `close-${t.id}`,
            'aria-label': `Close table ${t.id}`,
            onclick: () => void this.closeTable(t),
          },
          'Close table',
        ),
      );
    }
    if ((t.state === 'playing' || t.state === 'paused') && !handedOver(t, me)) {
      return h(
        'div',
        { class: 'owner-actions' },
        h(
          'button',
          {
            type: 'button',
            class: 'btn small',
            'data-hand-over': t.id,
            'data-focus': `hand-over-${t.id}`,
            'aria-label': `Hand table ${t.id} to the computer players`,
            onclick: () => void this.handOver(t),
          },
          'Hand over',
        ),
      );
    }
    return null;
  }

  private async closeTable(t: TableSummary): Promise<void> {
    const people = t.seats.filter((x) => x && !x.bot && x.name && x.name !== this.app.state.name).map((x) => x?.name);
    const yes = await ask({
      title: `Close table ${t.id}?`,
      text: [
        'The table goes from the list and its game never starts.',
        people.length > 0 ? `${people.join(' and ')} ${people.length === 1 ? 'is' : 'are'} sitting there and will be back in the lobby.` : 'Nobody else is sitting there.',
      ],
      yes: 'Close the table',
      no: 'Keep it',
    });
    if (yes) this.app.send({ type: 'close', table: t.id });
  }

  private async handOver(t: TableSummary): Promise<void> {
    const yes = await ask({
      title: `Hand table ${t.id} to the computer players?`,
      text: [
        'Computer players take every empty seat, yours included, and play the game to its end with whoever is still there.',
        'The table then no longer counts among your unfinished tables. While the game lasts you may still sit back in your seat.',
      ],
      yes: 'Hand it over',
      no: 'Not now',
    });
    if (!yes) return;
    const r = await this.app.request({ type: 'hand_over', table: t.id });
    if (r.type !== 'error') {
      rememberHanded(this.app.state.name, t.id);
      this.drawn = -1;
      this.app.notify('info', `Table ${t.id} is handed to the computer players.`);
    }
  }

  private go(msg: { type: 'sit'; table: number; seat: Seat } | { type: 'kibitz'; table: number; seat: Seat | 'all' }): void {
    // The answer is the table (no id); a refusal comes as an error, shown by main.ts.
    this.app.send(msg);
  }
}
