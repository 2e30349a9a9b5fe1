// The club's JSON twins (docs/club.md, "Pages and their JSON twins"): their
// shapes as types, and one fetch that turns a server's refusal into its
// sentence.  Every page of the club is drawn from one of these answers.

import type { DealResult, Seat } from '../protocol';

export interface LadderRow {
  position?: number;
  name: string;
  games: number;
  total: number;
  average: number;
}
export interface Ladder {
  period: string;
  kind: 'month' | 'year';
  min_games: number;
  periods: string[];
  previous: string | null;
  next: string | null;
  ranked: LadderRow[];
  unranked: LadderRow[];
}

export interface RatingNow {
  mu: number;
  sigma: number;
  rating: number;
  games: number;
}
export interface HistoryPoint {
  game: number;
  at: number;
  mu: number;
  sigma: number;
  rating: number;
}
export interface LadderPlace {
  period: string;
  position: number | null;
  games: number;
  total: number;
  average: number;
}
export interface Results {
  games: number;
  over: number;
  abandoned: number;
  total: number;
  average: number;
  best_place_count: Record<string, number>;
  ladder?: { month: LadderPlace | null; year: LadderPlace | null };
}
/** A player's page (and a computer level's: `level`, not registered). */
export interface Person {
  name: string;
  registered: boolean;
  since?: number;
  level?: string;
  rating: RatingNow;
  plays_like: string | null;
  history: HistoryPoint[];
  /** How many points the history has: `history` holds the newest 500. */
  history_total?: number;
  results: Results;
  games: Archive;
}

export interface GamePlayer {
  seat: Seat;
  name: string;
  /** "registered", "guest" or "computer". */
  kind: string;
  level: string | null;
  credited?: boolean;
  points?: number;
  deals?: number;
  place?: number;
  rating?: { before: number | RatingNow; after: number | RatingNow } | null;
}
export interface Game {
  id: number;
  status: 'running' | 'over' | 'abandoned';
  preset: string;
  house?: boolean;
  ladder: boolean;
  rated: boolean;
  started: number;
  players: GamePlayer[];
  finished?: number;
  credit?: 'record' | 'deals';
  n_deals?: number;
  totals?: Record<Seat, number>;
  deals?: DealResult[];
  sheet_html?: string;
  record?: string;
  viewer?: string;
}

export interface ArchiveRow {
  id: number;
  status: 'running' | 'over' | 'abandoned';
  preset: string;
  ladder: boolean;
  rated: boolean;
  started: number;
  finished?: number | null;
  players: GamePlayer[];
}
export interface Archive {
  page: number;
  pages: number;
  per_page: number;
  total: number;
  filter?: Record<string, unknown>;
  rows: ArchiveRow[];
}

export interface Ratings {
  players: { name: string; rating: number; mu: number; sigma: number; games: number }[];
  levels: { level: string; rating: number; mu: number; sigma: number; games: number }[];
}

/** What a fetch gave: the answer, or the sentence to show. */
export type Got<T> = { ok: true; data: T } | { ok: false; status: number; error: string };

/** GETs a JSON twin.  A refusal's `error` sentence is shown whole; a page
 * the server could not answer at all says what to try. */
export async function getJson<T>(url: string, signal?: AbortSignal): Promise<Got<T>> {
  let r: Response;
  try {
    r = await fetch(url, { headers: { accept: 'application/json' }, signal, credentials: 'same-origin' });
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e;
    return { ok: false, status: 0, error: 'The server could not be reached. Check the connection and reload the page.' };
  }
  let body: unknown = null;
  try {
    body = await r.json();
  } catch {
    body = null;
  }
  if (!r.ok) {
    const said = body && typeof body === 'object' && typeof (body as { error?: unknown }).error === 'string' ? (body as { error: string }).error : '';
    return { ok: false, status: r.status, error: said || `The server answered ${r.status} without a reason. Reload the page in a moment.` };
  }
  if (body === null || typeof body !== 'object') {
    return { ok: false, status: r.status, error: 'The server sent something that is not the club\u2019s JSON. Reload the page in a moment.' };
  }
  return { ok: true, data: body as T };
}
