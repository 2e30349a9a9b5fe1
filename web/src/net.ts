// The WebSocket to `barbu serve`: `hello` with the saved token or the
// handle typed, reconnection with backoff after a drop, pacing under the
// server's flood limit, and request ids.  What the messages mean is
// main.ts's business: this file only carries them.

import type { ConnState } from './app';
import type { ClientMsg, ErrorMsg, ServerMsg } from './protocol';
import { PROTOCOL_VERSION } from './protocol';

// --------------------------------------------------------- saved sessions

export interface Saved {
  name: string;
  token: string;
  /** A registered player's session (a refused token offers signing in again). */
  registered?: boolean;
}

/** This tab's session (a reload resumes it at once). */
const SESSION_KEY = 'barbu.session';
/** The browser's last session (offered as "Resume as ..." after a restart). */
const LAST_KEY = 'barbu.last';

function read(store: () => Storage, key: string): Saved | null {
  try {
    const raw = store().getItem(key);
    if (!raw) return null;
    const v: unknown = JSON.parse(raw);
    if (
      v &&
      typeof v === 'object' &&
      typeof (v as Saved).name === 'string' &&
      typeof (v as Saved).token === 'string' &&
      /^[0-9a-f]{64}$/.test((v as Saved).token)
    )
      return { name: (v as Saved).name, token: (v as Saved).token, registered: (v as Saved).registered === true };
  } catch {
    /* storage refused or garbage: nothing saved */
  }
  return null;
}

function write(store: () => Storage, key: string, v: Saved | null): void {
  try {
    if (v) store().setItem(key, JSON.stringify(v));
    else store().removeItem(key);
  } catch {
    /* storage refused: the session lasts as long as the page */
  }
}

const ss = (): Storage => window.sessionStorage;
const ls = (): Storage => window.localStorage;

export const saved = {
  session: (): Saved | null => read(ss, SESSION_KEY),
  last: (): Saved | null => read(ls, LAST_KEY),
  save(v: Saved): void {
    write(ss, SESSION_KEY, v);
    write(ls, LAST_KEY, v);
  },
  /** Forgets this tab's session, and the browser's last one if it is the same token. */
  forget(token: string | null): void {
    write(ss, SESSION_KEY, null);
    const last = read(ls, LAST_KEY);
    if (last && (token === null || last.token === token)) write(ls, LAST_KEY, null);
  },
};

// ------------------------------------------------------------ the device

/** The browser's id, shared by its tabs: the server refuses a player's own
 * browser the table's hands unless the table is a household's. */
const DEVICE_KEY = 'barbu.device';
const DEVICE_RE = /^[A-Za-z0-9_-]{16,64}$/;
let device: string | null = null;

function freshDevice(): string {
  const abc = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const bytes = new Uint8Array(24);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => abc[b & 63]).join('');
}

/** The id kept in localStorage; where storage throws, one for this page. */
export function deviceId(): string {
  if (device) return device;
  try {
    const kept = ls().getItem(DEVICE_KEY);
    if (kept && DEVICE_RE.test(kept)) return (device = kept);
    device = freshDevice();
    ls().setItem(DEVICE_KEY, device);
  } catch {
    device ??= freshDevice();
  }
  return device;
}

// ------------------------------------------------------------- the socket

/** What `hello` says: a token to resume, or a name for a new session
 * (with a password: signing in to a registered account; with `register`
 * too: signing up).  A password lives here only until the server answers
 * the hello (`setCreds` after `welcome`, `stop` after a refusal). */
export interface Creds {
  name?: string;
  token?: string;
  password?: string;
  register?: boolean;
}

/** `bye` reasons after which the page must not reconnect by itself: another
 * place took the session, the account was signed out everywhere (or its
 * password changed), the handle was banned. */
const FINAL_BYES = new Set(['replaced', 'signed_out', 'banned']);

