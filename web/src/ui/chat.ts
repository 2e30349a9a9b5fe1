// Chat: form#chat with input#chat-text and the lines in #chat-log: the
// lobby's in the lobby, the table's at a table.  At a table the players'
// talk and the kibitzers' are two labelled logs (`[data-channel=players]`
// and `[data-channel=kibitzers]`, each role="log"), shown apart for a
// kibitzer and, once the game is over (when the kibitzers talk to
// everybody), for everyone; a player during the game hears the players
// only.  A sidebar on wide screens; on a phone a section under the table
// whose logs fold away (the toggle says how many lines came meanwhile).
// Built once; lines are appended as they come so a screen reader hears only
// the new ones.

import type { App } from '../app';
import { h } from '../dom';
import type { ChatMsg, TableMsg } from '../protocol';
import { guestMark } from '../account';

const TEXT_MAX = 300;
const NARROW = '(max-width: 600px)';

export type ChatScope = 'lobby' | 'table';
export type Channel = 'players' | 'kibitzers';

/** Whose talk a table's line is: a kibitzer's (its scope says so while the
 * game runs; after the game, or at a table whose kibitzers may talk to the
 * players, the sender is among the kibitzers and not a player of record),
 * else the players'.  The client's own lines about the table go with the
 * players'. */
export function chatChannel(t: TableMsg | null, m: ChatMsg): Channel {
  if (m.scope === 'kibitzers') return 'kibitzers';
  if (!t || m.notice || m.system) return 'players';
  const player = t.seats.some((x) => x.name === m.from || x.player === m.from);
  return !player && t.kibitzers.includes(m.from) ? 'kibitzers' : 'players';
}

interface ChannelView {
  section: HTMLElement;
  title: HTMLElement;
  log: HTMLElement;
}

function bytes(s: string): number {
  return new TextEncoder().encode(s).length;
}

export class ChatView {
  readonly el: HTMLElement;
  private title: HTMLElement;
  private toggle: HTMLButtonElement;
  private body: HTMLElement;
  /** #chat-log: the logs, one for the lobby or the players, one for the kibitzers. */
  private logs: HTMLElement;
  private channels: Record<Channel, ChannelView>;
  private split = false;
  private input: HTMLInputElement;
  private sendBtn: HTMLButtonElement;
  private errorEl: HTMLElement;
  private scope: ChatScope | null = null;
  private aside = false;
  private label: HTMLElement;
  private list: ChatMsg[] | null = null;
  private last: ChatMsg | null = null;
  private unread = 0;

