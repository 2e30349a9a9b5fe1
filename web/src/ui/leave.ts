// Leaving safely: "Leave table" and "Log out" ask first (`dialog#confirm`),
// saying what leaving means at this moment.

import type { App } from '../app';
import { mySeat } from '../app';
import { SEAT_NAME } from '../names';
import type { TableMsg } from '../protocol';
import { ask } from './confirm';

/** What standing up from table t means now, in sentences (null: nothing to ask). */
export function leaveMeaning(app: App, t: TableMsg): string[] | null {
  const me = mySeat(app.state);
  if (!me || t.state === 'over') return null;
  if (t.state === 'waiting')
    return [`The game has not started: your seat, ${SEAT_NAME[me]}, becomes free for someone else.`, 'You can sit down again from the lobby while it is free.'];
  const after =
    t.takeover === 'bot'
      ? 'A computer player takes your seat at once and plays for you.'
      : 'The game waits for you: the others may put a computer player or a substitute in your seat.';
  return [after, `While the game lasts you can sit back in your seat, ${SEAT_NAME[me]}, from the lobby ("Sit back"), also when a computer player took it.`];
}

/** The table's leave button: asks first when a seated player would leave a game not over. */
export async function leaveTable(app: App): Promise<void> {
  const t = app.state.table;
  if (!t) return;
  const meaning = leaveMeaning(app, t);
  if (meaning) {
    const yes = await ask({ title: `Leave table ${t.id}?`, text: meaning, yes: 'Leave the table', no: 'Stay' });
    if (!yes || app.state.table?.id !== t.id) return;
  }
  app.send({ type: 'leave' });
}

/** The header's "Log out": asks first, saying what happens to the seat. */
export async function confirmLogout(app: App): Promise<boolean> {
  const t = app.state.table;
  const me = mySeat(app.state);
  const text: string[] = [];
  if (t && me && t.state !== 'over') {
    const m = leaveMeaning(app, t);
    text.push(`You leave table ${t.id} first.`, ...(m ? m.slice(0, 1) : []));
    text.push(
      app.state.account.registered
        ? `To sit back later, sign in again as ${app.state.name ?? ''} while the game lasts.`
        : `To sit back later, join again under the same handle (${app.state.name ?? ''}) while the game lasts.`,
    );
  } else if (!app.state.account.registered) {
    text.push(`Your handle ${app.state.name ?? ''} becomes free for anyone at once.`);
  }
  if (app.state.account.registered) {
    text.push(`This browser forgets the session; ${app.state.name ?? ''} stays registered to you. Other places signed in to it stay signed in.`);
    return ask({ title: 'Sign out?', text, yes: 'Sign out', no: 'Stay' });
  }
  text.push('This browser forgets the session: to play again, choose a handle.');
  return ask({ title: 'Log out?', text, yes: 'Log out', no: 'Stay' });
}
