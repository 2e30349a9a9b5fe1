// The client's state and the interface every part of the page works
// through.  The server's messages are kept as they came; the page is drawn
// from them and from `ui`, the few choices a person is in the middle of.

import type {
  Action,
  Card,
  ChatMsg,
  ClientMsg,
  RecordMsg,
  ScoreMsg,
  Seat,
  ServerMsg,
  TableMsg,
  TableSummary,
  ViewMsg,
} from './protocol';

export type ConnStatus =
  /** Opening the socket or waiting for `welcome`. */
  | 'connecting'
  /** `welcome` received: everything works. */
  | 'open'
  /** Lost; the next attempt is at `retryAt`. */
  | 'reconnecting'
  /** Stopped for good (replaced by another tab, refused token, flood): `reason` says why. */
  | 'closed';

export interface ConnState {
  status: ConnStatus;
  /** Date.now() of the next attempt while reconnecting. */
  retryAt?: number;
  attempts: number;
  reason?: string;
}

export interface Notice {
  kind: 'error' | 'info';
  text: string;
  /** Date.now() when shown; notices fade after a while. */
  at: number;
}

/** What a person is in the middle of choosing; reset when the view moves on. */
export interface UiState {
  /** Cards picked in the hand: a Pass-on's three, a Patience group, a Chinese row. */
  picked: Card[];
  /** The Fife Caller's combination being put together (Call keys). */
  calls: string[];
  /** The contract chosen in the chooser that still needs a trump suit or a rank. */
  pendingContract?: string;
  /** The doubling panel: seats doubled and redoubled so far. */
  doubles: Seat[];
  redoubles: Seat[];
  /** Chinese Poker: the rows being built. */
  rows: { back: Card[]; middle: Card[]; front: Card[] };
  /** Chinese Poker: the server's reason the last arrangement was refused. */
  arrangeError?: string;
  /** Panels opened by the person. */
  showLastTrick: boolean;
  showScore: boolean;
  showChat: boolean;
}

export interface AppState {
  conn: ConnState;
  name: string | null;
  token: string | null;
  /** The lobby's tables by id. */
  tables: Map<number, TableSummary>;
  lobbyChat: ChatMsg[];
  tableChat: ChatMsg[];
  /** The table this session is at (seated or kibitzing), and its latest view. */
  table: TableMsg | null;
  view: ViewMsg | null;
  score: ScoreMsg | null;
  record: RecordMsg | null;
  notice: Notice | null;
  ui: UiState;
  /** An `act` was sent and its answer (the next view, or an error) has not
   * come yet: no other act is sent meanwhile, so a double click sends once. */
  actPending: boolean;
  /** What `welcome` (or `account`) said about who this session is. */
  account: Account;
}

/** A guest, or a registered player (and maybe an administrator). */
export interface Account {
  registered: boolean;
  admin: boolean;
  /** When the token stops working (seconds since the epoch), for a registered player. */
  expires?: number;
}

/** Answers to a message sent with `request`: the message with the same id. */
export type Reply = ServerMsg;

export interface App {
  readonly state: AppState;
  /** Sends a message (paced to stay under the server's flood limit). */
  send(msg: ClientMsg): void;
  /** Sends a message with a fresh id; resolves with the answer carrying that id
   * (an `error` resolves too, it does not reject).  With `quiet` an error is
   * left to the caller to show (no notice). */
  request(msg: ClientMsg, quiet?: boolean): Promise<Reply>;
  /** Sends the seated player's action for the current view. */
  act(action: Action): void;
  /** Redraws the page (batched to the next animation frame). */
  update(): void;
  /** Shows a notice (errors are announced to screen readers). */
  notify(kind: Notice['kind'], text: string): void;
  /** Joins with a handle (a new session) or resumes with a saved token.
   * With `password`: signs in to the registered account (with `register`,
   * creates it first).  The password goes in the `hello` and is kept
   * nowhere else. */
  join(name: string, password?: string, register?: boolean): void;
  resume(): void;
  /** Forgets the session: back to the handle form.  `everywhere`: a
   * registered player's every token is revoked (every device signed out). */
  logout(everywhere?: boolean): void;
}

export function emptyUi(): UiState {
  return {
    picked: [],
    calls: [],
    doubles: [],
    redoubles: [],
    rows: { back: [], middle: [], front: [] },
    showLastTrick: false,
    showScore: false,
    showChat: false,
  };
}

/** The seat this client plays, or null for a kibitzer or in the lobby. */
export function mySeat(s: AppState): Seat | null {
  const you = s.table?.you;
  return you && 'seat' in you ? you.seat : null;
}

/** The seat at the bottom of the screen: one's own, the watched one, or N. */
export function bottomSeat(s: AppState): Seat {
  const you = s.table?.you;
  if (!you) return 'N';
  if ('seat' in you) return you.seat;
  return you.kibitz === 'all' ? 'S' : you.kibitz;
}