  constructor(private readonly app: App) {
    this.title = h('h2', { id: 'chat-title', class: 'chat-title' }, 'Chat');
    this.toggle = h('button', {
      type: 'button',
      class: 'btn small chat-toggle',
      id: 'chat-toggle',
      'aria-expanded': 'false',
      'aria-controls': 'chat-log',
      'data-focus': 'chat-toggle',
      onclick: () => {
        this.app.state.ui.showChat = !this.app.state.ui.showChat;
        this.app.update();
      },
    });
    const channel = (c: Channel, title: string): ChannelView => {
      const titleEl = h('h3', { class: 'chat-channel-title', id: `chat-title-${c}`, hidden: true }, title);
      // The list stays a list (its lines are list items); the live log
      // is the section around it.
      const log = h('ol', {
        class: 'chat-log',
        id: `chat-log-${c}`,
        'aria-labelledby': 'chat-title',
        tabindex: 0,
      });
      const section = h('section', { class: 'chat-channel', 'data-channel': c, role: 'log', 'aria-live': 'polite', 'aria-labelledby': 'chat-title' }, titleEl, log);
      return { section, title: titleEl, log };
    };
    this.channels = {
      players: channel('players', 'Players'),
      kibitzers: channel('kibitzers', 'Kibitzers'),
    };
    this.channels.kibitzers.section.hidden = true;
    this.logs = h('div', { id: 'chat-log', class: 'chat-logs', 'data-split': 'false' }, this.channels.players.section, this.channels.kibitzers.section);
    this.input = h('input', {
      id: 'chat-text',
      name: 'text',
      type: 'text',
      autocomplete: 'off',
      maxlength: TEXT_MAX,
      enterkeyhint: 'send',
      'data-focus': 'chat-text',
    });
    this.input.addEventListener('input', () => this.showError(null));
    this.label = h('label', { for: 'chat-text', class: 'sr-only', id: 'chat-label' }, 'Message');
    this.sendBtn = h('button', { type: 'submit', class: 'btn', id: 'chat-send', 'data-focus': 'chat-send' }, 'Send');
    this.errorEl = h('p', { class: 'form-error', id: 'chat-error', role: 'alert' });
    const form = h(
      'form',
      { id: 'chat', class: 'chat-form', novalidate: true },
      this.label,
      h('div', { class: 'inline' }, this.input, this.sendBtn),
      this.errorEl,
    );
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.submit();
    });
    this.body = h('div', { class: 'chat-body' }, this.logs);
    this.el = h(
      'aside',
      { id: 'chat-area', class: 'chat', 'aria-labelledby': 'chat-title', 'data-open': 'false' },
      h('div', { class: 'chat-head' }, this.title, this.toggle),
      this.body,
      form,
    );
  }

  private showError(text: string | null): void {
    this.errorEl.textContent = text ?? '';
    if (text) this.input.setAttribute('aria-invalid', 'true');
    else this.input.removeAttribute('aria-invalid');
  }

  private submit(): void {
    const text = this.input.value.trim();
    if (text === '') return;
    if (bytes(text) > TEXT_MAX) {
      this.showError(`A line is at most ${TEXT_MAX} bytes (this one has ${bytes(text)}).`);
      return;
    }
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f]/.test(text)) {
      this.showError('A line cannot hold control characters.');
      return;
    }
    if (this.app.state.conn.status !== 'open') {
      this.showError('Not connected: the line was not sent.');
      return;
    }
    this.app.send({ type: 'chat', text });
    this.input.value = '';
    this.showError(null);
  }

  private line(m: ChatMsg, me: string | null): HTMLElement {
    if (m.notice) {
      return h(
        'li',
        { class: m.system ? 'notice-line system-line' : 'notice-line', 'data-system': m.system ? 'true' : null },
        h('span', { class: 'text' }, m.text),
      );
    }
    const aside = m.scope === 'kibitzers';
    return h(
      'li',
      { class: m.from === me ? 'mine' : null, 'data-scope': m.scope, 'data-guest': m.registered ? null : 'true' },
      aside ? h('span', { class: 'scope-tag', title: 'Heard by the kibitzers only' }, 'kibitzers') : null,
      aside ? h('span', { class: 'sr-only' }, ': ') : null,
      h('span', { class: 'from' }, m.from),
      guestMark(m.registered),
      h('span', { class: 'sep', 'aria-hidden': 'true' }, ': '),
      h('span', { class: 'text' }, m.text),
    );
  }

  /** `aside`: a kibitzer while the game runs at a table without kibitz
   * chat, whose lines the server gives to the other kibitzers only.
   * `split`: the players' and the kibitzers' talk in two logs. */
  update(scope: ChatScope, lines: ChatMsg[], open: boolean, aside = false, split = false): void {
    const me = this.app.state.name;
    const narrow = window.matchMedia(NARROW).matches;
    split = split && scope === 'table';
    const { players, kibitzers } = this.channels;
    const atBottom = (l: HTMLElement) => l.scrollHeight - l.scrollTop - l.clientHeight < 24;
    const bottom = { players: atBottom(players.log), kibitzers: atBottom(kibitzers.log) };
    const resplit = split !== this.split;
    if (scope !== this.scope || aside !== this.aside || resplit) {
      this.scope = scope;
      this.aside = aside;
      this.split = split;
      this.title.textContent = scope === 'lobby' ? 'Lobby chat' : 'Table chat';
      this.input.placeholder =
        scope === 'lobby' ? 'Message the lobby' : aside ? 'To the kibitzers only' : 'Message the table';
      this.label.textContent = aside ? 'Message to the kibitzers only' : 'Message';
      this.input.dataset.scope = aside ? 'kibitzers' : scope;
      this.logs.dataset.split = String(split);
      kibitzers.section.hidden = !split;
      players.title.hidden = !split;
      kibitzers.title.hidden = !split;
      kibitzers.title.textContent = aside ? 'Kibitzers (the players do not hear this)' : 'Kibitzers';
      for (const c of [players, kibitzers]) {
        c.log.setAttribute('aria-labelledby', split ? `chat-title ${c.title.id}` : 'chat-title');
        c.section.setAttribute('aria-labelledby', split ? `chat-title ${c.title.id}` : 'chat-title');
      }
    }
    const into = (m: ChatMsg): ChannelView => (split && m.channel === 'kibitzers' ? kibitzers : players);
    let added = 0;
    const mine = new Set<ChannelView>();
    let rebuild = resplit || lines !== this.list;
    let at = -1;
    if (!rebuild && this.last) {
      at = lines.lastIndexOf(this.last);
      if (at < 0) rebuild = true;
    }
    const fresh = rebuild ? [] : lines.slice(at + 1);
    // Lines dropped from the front (only the latest are kept): draw afresh.
    if (!rebuild && players.log.childElementCount + kibitzers.log.childElementCount + fresh.length > lines.length) rebuild = true;
    if (rebuild) {
      players.log.replaceChildren();
      kibitzers.log.replaceChildren();
      for (const m of lines) into(m).log.append(this.line(m, me));
      this.unread = 0;
      mine.add(players).add(kibitzers);
    } else {
      for (const m of fresh) {
        const c = into(m);
        c.log.append(this.line(m, me));
        if (m.from !== me) added += 1;
        else mine.add(c);
      }
    }
    this.list = lines;
    this.last = lines.length ? lines[lines.length - 1] : null;
    const empty = (c: ChannelView, text: string): void => {
      if (c.log.childElementCount === 0) c.log.dataset.empty = text;
      else delete c.log.dataset.empty;
    };
    empty(
      players,
      scope === 'lobby' ? 'Nobody has said anything in the lobby yet.' : split ? 'The players have said nothing yet.' : 'Nothing said at this table yet.',
    );
    empty(kibitzers, 'No kibitzer has said anything yet.');

    const shown = open || !narrow;
    if (shown) this.unread = 0;
    else this.unread += added;
    this.el.dataset.open = String(open);
    this.toggle.setAttribute('aria-expanded', String(shown));
    this.toggle.textContent = open ? 'Hide' : this.unread > 0 ? `Show (${this.unread} new)` : 'Show';
    this.sendBtn.disabled = this.app.state.conn.status !== 'open';
    if (this.sendBtn.disabled) this.sendBtn.title = 'Not connected to the server: you can send again when the connection is back.';
    else this.sendBtn.removeAttribute('title');
    for (const c of [players, kibitzers]) {
      if (bottom[c === players ? 'players' : 'kibitzers'] || mine.has(c)) c.log.scrollTop = c.log.scrollHeight;
    }
  }
}
