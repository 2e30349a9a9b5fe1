// Invitation links: the page opened at `/#table=7` (or `/#table=7&seat=E`)
// goes straight to that table once the session is in the lobby (after the
// handle form, or at once when a saved session resumes): it sits at that
// seat when it is free or kept for this player (or its own seat), without
// a seat at one kept for it, its own, or any free one; else it watches;
// and says so in a sentence when the table does not exist.

import type { App } from './app';
import type { ErrorMsg, Seat, TableSummary } from './protocol';
import { SEATS } from './protocol';
import { SEAT_NAME } from './names';
import { sentence } from './text';

export interface Invite {
  table: number;
  seat?: Seat;
}

let pending: Invite | null = null;

/** Reads `#table=ID[&seat=X]` from the address (null when it is not an invitation). */
export function parseInvite(hash: string): Invite | null {
  const p = new URLSearchParams(hash.replace(/^#/, ''));
  const id = p.get('table');
  if (!id || !/^[0-9]{1,15}$/.test(id)) return null;
  const seat = (p.get('seat') ?? '').toUpperCase();
  const inv: Invite = { table: Number(id) };
  if ((SEATS as readonly string[]).includes(seat)) inv.seat = seat as Seat;
  return inv;
}

/** Takes the invitation out of the address (a reload does not follow it twice). */
function clearHash(): void {
  try {
    history.replaceState(null, '', location.pathname + location.search);
  } catch {
    /* an address that cannot be changed: harmless */
  }
}

/** Kept for this tab while the handle is still to give (a reload of the
 * handle form does not lose it). */
const KEY = 'barbu.invite';

function keep(inv: Invite | null): void {
  try {
    if (inv) sessionStorage.setItem(KEY, JSON.stringify(inv));
    else sessionStorage.removeItem(KEY);
  } catch {
    /* storage off: this page only */
  }
}

/** Notes the invitation in the address (or kept from before a reload), if
 * any; true when there is one. */
export function readInvite(): boolean {
  const inv = parseInvite(location.hash);
  if (inv) {
    pending = inv;
    keep(inv);
    clearHash();
  } else if (!pending) {
    try {
      const raw = sessionStorage.getItem(KEY);
      const v = raw ? (JSON.parse(raw) as Invite) : null;
      if (v && typeof v.table === 'number') pending = parseInvite(`#table=${v.table}${v.seat ? `&seat=${v.seat}` : ''}`);
    } catch {
      /* nothing kept */
    }
  }
  return pending !== null;
}

export function hasInvite(): boolean {
  return pending !== null;
}

/** Seats to try in order, and whether watching is the fallback. */
function choices(t: TableSummary, me: string, want: Seat | undefined): Seat[] {
  const running = t.state === 'playing' || t.state === 'paused';
  const mine = (s: Seat): boolean => {
    const i = SEATS.indexOf(s);
    const who = t.seats[i];
    if (t.reserved?.[i] === me) return true;
    return running && !!who && who.player === me;
  };
  const open = (s: Seat): boolean => {
    const i = SEATS.indexOf(s);
    const who = t.seats[i];
    const kept = t.reserved?.[i];
    if (kept && kept !== me) return false;
    if (t.state === 'over') return false;
    return who === null || (!who.name && !!who.free) || (!!who.free && !who.bot);
  };
  if (want) return mine(want) || open(want) ? [want] : [];
  return [...SEATS.filter(mine), ...SEATS.filter((s) => !mine(s) && open(s))];
}

/** Sends a `sit` or `kibitz` (whose success is the table's `table`
 * message, without the request's id): resolves null once the page is at
 * the table, or the server's refusal. */
async function goTo(app: App, msg: { type: 'sit'; table: number; seat: Seat } | { type: 'kibitz'; table: number; seat: Seat | 'all' }): Promise<ErrorMsg | null> {
  let stop = false;
  const arrived = new Promise<null>((resolve) => {
    const poll = (): void => {
      if (stop) return;
      if (app.state.table?.id === msg.table) resolve(null);
      else window.setTimeout(poll, 50);
    };
    poll();
  });
  // A `moved` answer (or the request cut short by following it) is no
  // refusal: the page asks again at the node that serves the table.
  const refused = app.request(msg, true).then((r) => (r.type === 'error' && r.code !== 'moved' ? r : null));
  const timeout = new Promise<ErrorMsg>((resolve) =>
    window.setTimeout(() => resolve({ type: 'error', code: 'timeout', text: `Table ${msg.table} did not answer: try again from the list.` }), 8000),
  );
  const r = await Promise.race([arrived, refused.then((e) => e ?? arrived), timeout]);
  stop = true;
  return r;
}

/** Follows the pending invitation, if any: call once the lobby is known.
 * Resolves when done (the table's own messages show the rest). */
export async function followInvite(app: App): Promise<void> {
  const inv = pending;
  if (!inv) return;
  pending = null;
  keep(null);
  const s = app.state;
  if (s.table) {
    if (s.table.id !== inv.table)
      app.notify('info', `You are at table ${s.table.id}: leave it first to go to table ${inv.table}, the table of your invitation.`);
    return;
  }
  const t = s.tables.get(inv.table);
  if (!t) {
    app.notify('error', `Table ${inv.table} of your invitation does not exist any more: pick a table from the list or start a new one.`);
    return;
  }
  const me = s.name ?? '';
  for (const seat of choices(t, me, inv.seat)) {
    if ((await goTo(app, { type: 'sit', table: t.id, seat })) === null) return;
  }
  if (t.kibitz !== 'none') {
    const seat: Seat | 'all' = inv.seat ?? (t.kibitz === 'all' ? 'all' : 'N');
    const r = await goTo(app, { type: 'kibitz', table: t.id, seat });
    if (r === null) {
      app.notify(
        'info',
        inv.seat
          ? `${SEAT_NAME[inv.seat]}'s seat at table ${t.id} is taken, so you are watching it.`
          : `Every seat at table ${t.id} is taken, so you are watching the game.`,
      );
      return;
    }
    app.notify('error', r.text ? sentence(r.text) : `You cannot watch table ${t.id}: pick another table from the list.`);
    return;
  }
  app.notify(
    'error',
    inv.seat
      ? `${SEAT_NAME[inv.seat]}'s seat at table ${t.id} is taken and the table has no watchers: pick another table or seat from the list.`
      : `Every seat at table ${t.id} is taken and the table has no watchers: pick another table from the list.`,
  );
}
