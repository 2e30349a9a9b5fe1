// The barbu protocol, version 1 (docs/protocol.md), as TypeScript types.
// The server decides everything; these types only describe what it sends
// and what a client may send.  Nothing here is a rule of the game.

export const PROTOCOL_VERSION = 1;

export type Seat = 'N' | 'E' | 'S' | 'W';
export const SEATS: readonly Seat[] = ['N', 'E', 'S', 'W'];

/** "QS", "TH", "7D", "2C"; Fife cuts also "3H" (a 2-6), "Joker", "Bridge". */
export type Card = string;
/** A Domino start rank: "2".."9", "T", "J", "Q", "K", "A". */
export type Rank = string;
/** "S", "H", "D", "C". */
export type Suit = 'S' | 'H' | 'D' | 'C';

/** Keyed by seat; seats with nothing are left out. */
export type BySeat<T> = Partial<Record<Seat, T>>;
/** N E S W. */
export type Four<T> = [T, T, T, T];

// ------------------------------------------------------------- actions

export interface DeclareAction {
  type: 'declare';
  seat?: Seat;
  contracts: string[];
  trump?: Suit;
  rank?: Rank;
}
export interface BidAction {
  type: 'bid';
  seat?: Seat;
  double?: Seat[];
  redouble?: Seat[];
}
export interface PlayAction {
  type: 'play';
  seat?: Seat;
  cards: Card[];
}
export interface PassAction {
  type: 'pass';
  seat?: Seat;
}
export interface PassOnAction {
  type: 'pass_on';
  seat?: Seat;
  /** Absent in `last` for everybody but the chooser (and its kibitzers). */
  cards?: Card[];
}
export interface CutAction {
  type: 'cut';
  seat?: Seat;
}
export interface ArrangeAction {
  type: 'arrange';
  seat?: Seat;
  back?: Card[];
  middle?: Card[];
  front?: Card[];
}
export type Action =
  | DeclareAction
  | BidAction
  | PlayAction
  | PassAction
  | PassOnAction
  | CutAction
  | ArrangeAction;

// ---------------------------------------------------------------- view

export type Phase = 'cut' | 'declare' | 'pass_on' | 'bid' | 'arrange' | 'play' | 'over';
export type Kind = 'tricks' | 'trumps' | 'domino' | 'patience' | 'chinese';

export interface Trick {
  leader: Seat;
  cards: Card[];
  /** Position in `cards` of the card winning it, -1 with none down. */
  top: number;
  /** last_trick only. */
  winner?: Seat;
}

export interface LayoutSuit {
  lo: Rank;
  hi: Rank;
}

export interface FifeInfo {
  set: number;
  /** 0-3 the Player Rounds, 4 the Silly Round. */
  round: number;
  round_deal: number;
  calls_done: string[];
  cutter?: Seat;
  cut_for?: 'call' | 'pass_on';
  sequence: string[];
  silly_first?: Seat;
  draw: BySeat<Card>;
  pass_dir?: 'left' | 'across' | 'right';
  passed_on: Seat[];
  n_pass_ons: number;
  n_cuts: number;
  cuts: Card[];
  /** What each of the cuts was for and meant, in the engine's words. */
  cut_notes: { for: 'call' | 'pass_on'; text: string }[];
  piranha?: Seat;
  passed: Card[][];
  received: Card[][];
}

export interface Rows {
  back: Card[];
  middle: Card[];
  front: Card[];
}

/** A completed deal, as in `score.deals` and `view.last_deal`. */
export interface DealResult {
  deal: number;
  declarer?: Seat;
  contracts: string[];
  trump?: Suit;
  rank?: Rank;
  /** false: an undoubled negative contract, not played, its points shared. */
  played: boolean;
  tricks_left?: number;
  doubles: BySeat<Seat[]>;
  redoubles: BySeat<Seat[]>;
  tricks?: Four<number>;
  order?: Seat[];
  taken?: BySeat<Card[]>;
  raw: Four<number>;
  score: Four<number>;
  /** The doubles settled, a pair at a time: pair[0] takes `points` from
   * pair[1]; `level` 1 doubled, 2 redoubled. */
  settled?: { pair: [Seat, Seat]; level: number; points: number }[];
  part?: Record<string, Four<number>>;
  rows?: BySeat<Rows>;
  // The Fife game:
  set?: number;
  round?: number;
  round_deal?: number;
  calls_before?: string[];
  piranha?: Seat;
}