export interface NetHooks {
  /** Every message from the server, after any request waiting for it is answered. */
  message(msg: ServerMsg, answered: boolean): void;
  /** The connection state (the `ConnState` given to the constructor) changed. */
  status(): void;
}

/** The client's pace: 8 messages a second, bursts of 20 (the server allows 10 and 30). */
const RATE = 8;
const BURST = 20;
const BACKOFF_MIN = 500;
const BACKOFF_MAX = 10_000;
/** A socket that neither opens nor hears `welcome` in this long is given up and tried again. */
const HANDSHAKE_MS = 10_000;
/** `moved` without a url (no node holds the table this moment): the same node again after this. */
const MOVED_RETRY_MS = 1000;
/** `moved` followed at once this many times in a row (no `table` between), then with the backoff,
 * so that two nodes disagreeing for a moment about who holds a table do not make a storm. */
const MOVED_HOPS = 3;
/** Node addresses kept (the page's own, and every `moved` url). */
const URLS_MAX = 16;

export function offlineError(text = 'Not connected to the server.'): ErrorMsg {
  return { type: 'error', code: 'offline', text };
}

/** What a request gets when the server answered it with `moved` (or the
 * page left for another node before the answer came): code `moved`. */
function movedError(table: number | null, id: number): ErrorMsg & { id: number } {
  const which = table === null ? 'That table' : `Table ${table}`;
  return { type: 'error', code: 'moved', text: `${which} is played on another server: the page is going there. Try again in a moment.`, id };
}

export class Net {
  private ws: WebSocket | null = null;
  private creds: Creds | null = null;
  private queue: string[] = [];
  private tokens = BURST;
  private refilled = 0;
  private flushTimer: number | undefined;
  private retryTimer: number | undefined;
  private handshakeTimer: number | undefined;
  private nextId = 1;
  private pending = new Map<number, (m: ServerMsg) => void>();
  private bye: string | null = null;
  /** Every node's address this page has heard of: its own server first,
   * then each `moved` url.  A lost connection tries them in turn. */
  private urls: string[] = [];
  /** The one in use (an index in urls). */
  private at = 0;
  /** `moved` messages followed since the last `table`. */
  private hops = 0;

