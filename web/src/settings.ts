// A player's settings, kept in localStorage (`barbu.settings`, one JSON
// object) so that they are the same in every tab and the next visit.  Each
// part of the page reads the one it needs with `setting(key)`; the settings
// dialog changes them with `setSetting`.  Where storage throws (a private
// window with storage off) the settings live as long as the page.
//
// A registered player's table colour, card spacing and size, four-colour
// deck, sound and trick pause are also kept with the account (the
// `preferences` message, docs/protocol.md): a change is sent (main.ts gives
// the sender), and the server's copy, which comes after `welcome`, is
// applied over this browser's with `applyServerPrefs`.

import type { Prefs } from './protocol';

export interface Settings {
  /** Milliseconds a finished trick stays before it goes to its winner
   * (0: it goes at once; a click on it moves on sooner). */
  trickPause: number;
  /** A short sound when it becomes your turn (off by default). */
  sound: boolean;
  /** Playing a card takes two taps: one raises it, the second plays it. */
  tapConfirm: boolean;
  /** Seconds the end-of-deal summary stays before it closes by itself
   * (0: until it is closed). */
  summaryPause: number;
  /** The table's colour, "#rrggbb"; "" for the house green. */
  tableColour: string;
  /** Pixels from one card of the hand to the next (10-60); 0: as far
   * apart as the width allows (cards overlap only when they must). */
  cardSpacing: number;
  cardSize: CardSize;
  /** Clubs green and diamonds blue, beside red hearts and black spades. */
  fourColour: boolean;
}

export type CardSize = 'small' | 'medium' | 'large';
export const CARD_SIZES: CardSize[] = ['small', 'medium', 'large'];
export const TRICK_PAUSE_MAX = 5000;
export const CARD_SPACING_MIN = 10;
export const CARD_SPACING_MAX = 60;

export const DEFAULT_SETTINGS: Settings = {
  trickPause: 1500,
  sound: false,
  tapConfirm: false,
  summaryPause: 6,
  tableColour: '',
  cardSpacing: 0,
  cardSize: 'medium',
  fourColour: false,
};


const COLOUR = /^#[0-9a-f]{6}$/;

/** Whether a value is one this page can keep for the key. */
function valid(key: keyof Settings, v: unknown): boolean {
  if (typeof v !== typeof DEFAULT_SETTINGS[key]) return false;
  switch (key) {
    case 'tableColour':
      return v === '' || COLOUR.test(v as string);
    case 'cardSpacing':
      return Number.isInteger(v) && (v === 0 || ((v as number) >= CARD_SPACING_MIN && (v as number) <= CARD_SPACING_MAX));
    case 'cardSize':
      return CARD_SIZES.includes(v as CardSize);
    case 'trickPause':
      return Number.isInteger(v) && (v as number) >= 0 && (v as number) <= TRICK_PAUSE_MAX;
    default:
      return true;
  }
}

const KEY = 'barbu.settings';
let current: Settings | null = null;

function load(): Settings {
  const s: Settings = { ...DEFAULT_SETTINGS };
  try {
    const raw = window.localStorage.getItem(KEY);
    const stored = raw ? (JSON.parse(raw) as Partial<Record<keyof Settings, unknown>>) : {};
    for (const k of Object.keys(DEFAULT_SETTINGS) as (keyof Settings)[]) {
      let v = stored[k];
      // A pause kept before the account's limit (0-5000 ms) is brought within it.
      if (k === 'trickPause' && typeof v === 'number' && v > TRICK_PAUSE_MAX) v = TRICK_PAUSE_MAX;
      if (valid(k, v)) (s as unknown as Record<string, unknown>)[k] = v;
    }
  } catch {
    /* storage off or a damaged value: the defaults */
  }
  return s;
}

export function settings(): Settings {
  if (current === null) current = load();
  return current;
}

export function setting<K extends keyof Settings>(key: K): Settings[K] {
  return settings()[key];
}

const listeners: (() => void)[] = [];

/** Calls `f` after every change of a setting (to redraw). */
export function onSettingsChange(f: () => void): void {
  listeners.push(f);
}

function keep(): void {
  try {
    window.localStorage.setItem(KEY, JSON.stringify(current));
  } catch {
    /* kept for this page only */
  }
  for (const f of listeners) f();
}

/** The settings kept with an account, as the preferences message has
 * them (an automatic card spacing or the house colour is not sent: the
 * account keeps no such value). */
export function accountPrefs(): Prefs {
  const s = settings();
  const p: Prefs = { card_size: s.cardSize, four_colour: s.fourColour, sound: s.sound, trick_pause: s.trickPause };
  if (s.tableColour) p.table_colour = s.tableColour;
  if (s.cardSpacing) p.card_spacing = s.cardSpacing;
  return p;
}

const SYNCED: Partial<Record<keyof Settings, true>> = {
  tableColour: true,
  cardSpacing: true,
  cardSize: true,
  fourColour: true,
  sound: true,
  trickPause: true,
};

let sender: ((p: Prefs) => void) | null = null;
let sendTimer = 0;
/** How long after the last change the account's copy is sent: a colour or
 * a range dragged sends once, not at every step. */
const SEND_AFTER_MS = 400;

/** Gives the function that sends a registered player's preferences (it
 * sends nothing for a guest). */
export function setPrefsSender(f: (p: Prefs) => void): void {
  sender = f;
}

/** Sends the account's preferences soon (after SEND_AFTER_MS). */
export function sendPrefsSoon(): void {
  window.clearTimeout(sendTimer);
  sendTimer = window.setTimeout(() => sender?.(accountPrefs()), SEND_AFTER_MS);
}

export function setSetting<K extends keyof Settings>(key: K, value: Settings[K]): void {
  settings()[key] = value;
  keep();
  if (SYNCED[key]) sendPrefsSoon();
}

/** The account's preferences from the server: they replace this browser's
 * (the account's copy wins at sign-in).  Values this page could not keep
 * are left as they are. */
export function applyServerPrefs(p: Prefs): void {
  const s = settings() as unknown as Record<string, unknown>;
  const take = (key: keyof Settings, v: unknown): void => {
    if (v !== undefined && valid(key, v)) s[key] = v;
  };
  take('tableColour', p.table_colour);
  take('cardSpacing', p.card_spacing);
  take('cardSize', p.card_size);
  take('fourColour', p.four_colour);
  take('sound', p.sound);
  take('trickPause', p.trick_pause);
  // A change of ours waiting to go would undo the account's copy.
  window.clearTimeout(sendTimer);
  keep();
}