export interface View {
  seat: Seat | 'all';
  phase: Phase;
  to_move?: Seat;
  deal: number;
  deals: number;
  acted: number;
  first: Seat;
  dealer: Seat;
  declarer: Seat;
  kind: Kind;
  contracts: string[];
  trump?: Suit;
  rank?: Rank;
  rule_flags: ('hearts_lead' | 'early_end' | 'israeli')[];
  penalty: Card[];
  hands: BySeat<Card[]>;
  in_hand: Four<number>;
  bids: Seat[];
  doubles: BySeat<Seat[]>;
  redoubles: BySeat<Seat[]>;
  /** owed[s][d]: compulsory doubles seat s still owes declarer d. */
  owed: Four<Four<number>>;
  compulsory: boolean;
  used: BySeat<Record<string, number>>;
  declared: Four<number>;
  advice: Card[];
  trick: Trick;
  last_trick?: Trick;
  winners: Seat[];
  tricks: Four<number>;
  taken: BySeat<Card[]>;
  played: BySeat<Card[]>;
  shown_out: BySeat<Card[]>;
  layout: Partial<Record<Suit, LayoutSuit>>;
  out: Seat[];
  passes: number;
  fife?: FifeInfo;
  arranged: Seat[];
  rows?: Rows;
  totals: Four<number>;
  last_deal?: DealResult;
  /** The move clock (where a server puts it in the view itself). */
  clock?: BySeat<number>;
}

// ------------------------------------------------------------ the rules

/** One contract of the table's rule set (sent in `table`). */
export interface ContractInfo {
  key: string;
  /** "No Hearts". */
  name: string;
  /** "NH". */
  abbr: string;
  kind: 'tricks' | 'trumps' | 'domino' | 'patience' | 'ravage' | 'chinese';
  /** The most times one player declares it. */
  per_player: number;
  /** A Domino or Patience start rank when the rules fix it. */
  fixed_rank?: Rank;
  /** Chinese Poker, when the server says (else docs/rules.md's 4 and 3):
   * points a row won against one player, and the extra rows of a scoop. */
  per_row?: number;
  scoop?: number;
}

export interface TableRules {
  /** "contracts" (seeds 001-004) or "fife" (seed 000). */
  game: 'contracts' | 'fife';
  /** 52 or 32. */
  deck: number;
  doubling: boolean;
  /** Compulsory doubles each player owes each declarer (0: none). */
  mandatory_doubles: number;
  /** The Fife game: Sets in the game. */
  sets?: number;
  contracts: ContractInfo[];
  /** An undoubled negative contract is not played, its points shared. */
  undoubled_shared?: boolean;
  /** How those points are shared, one sentence in the rules' words. */
  undoubled_text?: string;
  /** The rules page of this table: "/rules/table/7". */
  rules_url?: string;
}

// -------------------------------------------------------- server messages

export interface SeatSummary {
  /** Absent for a seat empty during a game (its player may come back). */
  name?: string;
  bot: boolean;
  away: boolean;
  /** The player of record, when it differs from `name` or the seat is empty during a game. */
  player?: string;
  /** During a game: someone else may take the seat now. */
  free?: boolean;
  /** A registered player (absent for guests and computer players). */
  registered?: boolean;
}

export interface TableSummary {
  id: number;
  rules: string;
  house: boolean;
  state: 'waiting' | 'playing' | 'paused' | 'over';
  kibitz: 'none' | 'seat' | 'all';
  seats: Four<SeatSummary | null>;
  kibitzers: number;
  deal: number;
  deals: number;
  /** The creator chose the seed, so knows every deal. */
  seed_chosen_by?: string;
  /** Seats kept for the players of the last game (N E S W, null when none). */
  reserved?: Four<string | null>;
  /** The move clock in seconds (absent: none). */
  clock?: number;
  /** Who created the table (when the server says so). */
  creator?: string;
  /** Its creator handed it to the computer players. */
  handed_over?: boolean;
  /** A ladder table: registered players only, no chosen seed, no computer players. */
  ladder?: boolean;
  /** Its players may ask for hints. */
  hints?: boolean;
}

