// Chat: form#chat with input#chat-text and the lines in #chat-log
// (role="log"): the lobby's in the lobby, the table's at a table, where
// kibitzers' talk during the game (scope "kibitzers") is tagged apart.  A sidebar
// on wide screens; on a phone a section under the table whose log folds
// away (the toggle says how many lines came meanwhile).  Built once; lines
// are appended as they come so a screen reader hears only the new ones.

import type { App } from '../app';
import { h } from '../dom';
import type { ChatMsg } from '../protocol';

const TEXT_MAX = 300;
const NARROW = '(max-width: 600px)';

export type ChatScope = 'lobby' | 'table';

function bytes(s: string): number {
  return new TextEncoder().encode(s).length;
}

export class ChatView {
  readonly el: HTMLElement;
  private title: HTMLElement;
  private toggle: HTMLButtonElement;
  private body: HTMLElement;
  private log: HTMLElement;
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
    this.log = h('ol', {
      id: 'chat-log',
      class: 'chat-log',
      role: 'log',
      'aria-live': 'polite',
      'aria-labelledby': 'chat-title',
      tabindex: 0,
    });
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
    this.body = h('div', { class: 'chat-body' }, this.log);
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
    if (m.notice) return h('li', { class: 'notice-line' }, h('span', { class: 'text' }, m.text));
    const aside = m.scope === 'kibitzers';
    return h(
      'li',
      { class: m.from === me ? 'mine' : null, 'data-scope': m.scope },
      aside ? h('span', { class: 'scope-tag', title: 'Heard by the kibitzers only' }, 'kibitzers') : null,
      aside ? h('span', { class: 'sr-only' }, ': ') : null,
      h('span', { class: 'from' }, m.from),
      h('span', { class: 'sep', 'aria-hidden': 'true' }, ': '),
      h('span', { class: 'text' }, m.text),
    );
  }

  /** `aside`: a kibitzer while the game runs at a table without kibitz
   * chat, whose lines the server gives to the other kibitzers only. */
  update(scope: ChatScope, lines: ChatMsg[], open: boolean, aside = false): void {
    const me = this.app.state.name;
    const narrow = window.matchMedia(NARROW).matches;
    const atBottom = this.log.scrollHeight - this.log.scrollTop - this.log.clientHeight < 24;
    if (scope !== this.scope || aside !== this.aside) {
      this.scope = scope;
      this.aside = aside;
      this.title.textContent = scope === 'lobby' ? 'Lobby chat' : 'Table chat';
      this.input.placeholder =
        scope === 'lobby' ? 'Message the lobby' : aside ? 'To the kibitzers only' : 'Message the table';
      this.label.textContent = aside ? 'Message to the kibitzers only' : 'Message';
      this.input.dataset.scope = aside ? 'kibitzers' : scope;
    }
    let added = 0;
    let mine = false;
    let rebuild = lines !== this.list;
    let at = -1;
    if (!rebuild && this.last) {
      at = lines.lastIndexOf(this.last);
      if (at < 0) rebuild = true;
    }
    if (rebuild) {
      this.log.replaceChildren(...lines.map((m) => this.line(m, me)));
      this.unread = 0;
      mine = true;
    } else {
      for (const m of lines.slice(at + 1)) {
        this.log.append(this.line(m, me));
        if (m.from !== me) added += 1;
        else mine = true;
      }
      while (this.log.childElementCount > lines.length) this.log.firstElementChild?.remove();
    }
    this.list = lines;
    this.last = lines.length ? lines[lines.length - 1] : null;
    if (lines.length === 0 && this.log.childElementCount === 0) {
      this.log.dataset.empty = scope === 'lobby' ? 'Nobody has said anything in the lobby yet.' : 'Nothing said at this table yet.';
    } else {
      delete this.log.dataset.empty;
    }

    const shown = open || !narrow;
    if (shown) this.unread = 0;
    else this.unread += added;
    this.el.dataset.open = String(open);
    this.toggle.setAttribute('aria-expanded', String(shown));
    this.toggle.textContent = open ? 'Hide' : this.unread > 0 ? `Show (${this.unread} new)` : 'Show';
    this.sendBtn.disabled = this.app.state.conn.status !== 'open';
    if (atBottom || mine) this.log.scrollTop = this.log.scrollHeight;
  }
}
