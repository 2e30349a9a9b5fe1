// Start-up, and the `App` every part of the page works through: the
// connection (net.ts), the server's messages kept in `AppState` as they
// come, and drawing the page from that state (batched to one frame).

import type { App, AppState, Notice } from './app';
import { emptyUi, mySeat } from './app';
import { h, rerender } from './dom';
import { Net, saved } from './net';
import { pace } from './pace';
import type { Action, ChatMsg, ClientMsg, RecordMsg, ServerMsg, TableSummary, ViewMsg } from './protocol';
import { ChatView, chatChannel } from './ui/chat';
import { applyOffline } from './ui/offline';
import { seatChanges } from './ui/seatnews';
import { LobbyView } from './ui/lobby';
import { LoginView } from './ui/login';
import { renderScore } from './ui/score';
import { ConnView, NOTICE_MS, NoticeView, renderBanner } from './ui/status';
import { renderTable } from './ui/table';
import { followInvite, hasInvite, readInvite } from './invite';
import { confirmLogout } from './ui/leave';
import { settingsButton } from './ui/settings-dialog';
import { turnTitle } from './turn';
import { sentence } from './text';
import { applySuggestion, suggestRefused } from './ui/chinese';
import { applyHint, hintRefused, hintReset } from './ui/hint';
import { AccountMenu } from './account';
import { AdminPanel } from './admin';
import { applyServerPrefs, sendPrefsSoon, setPrefsSender } from './settings';
import { startLook } from './look';

/** Chat lines kept for each scope. */
const CHAT_KEEP = 200;
/** After a reconnection's `welcome`, how long to wait for the `table` of a
 * table this page was at before deciding the session is in the lobby now. */
const RESYNC_MS = 2500;
/** Errors that need no notice: the game moved on, which the next view shows. */
const QUIET = new Set(['stale', 'not_your_turn']);

type Screen = 'login' | 'resuming' | 'lobby' | 'table';

const state: AppState = {
  conn: { status: 'closed', attempts: 0 },
  name: null,
  token: null,
  tables: new Map(),
  lobbyChat: [],
  tableChat: [],
  table: null,
  view: null,
  score: null,
  record: null,
  notice: null,
  ui: emptyUi(),
  actPending: false,
  account: { registered: false, admin: false },
};

/** A `welcome` came for the session now in use (the lobby or a table is shown). */
let welcomed = false;
/** What the hello on its way says: a new handle, or a saved token. */
let joining: 'name' | 'token' | null = null;
let resumingAs: string | null = null;
/** How the hello on its way signs in (the start form's way, for its errors). */
let joiningMode: 'guest' | 'signin' | 'signup' | null = null;
let joiningName: string | null = null;
let loginError: string | null = null;
/** After a reconnection: waiting to hear whether the session is still at its table. */
let resync = false;
let resyncTimer: number | undefined;
/** The key of the view the ui choices belong to (see resetChoices). */
let uiKey = '';
/** Counts changes to the table list, so the lobby redraws only when it changed. */
let tablesVersion = 0;
/** The id and action of the last act sent, to match its error. */
let actId: number | null = null;
let lastAct: Action | null = null;
/** Logging out: the `logout` is sent, the server's `bye` awaited. */
let loggingOut: number | undefined;
/** ... with `everywhere`. */
let loggingOutEverywhere = false;
/** Following an invitation link once the lobby is known. */
let inviteTimer: number | undefined;
/** The last `sit` or `kibitz` sent, and the one to send again once the
 * session is welcomed by the node the table moved to (net.ts follows `moved`). */
type Go = Extract<ClientMsg, { type: 'sit' | 'kibitz' }>;
let asked: Go | null = null;
let redo: Go | null = null;
/** Requests whose caller shows errors itself. */
const quietIds = new Set<number>();
/** `tables` requests: their `lobby` answer is not a sign of having left. */
const tablesIds = new Set<number>();
let noticeTimer: number | undefined;
let frame = 0;
/** A registered player's welcome came and the account's preferences have
 * not (yet): if the lobby comes first, the account keeps none, and this
 * browser's are sent to be kept. */