export interface SeatInfo {
  seat: Seat;
  name?: string;
  player?: string;
  bot: boolean;
  connected: boolean;
  away?: number;
  free: boolean;
  /** The creator, who chose the seed. */
  knows_deals?: boolean;
  /** A registered player (absent for guests and computer players). */
  registered?: boolean;
}

export interface WelcomeMsg {
  type: 'welcome';
  version: number;
  name: string;
  token: string;
  server: string;
  id?: number;
  /** Signed in to a registered account (absent or false: a guest). */
  registered?: boolean;
  /** An administrator of this server. */
  admin?: boolean;
  /** A registered player's token stops working then (seconds since the epoch). */
  expires?: number;
  /** The node's name, when the server is one of several on one database. */
  node?: string;
}
/** The table is served by another node (docs/protocol.md, Nodes): the
 * client goes to url with the same token and asks again; without url no
 * node holds it this moment, and the client asks again in a second. */
export interface MovedMsg {
  type: 'moved';
  table: number;
  url?: string;
  id?: number;
}
export interface ByeMsg {
  type: 'bye';
  reason: 'replaced' | 'flood' | 'slow' | 'shutdown' | 'logout' | string;
}
export interface ErrorMsg {
  type: 'error';
  code: string;
  text: string;
  re?: string;
  id?: number;
  /** With code "illegal": the engine's error code. */
  engine?: number;
}
export interface LobbyMsg {
  type: 'lobby';
  tables: TableSummary[];
  id?: number;
}
export interface ListedMsg {
  type: 'listed';
  table: TableSummary;
}
export interface ClosedMsg {
  type: 'closed';
  table: number;
}
export interface CreatedMsg {
  type: 'created';
  table: number;
  id?: number;
}
export interface TableMsg {
  type: 'table';
  id: number;
  rules: string;
  house?: string;
  kibitz: 'none' | 'seat' | 'all';
  grace: number;
  takeover: 'vote' | 'bot';
  delay: number;
  level: string;
  state: 'waiting' | 'playing' | 'paused' | 'over';
  at: number;
  seats: Four<SeatInfo>;
  kibitzers: string[];
  /** `next`: the seat a kibitzer watches from the next deal. */
  you: { seat: Seat } | { kibitz: Seat | 'all'; next?: Seat };
  seed?: string;
  /** People at a player's address or browser may watch the hands. */
  household?: boolean;
  /** Kibitzers' chat reaches the players while the game runs. */
  kibitz_chat?: boolean;
  seed_chosen_by?: string;
  /** The rule set in force (protocol 1, added with the browser client). */
  rule_set?: TableRules;
  /** A game over: the next game with the same people, once someone asked for it. */
  again?: { table: number; by: string };
  /** Seats kept for the players of the last game (N E S W, null when none). */
  reserved?: Four<string | null>;
  /** The move clock in seconds (absent: none). */
  clock?: number;
  /** Who created the table (when the server says so). */
  creator?: string;
  /** A ladder table: registered players only. */
  ladder?: boolean;
  /** Its players may ask for hints. */
  hints?: boolean;
  /** The hash (BLAKE2b-256, hex) of the key that deals this game, from its creation. */
  commitment?: string;
  /** The key (hex), once the game is over. */
  key?: string;
}
export interface ViewMsg {
  type: 'view';
  table: number;
  at: number;
  last?: Action & { seat: Seat };
  view: View;
  legal?: Action[];
  /** The move clock: milliseconds left for each seat that must act now. */
  clock?: BySeat<number>;
}
export interface ChatMsg {
  type: 'chat';
  from: string;
  text: string;
  /** "kibitzers": a kibitzer's line while the game runs, heard by kibitzers only. */
  scope: 'table' | 'lobby' | 'kibitzers';
  /** Set by this client, not the server: a `notice` kept among the table's
   * chat lines, so that it stays in view. */
  notice?: boolean;
  /** Set by this client: a system line the client wrote from the table's
   * seats (a player left, lost the connection, came back). */
  system?: boolean;
  /** Set by this client: whose talk it is at a table, the players' or the
   * kibitzers' (shown apart, see ui/chat.ts). */
  channel?: 'players' | 'kibitzers';
  /** Said by a registered player (absent: a guest). */
  registered?: boolean;
}
/** Something the people at a table should know that is nobody's doing
 * (a move the server could not save, and then saved after all). */
