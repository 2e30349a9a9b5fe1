// Noticing one's turn: the tab's title says "● Your turn — barbu" while it
// is this player's turn (seen from another tab too), and, when the player
// turned the sound on in the settings, a short chime plays as the turn
// comes.  The chime is synthesized (WebAudio oscillators): nothing is
// downloaded.

import type { AppState } from './app';
import { mySeat } from './app';
import { setting } from './settings';

export const TURN_TITLE = '\u25cf Your turn \u2014 barbu';

/** Whether this player must act now (its turn, or in Chinese Poker's
 * arrangement its rows still to set). */
export function myTurnNow(s: AppState): boolean {
  const t = s.table;
  const vm = s.view;
  const me = mySeat(s);
  if (!t || !vm || !me || vm.table !== t.id) return false;
  if (t.state !== 'playing' || vm.view.phase === 'over') return false;
  return vm.view.to_move === me || (vm.legal?.length ?? 0) > 0;
}

let audio: AudioContext | null = null;
/** How many chimes played (the page's `html[data-chimes]`, for its tests). */
let chimes = 0;

function context(): AudioContext | null {
  if (audio) return audio;
  const Ctor = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!Ctor) return null;
  try {
    audio = new Ctor();
  } catch {
    audio = null;
  }
  return audio;
}

/** Browsers start audio only after a gesture: the first click or key
 * wakes the context up (when the sound is on). */
function wake(): void {
  if (!setting('sound')) return;
  const a = context();
  if (a && a.state === 'suspended') void a.resume().catch(() => {});
}
document.addEventListener('pointerdown', wake, { capture: true });
document.addEventListener('keydown', wake, { capture: true });

/** Two soft notes, a fifth apart, about a third of a second in all. */
export function chime(): void {
  const a = context();
  if (!a) return;
  if (a.state === 'suspended') void a.resume().catch(() => {});
  const t0 = a.currentTime + 0.02;
  [
    [660, 0],
    [990, 0.14],
  ].forEach(([freq, at]) => {
    const osc = a.createOscillator();
    const gain = a.createGain();
    osc.type = 'sine';
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, t0 + at);
    gain.gain.exponentialRampToValueAtTime(0.18, t0 + at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, t0 + at + 0.22);
    osc.connect(gain).connect(a.destination);
    osc.start(t0 + at);
    osc.stop(t0 + at + 0.25);
  });
  chimes++;
  document.documentElement.dataset.chimes = String(chimes);
}

let wasMyTurn = false;
let turnKey = '';

/** Called on every redraw: the title (given the one it would have) and the chime. */
export function turnTitle(s: AppState, title: string): string {
  const mine = myTurnNow(s);
  const key = mine ? `${s.table?.id}|${s.view?.at}` : '';
  if (mine && !wasMyTurn && key !== turnKey && setting('sound')) chime();
  if (mine) turnKey = key;
  wasMyTurn = mine;
  return mine ? TURN_TITLE : title;
}