let prefsAwaited = false;

const net = new Net(state.conn, {
  message: onMessage,
  status: () => app.update(),
});

// --------------------------------------------------------------- the App

const app: App = {
  state,

  send(msg: ClientMsg): void {
    noteGo(msg);
    if (msg.type === 'tables') {
      void app.request(msg);
      return;
    }
    if (!net.send(msg)) app.notify('error', 'Not connected to the server: try again when the connection is back.');
  },

  async request(msg: ClientMsg, quiet = false) {
    noteGo(msg);
    const id = net.peekId();
    if (quiet) quietIds.add(id);
    if (msg.type === 'tables') tablesIds.add(id);
    const r = await net.request(msg);
    quietIds.delete(id);
    tablesIds.delete(id);
    if (!quiet && r.type === 'error' && r.code === 'offline') app.notify('error', sentence(r.text));
    // Not done where it was asked: said, unless it is redone by itself there.
    if (!quiet && r.type === 'error' && r.code === 'moved' && msg.type !== 'sit' && msg.type !== 'kibitz') app.notify('info', r.text);
    return r;
  },

  act(action: Action): void {
    const v = state.view;
    if (state.actPending || !mySeat(state) || !v || !net.isOpen) return;
    if (action.type === 'arrange') state.ui.arrangeError = undefined;
    // One's own move ends a finished trick's pause (the hand offers moves
    // only when the table shows the newest view).
    pace.skip();
    const id = net.sendWithId({ type: 'act', action, at: v.at });
    if (id === null) return;
    actId = id;
    lastAct = action;
    state.actPending = true;
    app.update();
  },

  update(): void {
    if (frame) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      draw();
    });
  },

  notify(kind: Notice['kind'], text: string): void {
    const n: Notice = { kind, text, at: Date.now() };
    state.notice = n;
    window.clearTimeout(noticeTimer);
    noticeTimer = window.setTimeout(() => {
      if (state.notice === n) {
        state.notice = null;
        app.update();
      }
    }, NOTICE_MS);
    app.update();
  },

  join(name: string, password?: string, register = false): void {
    forgetAll();
    loginError = null;
    joining = 'name';
    joiningMode = password === undefined ? 'guest' : register ? 'signup' : 'signin';
    joiningName = name;
    net.start(password === undefined ? { name } : { name, password, register });
    app.update();
  },

  resume(): void {
    const last = saved.session() ?? saved.last();
    if (!last) return;
    forgetAll();
    loginError = null;
    joining = 'token';
    resumingAs = last.name;
    net.start({ token: last.token, name: last.name });
    app.update();
  },

  logout(everywhere = false): void {
    // A session the server knows is ended there (its handle free at once);
    // the page forgets it once the server said bye, or after two seconds.
    if (welcomed && net.isOpen && loggingOut === undefined) {
      loggingOutEverywhere = everywhere && state.account.registered;
      net.send(loggingOutEverywhere ? { type: 'logout', everywhere: true } : { type: 'logout' });
      saved.forget(state.token);
      loggingOut = window.setTimeout(finishLogout, 2000);
      return;
    }
    finishLogout();
  },
};

/** Remembers a `sit` or `kibitz` that a `moved` answer may ask to redo elsewhere. */
function noteGo(msg: ClientMsg): void {
  if (msg.type === 'sit' || msg.type === 'kibitz') {
    const { id: _id, ...plain } = msg;
    asked = plain as Go;
  }
}

/** `moved`: net.ts takes the session to the node named; what this page was
 * asking for at that table is asked again there after the welcome.  A
 * seated player needs nothing: the node sends the seat's table and view
 * after the welcome; a kibitzer's watching is not kept by the server, so
 * it is asked for again. */