export interface NoticeMsg {
  type: 'notice';
  table: number;
  code: string;
  text: string;
}
export interface ScoreMsg {
  type: 'score';
  table: number;
  players: Four<string | null>;
  deals: DealResult[];
  totals: Four<number>;
  sheet?: string;
  /** The Fife game: the score sheet as a page with its pictures
   * (`barbu scoresheet --html`), shown in a sandboxed frame. */
  sheet_html?: string;
  id?: number;
}
export interface RecordMsg {
  type: 'record';
  table: number;
  complete: boolean;
  text: string;
  id?: number;
}

/** The computer's rows for this seat's Chinese Poker arrangement (`suggest`). */
export interface SuggestionMsg {
  type: 'suggestion';
  table: number;
  at: number;
  action: ArrangeAction;
  id?: number;
}

/** The computer's choice for this seat's next decision, at a table with
 * hints (`hint`): the action as a view's `legal` lists it. */
export interface HintMsg {
  type: 'hint';
  table: number;
  at: number;
  action: Action;
  level: string;
  id?: number;
}

/** A new token for this session, after `register` and `password`. */
export interface AccountMsg {
  type: 'account';
  name: string;
  token: string;
  registered: boolean;
  admin?: boolean;
  expires?: number;
  id?: number;
}
/** A player's report, as administrators see it (the `report` message and
 * `mod_log`'s `reports`). */
export interface ReportInfo {
  id: number;
  /** Seconds since the epoch. */
  at: number;
  by: string;
  table?: number;
  name?: string;
  text: string;
}
export interface ReportMsg extends ReportInfo {
  type: 'report';
}
/** An administrator's act, as kept in the store. */
export interface ActInfo {
  id: number;
  at: number;
  by: string;
  act: 'close' | 'remove' | 'ban' | 'unban' | string;
  table?: number;
  name?: string;
  seat?: Seat;
  text?: string;
}
export interface ModLogMsg {
  type: 'mod_log';
  reports: ReportInfo[];
  acts: ActInfo[];
  /** The handles banned now. */
  banned?: { name: string; at: number; by: string; text?: string }[];
  id?: number;
}
/** An administrator's act was done. */
export interface DoneMsg {
  type: 'done';
  re: string;
  id?: number;
}
/** A report was taken. */
export interface ReportedMsg {
  type: 'reported';
  /** The report's number. */
  report?: number;
  id?: number;
}

/** The preferences message's fields (docs/protocol.md, preferences). */
export interface Prefs {
  /** "#rrggbb" */
  table_colour?: string;
  /** Pixels from one card of the hand to the next, 10-60. */
  card_spacing?: number;
  card_size?: 'small' | 'medium' | 'large';
  four_colour?: boolean;
  sound?: boolean;
  /** Milliseconds, 0-5000. */
  trick_pause?: number;
}

/** A registered player's preferences kept with the account (after
 * `welcome`, and as the answer to a save, with its id). */
export interface PreferencesMsg {
  type: 'preferences';
  prefs: Prefs;
  id?: number;
}

export type ServerMsg =
  | PreferencesMsg
  | AccountMsg
  | ReportMsg
  | ModLogMsg
  | DoneMsg
  | ReportedMsg
  | SuggestionMsg
  | HintMsg
  | WelcomeMsg
  | MovedMsg
  | ByeMsg
  | ErrorMsg
  | LobbyMsg
  | ListedMsg
  | ClosedMsg
  | CreatedMsg
  | TableMsg
  | ViewMsg
  | ChatMsg
  | ScoreMsg
  | RecordMsg
  | NoticeMsg;

// -------------------------------------------------------- client messages