  constructor(
    readonly conn: ConnState,
    private readonly hooks: NetHooks,
  ) {
    window.addEventListener('online', () => this.soon());
    window.addEventListener('offline', () => this.hooks.status());
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') this.soon();
    });
  }

  /** Connects (or reconnects) saying `hello` with these credentials. */
  start(creds: Creds): void {
    this.creds = creds;
    this.conn.attempts = 0;
    this.hops = 0;
    this.open();
  }

  /** The credentials of the next `hello` (the token once `welcome` gave one). */
  setCreds(creds: Creds): void {
    this.creds = creds;
  }

  /** Closes for good (until `start`): logging out, a refused hello, a replaced session. */
  stop(reason?: string): void {
    this.creds = null;
    this.drop();
    this.conn.status = 'closed';
    this.conn.reason = reason;
    this.conn.retryAt = undefined;
    this.hooks.status();
  }

  /** Drops the socket and tries again after the backoff (a server error on hello). */
  retryLater(): void {
    this.drop();
    this.later();
  }

  /** While waiting to reconnect: try now. */
  reconnectNow(): void {
    if (this.conn.status === 'reconnecting' && this.creds) this.open();
  }

  /** The online event, a tab made visible: no point waiting out the backoff. */
  private soon(): void {
    if (this.conn.status === 'reconnecting') this.reconnectNow();
    else this.hooks.status();
  }

  get isOpen(): boolean {
    return this.conn.status === 'open';
  }

  /** Sends a message, paced (false when not connected: it is dropped). */
  send(msg: ClientMsg): boolean {
    if (!this.ws || this.conn.status !== 'open') return false;
    this.queue.push(JSON.stringify(msg));
    this.flush();
    return true;
  }

  /** Sends with a fresh id; resolves with the server's message carrying it. */
  request(msg: ClientMsg): Promise<ServerMsg> {
    const id = this.freshId();
    return new Promise((resolve) => {
      if (!this.ws || this.conn.status !== 'open') {
        resolve({ ...offlineError(), id });
        return;
      }
      this.pending.set(id, resolve);
      this.send({ ...msg, id } as ClientMsg);
    });
  }

  /** The id the next request will carry (so a caller can note it first). */
  peekId(): number {
    return this.nextId;
  }

  /** Sends with a fresh id nobody waits on (an `act`, whose success is a
   * `view` without id); the id, or null when not connected. */
  sendWithId(msg: ClientMsg): number | null {
    const id = this.freshId();
    return this.send({ ...msg, id } as ClientMsg) ? id : null;
  }

  private freshId(): number {
    const id = this.nextId;
    this.nextId = this.nextId >= 2147483647 ? 1 : this.nextId + 1;
    return id;
  }

  // ------------------------------------------------------------ inside

  /** The page's own server, which always comes first. */
  private home(): string {
    return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
  }

  private url(): string {
    if (this.urls.length === 0) this.urls.push(this.home());
    return this.urls[this.at % this.urls.length];
  }

  /** The server says the table is served elsewhere (docs/protocol.md, Nodes):
   * the same session goes there with the same token (main.ts redoes a
   * pending `sit` or `kibitz` after the welcome).  Without a url nobody
   * holds the table this moment: the same node is asked again in a second,
   * by which time one may have adopted it.  The person sees the usual
   * reconnecting state, nothing else. */
  private follow(url: string | undefined): void {
    if (!this.creds) return;
    this.url();
    // Shown as reconnecting, which it is.
    this.conn.attempts = Math.max(1, this.conn.attempts);
    if (url !== undefined && /^wss?:\/\/[^\s/]+\/\S*$/.test(url)) {
      let i = this.urls.indexOf(url);
      if (i < 0) {
        if (this.urls.length >= URLS_MAX) this.urls.splice(1, 1);
        this.urls.push(url);
        i = this.urls.length - 1;
      }
      this.at = i;
      this.hops += 1;
      if (this.hops <= MOVED_HOPS) {
        this.drop('moved');
        this.open();
        return;
      }
      this.drop('moved');
      this.later(0, false);
      return;
    }
    this.drop('moved');
    this.wait(Math.round(MOVED_RETRY_MS * (0.8 + Math.random() * 0.4)));
  }

  private open(): void {
    this.drop();
    if (!this.creds) return;
    this.conn.status = 'connecting';
    this.conn.retryAt = undefined;
    this.conn.reason = undefined;
    this.bye = null;
    let ws: WebSocket;
    try {
      ws = new WebSocket(this.url());
    } catch {
      this.later();
      return;
    }
    this.ws = ws;
    this.tokens = BURST;
    this.refilled = performance.now();
    this.handshakeTimer = window.setTimeout(() => {
      if (this.ws === ws && this.conn.status === 'connecting') {
        this.drop();
        this.later();
      }
    }, HANDSHAKE_MS);
    ws.onopen = () => {
      if (this.ws !== ws || !this.creds) return;
      // The lobby page shows the lobby's chat, so the client asks for it.
      const hello: ClientMsg = { type: 'hello', version: PROTOCOL_VERSION, lobby_chat: true };
      if (this.creds.token) hello.token = this.creds.token;
      if (this.creds.name) hello.name = this.creds.name;
      if (this.creds.password !== undefined && !this.creds.token) {
        hello.password = this.creds.password;
        if (this.creds.register) hello.register = true;
      }
      hello.device = deviceId();
      this.tokens -= 1;
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (e: MessageEvent) => {
      if (this.ws !== ws || typeof e.data !== 'string') return;
      let msg: ServerMsg;
      try {
        msg = JSON.parse(e.data) as ServerMsg;
      } catch {
        return;
      }
      if (!msg || typeof msg !== 'object' || typeof msg.type !== 'string') return;
      if (msg.type === 'welcome') {
        window.clearTimeout(this.handshakeTimer);
        this.conn.status = 'open';
        this.conn.attempts = 0;
        this.conn.reason = undefined;
        this.hooks.status();
      } else if (msg.type === 'bye') {
        this.bye = msg.reason;
      } else if (msg.type === 'table' || msg.type === 'error') {
        this.hops = 0;
      }
      let answered = false;
      const id = (msg as { id?: unknown }).id;
      if (typeof id === 'number') {
        const r = this.pending.get(id);
        if (r) {
          this.pending.delete(id);
          // A request answered by `moved` was not done: its caller hears a
          // refusal it can tell apart (main.ts asks again for a sit or kibitz).
          r(msg.type === 'moved' ? movedError(msg.table, id) : msg);
          answered = true;
        }
      }
      this.hooks.message(msg, answered);
      // After main.ts noted what to redo there.
      if (msg.type === 'moved' && this.ws === ws) this.follow(msg.url);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      const bye = this.bye;
      this.drop();
      if (bye !== null && FINAL_BYES.has(bye)) {
        this.conn.status = 'closed';
        this.conn.reason = bye;
        this.conn.retryAt = undefined;
        this.hooks.status();
      } else {
        // shutdown (the server restarts), flood, slow, or a lost network.
        this.later(bye === 'shutdown' ? 1 : 0);
      }
    };
    this.hooks.status();
  }

  /** Forgets the socket, its queue and the requests waiting on it (answered
   * with an `offline` error, or `moved` when the session goes to another node). */
  private drop(why: 'offline' | 'moved' = 'offline'): void {
    window.clearTimeout(this.retryTimer);
    window.clearTimeout(this.flushTimer);
    window.clearTimeout(this.handshakeTimer);
    this.retryTimer = this.flushTimer = this.handshakeTimer = undefined;
    this.queue = [];
    const ws = this.ws;
    this.ws = null;
    if (ws) {
      ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
      try {
        ws.close();
      } catch {
        /* already closed */
      }
    }
    const waiting = [...this.pending.entries()];
    this.pending.clear();
    for (const [id, r] of waiting) r(why === 'moved' ? movedError(null, id) : { ...offlineError('The connection was lost.'), id });
  }

  /** Schedules the next attempt: 0.5 s doubling to 10 s, with jitter; each
   * goes to the next node known (with one node, the same one again). */
  private later(extraSteps = 0, next = true): void {
    if (!this.creds) return;
    const n = this.conn.attempts + extraSteps;
    this.conn.attempts += 1;
    const base = Math.min(BACKOFF_MAX, BACKOFF_MIN * 2 ** Math.min(n, 10));
    if (next && this.urls.length > 1) this.at = (this.at + 1) % this.urls.length;
    this.wait(Math.round(base * (0.7 + Math.random() * 0.6)));
  }

  /** Reconnecting after delay ms. */
  private wait(delay: number): void {
    this.conn.status = 'reconnecting';
    this.conn.retryAt = Date.now() + delay;
    window.clearTimeout(this.retryTimer);
    this.retryTimer = window.setTimeout(() => this.open(), delay);
    this.hooks.status();
  }

  /** Sends what the token bucket allows; waits for the rest. */
  private flush(): void {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    const now = performance.now();
    this.tokens = Math.min(BURST, this.tokens + ((now - this.refilled) * RATE) / 1000);
    this.refilled = now;
    while (this.queue.length > 0 && this.tokens >= 1) {
      this.tokens -= 1;
      ws.send(this.queue.shift() as string);
    }
    if (this.queue.length > 0 && this.flushTimer === undefined) {
      const wait = Math.ceil(((1 - this.tokens) * 1000) / RATE);
      this.flushTimer = window.setTimeout(() => {
        this.flushTimer = undefined;
        this.flush();
      }, wait);
    }
  }
}
