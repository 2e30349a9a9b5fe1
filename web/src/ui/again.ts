// A new game in one click, and the way to bring people to a table: at game
// over `button#again-btn` ("Play again": a new table with the same people,
// rules and options, a new seed), or `button#join-again` when someone else
// already asked for it; the invitation link `#invite-link` with
// `button#copy-invite` (at a table waiting for players, and at game over
// for the next game).

import type { App } from '../app';
import { mySeat } from '../app';
import { h } from '../dom';
import { SEAT_NAME } from '../names';
import type { Seat, TableMsg } from '../protocol';
import { SEATS } from '../protocol';
import { rememberCreated } from '../mine';

/** The address that opens table `id` (at `seat` when given): `/#table=7&seat=E`. */
export function inviteUrl(id: number, seat?: Seat): string {
  const base = `${location.origin}${location.pathname}`;
  return `${base}#table=${id}${seat ? `&seat=${seat}` : ''}`;
}

async function copy(app: App, input: HTMLInputElement): Promise<void> {
  const url = input.value;
  let done = false;
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(url);
      done = true;
    }
  } catch {
    /* refused: the selection below */
  }
  if (!done) {
    input.focus();
    input.select();
    try {
      done = document.execCommand('copy');
    } catch {
      done = false;
    }
  }
  app.notify(
    'info',
    done
      ? 'The invitation link is copied: send it to the people you want at the table.'
      : 'The link could not be copied here: it is selected, so copy it with your keyboard or menu.',
  );
}

/** The invitation link to table `id` with its copy button. */
export function renderInvite(app: App, id: number, what: string, seat?: Seat): HTMLElement {
  const url = inviteUrl(id, seat);
  const input = h('input', {
    id: 'invite-link',
    class: 'invite-link',
    type: 'text',
    readonly: true,
    value: url,
    'aria-label': 'Invitation link',
    'data-focus': 'invite-link',
    onfocus: (e: Event) => (e.target as HTMLInputElement).select(),
  });
  return h(
    'div',
    { class: 'invite', 'data-invite-table': id },
    h('p', { class: 'invite-what' }, what),
    h(
      'div',
      { class: 'invite-row' },
      input,
      h(
        'button',
        { type: 'button', id: 'copy-invite', class: 't-small', 'data-focus': 'copy-invite', onclick: () => void copy(app, input) },
        'Copy link',
      ),
    ),
  );
}

/** Whether this session played at table t (seated now, or its player of record). */
function playedHere(app: App, t: TableMsg): boolean {
  if (mySeat(app.state)) return true;
  const me = app.state.name;
  return !!me && t.seats.some((s) => s.player === me);
}

/** Game over: play again, join the next game, invite to it. */
export function renderAgain(app: App, t: TableMsg): HTMLElement | null {
  const me = app.state.name;
  const player = playedHere(app, t);
  const again = t.again;
  const parts: (HTMLElement | null)[] = [];
  const send = (mine: boolean) => (): void => {
    void app.request({ type: 'again', table: t.id }).then((r) => {
      // The one who asked first made the new table: it may close it.
      if (mine && r.type === 'created') rememberCreated(me, r.table);
    });
  };
  if (again && again.by !== me && player) {
    parts.push(
      h('p', { class: 'again-offer', role: 'status' }, `${again.by} has started the next game with the same people at table ${again.table}; your seat there is kept for you for two minutes.`),
      h('button', { type: 'button', id: 'join-again', class: 't-primary', 'data-focus': 'join-again', onclick: send(false) }, `Join ${again.by}'s new game`),
    );
  } else if (player && !again) {
    parts.push(
      h('button', { type: 'button', id: 'again-btn', class: 't-primary', 'data-focus': 'again-btn', onclick: send(true) }, 'Play again'),
      h('p', { class: 'hint' }, 'A new table with the same people, rules and options and a new deal of the cards; the others get two minutes to take their seats.'),
    );
  } else if (again) {
    parts.push(h('p', { class: 'again-offer' }, `${again.by} has started the next game at table ${again.table}.`));
  }
  if (again) parts.push(renderInvite(app, again.table, `Invite someone to the next game (table ${again.table}):`));
  return parts.some(Boolean) ? h('div', { class: 'again', id: 'again' }, parts) : null;
}

/** A table waiting for players: the link to send for its free seats. */
export function renderWaitingInvite(app: App, t: TableMsg): HTMLElement | null {
  if (t.state !== 'waiting') return null;
  const free = SEATS.filter((_, i) => !t.seats[i].name);
  if (free.length === 0) return null;
  const seat = free.length === 1 ? free[0] : undefined;
  const what = seat
    ? `Invite someone to ${SEAT_NAME[seat]}'s seat with this link:`
    : `Invite people to the free seats (${free.map((s) => SEAT_NAME[s]).join(', ')}) with this link:`;
  return renderInvite(app, t.id, what, seat);
}