export interface CreateOptions {
  rules: string;
  house?: string;
  seed?: string;
  kibitz?: 'none' | 'seat' | 'all';
  grace?: number;
  takeover?: 'vote' | 'bot';
  bots?: Seat[];
  /** The computer players' kind.  'heuristic' is 'easy' under its old
   * name, kept for tables made before the levels; the server default is
   * 'medium'. */
  level?: 'easy' | 'medium' | 'hard' | 'random' | 'heuristic';
  delay?: number;
  sit?: Seat;
  household?: boolean;
  kibitz_chat?: boolean;
  /** The move clock: seconds for each action, 0 (none) or 10-600. */
  clock?: number;
  /** A ladder table (a registered creator; no seed, no bots). */
  ladder?: boolean;
  /** A rated game (registered people only, computer players allowed, no seed). */
  rated?: boolean;
  /** Who a seat's points go to: its player of record (the default) or, deal by deal, who held it. */
  credit?: 'record' | 'deals';
  /** The players may ask for hints (never with ladder or rated). */
  hints?: boolean;
}

export type ClientMsg =
  | {
      type: 'hello';
      version: number;
      name?: string;
      token?: string;
      /** The browser's id, the same in every tab (docs/protocol.md, Who may watch). */
      device?: string;
      /** Asks for the lobby's chat (the server sends it only to those who ask). */
      lobby_chat?: boolean;
      /** Signs in to the registered account `name` (never kept by the page). */
      password?: string;
      /** With `name` and `password`: creates the account, then signs in. */
      register?: boolean;
      id?: number;
    }
  | { type: 'tables'; id?: number }
  | ({ type: 'create'; id?: number } & CreateOptions)
  | { type: 'sit'; table: number; seat: Seat; id?: number }
  | { type: 'kibitz'; table: number; seat: Seat | 'all'; id?: number }
  | { type: 'leave'; id?: number }
  | { type: 'bot'; seat: Seat; level?: string; id?: number }
  | { type: 'act'; action: Action; at?: number; id?: number }
  | { type: 'chat'; text: string; id?: number }
  | { type: 'score'; table?: number; id?: number }
  | { type: 'record'; table: number; id?: number }
  | { type: 'suggest'; id?: number }
  | { type: 'hint'; id?: number }
  | { type: 'logout'; everywhere?: boolean; id?: number }
  | { type: 'register'; password: string; id?: number }
  | { type: 'password'; password: string; new_password: string; id?: number }
  | { type: 'report'; table?: number; name?: string; text: string; id?: number }
  | { type: 'mod_log'; id?: number }
  | { type: 'mod_close'; table: number; text: string; id?: number }
  | { type: 'mod_remove'; table: number; seat: Seat; text: string; id?: number }
  | { type: 'ban'; name: string; text: string; id?: number }
  | { type: 'unban'; name: string; text?: string; id?: number }
  | { type: 'close'; table: number; id?: number }
  | { type: 'hand_over'; table: number; id?: number }
  | { type: 'again'; table: number; id?: number }
  | { type: 'preferences'; prefs: Prefs; id?: number };

/** The presets `barbu rules --list` prints, with a line about each. */
export const PRESETS: readonly { key: string; about: string }[] = [
  { key: 'uk', about: 'the standard game as played online in the UK' },
  { key: 'classic', about: "each declarer's contracts in a row" },
  { key: 'quick', about: 'Quick Rotation: a new declarer every deal' },
  { key: 'ravage', about: 'Ravage City as an eighth contract, 32 deals' },
  { key: 'chinese', about: 'Chinese Poker as a ninth contract, with Ravage City' },
  { key: 'king', about: 'King or Rifki: 20 deals, Trumps eight times' },
  { key: 'king-7th', about: 'King with No 7th and Last for No Last Two' },
  { key: 'uk-32', about: 'uk with the 32-card pack, 7 to A' },
  { key: 'classic-32', about: 'classic with the 32-card pack' },
  { key: 'quick-32', about: 'quick with the 32-card pack' },
  { key: 'ravage-32', about: 'ravage with the 32-card pack' },
  { key: 'fife', about: 'the Fife game: Sets, combined Calls, Patience, the Silly Round' },
];

export function seatIndex(s: Seat): number {
  return SEATS.indexOf(s);
}
