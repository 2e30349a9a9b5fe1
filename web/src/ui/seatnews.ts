// Who is missing at a running table, in words: a seat that is empty because
// its player left, or whose player lost the connection.  The turn line, the
// panels that wait for a seat and the chat's system lines all say it the
// same way.  The system lines come from two `table` messages in a row (the
// server sends one whenever a seat changes): one line for each change, so a
// reconnection, which brings the same seats again, adds none.

import { SEAT_NAME } from '../names';
import type { Seat, SeatInfo, TableMsg } from '../protocol';
import { SEATS, seatIndex } from '../protocol';

function running(t: TableMsg): boolean {
  return t.state === 'playing' || t.state === 'paused';
}

/** Why nobody acts for `seat` now ("East's seat is empty: bob left the
 * table", "bob (East) has lost the connection"), or null when someone is
 * there to act (or the game is not running). */
export function seatAbsence(t: TableMsg | null | undefined, seat: Seat): string | null {
  if (!t || !running(t)) return null;
  const info = t.seats[seatIndex(seat)];
  if (!info.name) {
    const who = info.player && !info.bot ? info.player : null;
    return who ? `${SEAT_NAME[seat]}'s seat is empty: ${who} left the table` : `${SEAT_NAME[seat]}'s seat is empty`;
  }
  if (!info.bot && !info.connected) return `${info.name} (${SEAT_NAME[seat]}) has lost the connection`;
  return null;
}

/** The absence and what the game waits for, as sentences; null when the
 * seat's player is there. */
export function absenceText(t: TableMsg | null | undefined, seat: Seat): string | null {
  const a = seatAbsence(t, seat);
  if (!a || !t) return null;
  const info = t.seats[seatIndex(seat)];
  let then: string;
  if (!info.name || info.free) {
    then =
      t.takeover === 'bot'
        ? 'A computer player takes the seat.'
        : 'The game waits until someone sits there or a player puts a computer player in it.';
  } else {
    then = `The game waits for ${info.name} to come back.`;
  }
  return `${a}. ${then}`;
}

function who(info: SeatInfo): string {
  return info.bot ? `A computer player (${info.name})` : (info.name ?? '');
}

/** The system lines for what changed at the seats from `prev` to `next`
 * (the same table, its game running): a player left, lost the connection,
 * came back; a computer player or a substitute took a seat. */
export function seatChanges(prev: TableMsg | null, next: TableMsg): string[] {
  if (!prev || prev.id !== next.id || !running(prev) || !running(next)) return [];
  const out: string[] = [];
  for (const s of SEATS) {
    const a = prev.seats[seatIndex(s)];
    const b = next.seats[seatIndex(s)];
    const seat = SEAT_NAME[s];
    if (a.name && !b.name) {
      out.push(a.bot ? `The computer player left ${seat}'s seat: it is empty.` : `${a.name} left the table: ${seat}'s seat is empty.`);
    } else if (!a.name && b.name) {
      if (!b.bot && b.name === b.player) out.push(`${b.name} is back in ${seat}'s seat.`);
      else out.push(`${who(b)} took ${seat}'s seat${b.player && b.player !== b.name ? ` for ${b.player}` : ''}.`);
    } else if (a.name && b.name && a.name !== b.name) {
      if (!b.bot && b.name === b.player) out.push(`${b.name} is back in ${seat}'s seat in place of ${a.bot ? 'the computer player' : a.name}.`);
      else out.push(`${who(b)} took ${seat}'s seat from ${a.name}.`);
    } else if (b.name && !b.bot) {
      if (a.connected && !b.connected) out.push(`${b.name} (${seat}) lost the connection.`);
      else if (!a.connected && b.connected) out.push(`${b.name} (${seat}) is back.`);
      else if (!a.free && b.free && !b.connected) {
        out.push(
          next.takeover === 'bot'
            ? `${b.name} did not come back in time: a computer player takes ${seat}'s seat.`
            : `${b.name} did not come back in time: ${seat}'s seat is free for a computer player or a substitute.`,
        );
      }
    }
  }
  return out;
}