function onMoved(table: number): void {
  // The table screen waits for the next node's welcome, not this one's.
  endResync();
  const t = state.table;
  if (t && t.id === table) {
    redo = 'kibitz' in t.you ? { type: 'kibitz', table, seat: t.you.kibitz } : null;
  } else if (asked && asked.table === table) {
    redo = asked;
  }
}

function finishLogout(): void {
  window.clearTimeout(loggingOut);
  loggingOut = undefined;
  saved.forget(state.token);
  net.stop();
  forgetAll();
  joining = null;
  loginError = null;
  app.update();
}

// ------------------------------------------------------------ the state

function resetTable(): void {
  state.table = null;
  state.view = null;
  state.score = null;
  state.tableChat = [];
  state.ui = emptyUi();
  state.actPending = false;
  hintReset();
  pace.reset();
  uiKey = '';
  actId = null;
  lastAct = null;
}

function forgetAll(): void {
  endResync();
  resetTable();
  welcomed = false;
  resumingAs = null;
  asked = redo = null;
  state.name = null;
  state.token = null;
  state.tables = new Map();
  state.lobbyChat = [];
  state.record = null;
  state.account = { registered: false, admin: false };
  admin.reset();
  tablesVersion++;
}

/** The server ended this session from elsewhere (signed out everywhere, a
 * password changed on another device, a ban): back to the start form, the
 * handle typed for signing in again. */
function endedElsewhere(text: string): void {
  const name = state.name;
  const registered = state.account.registered;
  window.clearTimeout(loggingOut);
  loggingOut = undefined;
  saved.forget(state.token);
  net.stop();
  forgetAll();
  joining = null;
  loginError = text;
  if (name) login.prefill(name, registered ? 'signin' : 'guest');
}

function endResync(): void {
  resync = false;
  window.clearTimeout(resyncTimer);
  resyncTimer = undefined;
}

/** The session turned out to be in the lobby, not at the table this page showed. */
function inLobbyNow(): void {
  const was = resync ? state.table : null;
  if (resync) endResync();
  if (state.table) resetTable();
  if (was) {
    app.notify(
      'info',
      'kibitz' in was.you
        ? `Watching table ${was.id} stopped when the connection was lost: you are in the lobby.`
        : `You are no longer seated at table ${was.id}: you are in the lobby.`,
    );
  }
}

/** Resets what a person was in the middle of choosing when the view moves on to
 * a new decision (not on every view: others' moves during a Chinese Poker
 * arrangement or a Pass-on must not wipe a half-made choice). */
function resetChoices(v: ViewMsg): void {
  const me = mySeat(state);
  const key = `${v.view.deal}|${v.view.phase}|${v.view.to_move === me}|${v.view.fife?.n_pass_ons ?? 0}`;
  if (key === uiKey) return;
  uiKey = key;
  const ui = state.ui;
  ui.picked = [];
  ui.calls = [];
  ui.pendingContract = undefined;
  ui.doubles = [];
  ui.redoubles = [];
  ui.rows = { back: [], middle: [], front: [] };
  ui.arrangeError = undefined;
}

function keepChat(list: ChatMsg[], m: ChatMsg): void {
  list.push(m);
  if (list.length > CHAT_KEEP) list.splice(0, list.length - CHAT_KEEP);
}

