// A player's settings, kept in localStorage (`barbu.settings`, one JSON
// object) so that they are the same in every tab and the next visit.  Each
// part of the page reads the one it needs with `setting(key)`; the settings
// dialog changes them with `setSetting`.  Where storage throws (a private
// window with storage off) the settings live as long as the page.

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
}

export const DEFAULT_SETTINGS: Settings = {
  trickPause: 1500,
  sound: false,
  tapConfirm: false,
  summaryPause: 6,
};

const KEY = 'barbu.settings';
let current: Settings | null = null;

function load(): Settings {
  const s: Settings = { ...DEFAULT_SETTINGS };
  try {
    const raw = window.localStorage.getItem(KEY);
    const stored = raw ? (JSON.parse(raw) as Partial<Record<keyof Settings, unknown>>) : {};
    for (const k of Object.keys(DEFAULT_SETTINGS) as (keyof Settings)[]) {
      const v = stored[k];
      if (typeof v === typeof DEFAULT_SETTINGS[k]) (s as unknown as Record<string, unknown>)[k] = v;
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

export function setSetting<K extends keyof Settings>(key: K, value: Settings[K]): void {
  settings()[key] = value;
  try {
    window.localStorage.setItem(KEY, JSON.stringify(current));
  } catch {
    /* kept for this page only */
  }
  for (const f of listeners) f();
}