function download(r: RecordMsg): void {
  const file = `barbu-table-${r.table}.txt`;
  const url = URL.createObjectURL(new Blob([r.text], { type: 'text/plain;charset=utf-8' }));
  const a = h('a', { href: url, download: file, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
  app.notify('info', `The game record of table ${r.table} is saved as ${file}${r.complete ? '' : ' (the deals so far)'}.`);
}

function helloRefused(code: string, text: string): void {
  const byToken = joining === 'token' || (joining === null && state.token !== null);
  switch (code) {
    case 'bad_token': {
      const was = saved.session() ?? saved.last();
      saved.forget(null);
      net.stop();
      forgetAll();
      joining = null;
      if (was?.registered) {
        login.prefill(was.name, 'signin');
        loginError = `That sign-in no longer works (signed out, the password changed, or it expired): sign in as ${was.name} again with the password.`;
      } else {
        loginError =
          'The server no longer knows that session (it was idle for an hour, or the server was reset). Choose a handle to play again.';
      }
      break;
    }
    case 'name_taken':
    case 'bad_name':
    case 'registered':
    case 'bad_password':
    case 'confusable':
    case 'weak_password':
    case 'banned':
    case 'limit':
    case 'busy':
      if (byToken) saved.forget(null);
      // A registered handle typed as a guest's: the form offers signing in.
      if (code === 'registered' && joiningMode === 'guest' && joiningName) login.prefill(joiningName, 'signin');
      net.stop();
      forgetAll();
      joining = null;
      loginError = sentence(text);
      break;
    case 'server':
      app.notify('error', text);
      net.retryLater();
      return;
    default:
      net.stop(text);
      joining = null;
      if (!welcomed) loginError = text;
      app.notify('error', text);
  }
  app.update();
}

function onMessage(msg: ServerMsg): void {
  switch (msg.type) {
    case 'welcome':
      state.name = msg.name;
      state.token = msg.token;
      state.account = { registered: !!msg.registered, admin: !!msg.admin, expires: msg.expires };
      saved.save({ name: msg.name, token: msg.token, registered: !!msg.registered });
      net.setCreds({ token: msg.token, name: msg.name });
      welcomed = true;
      prefsAwaited = !!msg.registered;
      joiningMode = null;
      joining = null;
      resumingAs = null;
      loginError = null;
      state.actPending = false;
      // A hint asked on the connection that ended is never answered.
      hintReset();
      if (redo) {
        // Net is open by now: the welcome is handled after it says so.
        const again = redo;
        redo = null;
        net.send(again);
      }
      if (state.table) {
        resync = true;
        window.clearTimeout(resyncTimer);
        resyncTimer = window.setTimeout(() => {
          if (resync) {
            inLobbyNow();
            app.update();
          }
        }, RESYNC_MS);
      }
      break;
    case 'account':
      // A new token (a password changed, a guest registered): the old one
      // is revoked, so the saved one is replaced at once.
      saved.forget(state.token);
      state.name = msg.name;
      state.token = msg.token;
      state.account = { registered: msg.registered, admin: !!msg.admin, expires: msg.expires };
      saved.save({ name: msg.name, token: msg.token, registered: msg.registered });
      net.setCreds({ token: msg.token, name: msg.name });
      // A guest who registers keeps this browser's preferences with the account.
      if (msg.registered) sendPrefsSoon();
      break;
    case 'preferences':
      // The account's copy wins at sign-in; the answer to this page's own
      // save (it has an id) holds what was just sent.
      prefsAwaited = false;
      if (msg.id === undefined) applyServerPrefs(msg.prefs);
      break;
    case 'report':
      admin.onReport(msg);
      break;
    case 'moved':
      onMoved(msg.table);
      return;
    case 'bye':
      if (msg.reason === 'signed_out' && loggingOut !== undefined) {
        // This page's own "sign out everywhere".
        finishLogout();
        app.notify('info', 'You are signed out everywhere: every browser signed in to this account must sign in again.');
        return;
      } else if (msg.reason === 'signed_out') {
        endedElsewhere('You were signed out: this account signed out everywhere, or its password was changed. Sign in again with the password.');
        app.notify('error', 'You were signed out from another place.');
        return;
      } else if (msg.reason === 'banned') {
        endedElsewhere('This handle is banned from this server: an administrator may lift the ban.');
        app.notify('error', 'This handle is banned from this server.');
        return;
      } else if (msg.reason === 'logout') {
        const registered = state.account.registered;
        const everywhere = loggingOutEverywhere;
        finishLogout();
        app.notify(
          'info',
          !registered
            ? 'You are logged out: your handle is free again.'
            : everywhere
              ? 'You are signed out everywhere: every browser and device must sign in again with the password.'
              : 'You are signed out here: sign in again with your password to play.',
        );
        return;
      } else if (msg.reason === 'replaced') {
        app.notify('error', 'This session was opened in another tab, window or device.');
      } else if (msg.reason === 'shutdown') {
        app.notify('info', 'The server is restarting: reconnecting\u2026');
      } else if (msg.reason === 'slow') {
        app.notify('error', 'The connection was too slow to keep up: reconnecting\u2026');
      } else {
        app.notify('error', 'The server cut the connection (too many messages): reconnecting\u2026');
      }
      break;
    case 'lobby': {
      if (prefsAwaited) {
        prefsAwaited = false;
        sendPrefsSoon();
      }
      state.tables = new Map(msg.tables.map((t: TableSummary) => [t.id, t]));
      tablesVersion++;
      const refresh = msg.id !== undefined && tablesIds.has(msg.id);
      // A lobby not asked for while at a table answers `leave`; the one
      // after a reconnection's welcome may be followed by the table.
      if (state.table && !resync && !refresh) resetTable();
      // An invitation link: once the session's table (after a resume) had
      // its moment to come.
      if (hasInvite()) {
        window.clearTimeout(inviteTimer);
        inviteTimer = window.setTimeout(() => void followInvite(app), 300);
      }
      break;
    }
    case 'listed':
      state.tables.set(msg.table.id, msg.table);
      tablesVersion++;
      inLobbyNow();
      break;
    case 'closed':
      state.tables.delete(msg.table);
      tablesVersion++;
      inLobbyNow();
      break;
    case 'created':
      break;
    case 'table':
      endResync();
      if (!state.table || state.table.id !== msg.id) resetTable();
      // A player left, lost the connection, came back: a line in the chat.
      for (const text of seatChanges(state.table, msg)) {
        keepChat(state.tableChat, { type: 'chat', from: '', text, scope: 'table', notice: true, system: true });
      }
      state.table = msg;
      break;
    case 'view':
      if (!state.table || msg.table !== state.table.id) return;
      state.view = msg;
      state.actPending = false;
      resetChoices(msg);
      pace.push(msg);
      break;
    case 'chat':
      if (msg.scope === 'lobby') {
        keepChat(state.lobbyChat, msg);
        if (state.table && resync) inLobbyNow();
      } else {
        keepChat(state.tableChat, { ...msg, channel: chatChannel(state.table, msg) });
      }
      break;
    case 'notice':
      // An administrator took this person from a seat: said wherever the page is.
      if (msg.code === 'removed' && (!state.table || msg.table !== state.table.id)) {
        app.notify('error', msg.text);
        break;
      }
      if (!state.table || msg.table !== state.table.id) return;
      // In the table's chat, where it stays, and at once where the eye is.
      keepChat(state.tableChat, { type: 'chat', from: '', text: msg.text, scope: 'table', notice: true });
      app.notify(msg.code.endsWith('_failed') ? 'error' : 'info', msg.text);
      break;
    case 'score':
      state.score = msg;
      break;
    case 'suggestion':
      if (state.table && msg.table === state.table.id) applySuggestion(state, msg);
      break;
    case 'hint':
      if (state.table && msg.table === state.table.id) applyHint(state, msg);
      break;
    case 'record':
      // A record asked for quietly (the review of the last deal) is not a download.
      if (msg.id !== undefined && quietIds.has(msg.id)) break;
      state.record = msg;
      download(msg);
      break;
    case 'error': {
      if (msg.re === 'hello') {
        helloRefused(msg.code, msg.text);
        return;
      }
      if (msg.re === 'suggest') suggestRefused();
      if (msg.re === 'hint') hintRefused();
      const forAct = msg.re === 'act' || msg.re === undefined || (msg.id !== undefined && msg.id === actId);
      if (forAct && state.actPending) {
        state.actPending = false;
        if (lastAct?.type === 'arrange' && !QUIET.has(msg.code)) {
          // The arrangement panel shows the reason where the rows are.
          state.ui.arrangeError = msg.text;
          break;
        }
      }
      if (msg.code === 'not_at_table' && msg.re === 'leave') resetTable();
      if (msg.re === 'logout' && loggingOut !== undefined) {
        finishLogout();
        return;
      }
      if (QUIET.has(msg.code)) break;
      if (msg.id !== undefined && quietIds.has(msg.id)) break;
      app.notify('error', sentence(msg.text || `The server refused that (${msg.code}): try again.`));
      break;
    }
  }
  app.update();
}

// ---------------------------------------------------------------- drawing

/** The players' and the kibitzers' talk apart: for a kibitzer, and for
 * everybody once the kibitzers may talk to the players (the game is over,
 * or the table allows it) and have done so. */
function chatSplit(): boolean {
  const t = state.table;
  if (!t) return false;
  if ('kibitz' in t.you || t.state === 'over') return true;
  return state.tableChat.some((m) => m.channel === 'kibitzers');
}

/** A kibitzer's chat goes to the kibitzers only while the game runs,
 * unless the table lets them talk to the players (docs/protocol.md, chat). */
function kibitzAside(): boolean {
  const t = state.table;
  if (!t || !('kibitz' in t.you) || t.kibitz_chat) return false;
  return t.state === 'playing' || t.state === 'paused';
}

const login = new LoginView(app);
const lobby = new LobbyView(app);
const chat = new ChatView(app);
const notice = new NoticeView();
const tableRoot = h('main', { id: 'table-root', class: 'table-root', tabindex: -1, 'aria-label': 'The table' });
const resuming = h('main', { class: 'resuming', id: 'resuming', tabindex: -1 });
const header = h('header', { class: 'site-header', id: 'top' });
const banner = h('div', { class: 'conn-banner-area' });
const screenEl = h('div', { class: 'screen' });
const frameEl = h('div', { class: 'frame', 'data-screen': 'login' }, screenEl, chat.el);
const scoreArea = h('div', { id: 'score-area', class: 'score-area' });
let shownScreen: Screen | null = null;

function screen(): Screen {
  if (welcomed) return state.table ? 'table' : 'lobby';
  if (joining === 'token') return 'resuming';
  return 'login';
}

const connActions = {
  reconnectNow: () => net.reconnectNow(),
  takeBack: () => {
    const token = state.token;
    const name = state.name;
    if (!token || !name) return;
    net.start({ token, name });
    app.update();
  },
};

const connView = new ConnView(connActions);
const admin = new AdminPanel(app);
lobby.el.querySelector('.lobby-actions')?.prepend(admin.button);
const account = new AccountMenu(app, {
  signOut: () => void confirmLogout(app).then((yes) => yes && app.logout()),
  openAdmin: () => admin.open(),
});
const logoutBtn = h('button', {
  type: 'button',
  class: 'btn small',
  id: 'logout',
  hidden: true,
  onclick: () => {
    // Resuming: nothing to leave, only a saved session to set aside.
    if (screen() === 'resuming') app.logout();
    else void confirmLogout(app).then((yes) => yes && app.logout());
  },
});
header.append(
  h('h1', { class: 'brand' }, h('span', { class: 'brand-mark', 'aria-hidden': 'true' }, '\u2660\u2665'), 'barbu'),
  h('div', { class: 'top-right' }, account.el, connView.el, settingsButton(), logoutBtn),
);

function drawHeader(): void {
  const s = screen();
  account.update(welcomed && !!state.name);
  connView.update(state.conn, welcomed || joining !== null);
  logoutBtn.hidden = s === 'login';
  const words = s === 'resuming' ? 'Use another handle' : state.account.registered ? 'Sign out' : 'Log out';
  if (logoutBtn.textContent !== words) logoutBtn.textContent = words;
}

function drawResuming(): void {
  const text = `Resuming as ${resumingAs ?? state.name ?? '\u2026'}\u2026`;
  if (resuming.textContent !== text) fill(resuming, h('p', { class: 'resuming-text' }, text));
}

function fill(el: Element, ...kids: Node[]): void {
  el.replaceChildren(...kids);
}

function draw(): void {
  const s = screen();
  drawHeader();
  const b = renderBanner(state.conn, connActions);
  if (b) rerender(banner, () => b);
  else banner.replaceChildren();

  if (s !== shownScreen) {
    const hadFocus = shownScreen !== null && screenEl.contains(document.activeElement);
    shownScreen = s;
    frameEl.dataset.screen = s;
    const el = s === 'login' ? login.el : s === 'lobby' ? lobby.el : s === 'table' ? tableRoot : resuming;
    screenEl.replaceChildren(el);
    if (s === 'table' || s === 'lobby') tableRoot.replaceChildren();
    chat.el.hidden = s === 'login' || s === 'resuming';
    // Move the focus into the new screen when it was in the old one (or nowhere).
    const active = document.activeElement;
    if (hadFocus || !active || active === document.body) {
      if (s === 'login') login.focus();
      else if (s === 'lobby') lobby.focus();
      else if (s === 'table') tableRoot.focus({ preventScroll: true });
    }
  }

  switch (s) {
    case 'login':
      login.update({ last: saved.last(), busy: joining !== null && state.conn.status === 'connecting', error: loginError });
      break;
    case 'resuming':
      drawResuming();
      break;
    case 'lobby':
      lobby.update(tablesVersion);
      chat.update('lobby', state.lobbyChat, state.ui.showChat);
      break;
    case 'table':
      try {
        renderTable(tableRoot, app);
      } catch (e) {
        console.error('renderTable', e);
      }
      chat.update('table', state.tableChat, state.ui.showChat, kibitzAside(), chatSplit());
      break;
  }

  let score: HTMLElement | null = null;
  if (s === 'table' || s === 'lobby') {
    try {
      score = renderScore(app);
    } catch (e) {
      console.error('renderScore', e);
    }
  }
  if (score) {
    const el = score;
    if (scoreArea.firstChild !== el || scoreArea.childNodes.length !== 1) rerender(scoreArea, () => el);
  } else if (scoreArea.firstChild) {
    scoreArea.replaceChildren();
  }

  // While the connection is down, every button that needs the server is
  // disabled, its title saying why (ui/offline.ts).
  // (The handle form has its own way: it is what opens the connection.)
  admin.update(tablesVersion);
  applyOffline([screenEl, scoreArea], state.conn.status === 'open' || (s !== 'lobby' && s !== 'table'));
  notice.show(state.notice);
  const title = turnTitle(state, s === 'table' && state.table ? `barbu \u00b7 table ${state.table.id}` : s === 'lobby' ? 'barbu \u00b7 lobby' : 'barbu');
  if (document.title !== title) document.title = title;
}

// ------------------------------------------------------------- start-up

pace.attach(app);
startLook();
setPrefsSender((prefs) => {
  if (welcomed && state.account.registered) net.sendWithId({ type: 'preferences', prefs });
});

function start(): void {
  const root = document.getElementById('app');
  if (!root) return;
  root.replaceChildren(
    h('a', { class: 'skip', href: '#main-area' }, 'Skip to the content'),
    header,
    banner,
    h('div', { id: 'main-area', class: 'main-area', tabindex: -1 }, frameEl),
    scoreArea,
    notice.el,
  );
  // The countdown while reconnecting, and a paused table's "away for" times.
  window.setInterval(() => {
    if (state.conn.status === 'reconnecting') drawHeader();
    if (state.table?.state === 'paused') app.update();
  }, 1000);
  // This tab's session resumes at once (a reload); the browser's last one
  // is only offered (two tabs must not fight over one session).
  readInvite();
  window.addEventListener('hashchange', () => {
    if (readInvite() && welcomed) void followInvite(app);
  });
  const mine = saved.session();
  if (mine) {
    joining = 'token';
    resumingAs = mine.name;
    net.start({ token: mine.token, name: mine.name });
  }
  draw();
}

start();
