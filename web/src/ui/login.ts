// The handle form: form#login with input#handle, and #resume when the
// browser remembers a session ("Resume as alice").  The form is built once
// and kept, so what is typed survives every redraw.

import type { App } from '../app';
import { h } from '../dom';
import type { Saved } from '../net';

const NAME_MAX = 20;
const NAME_RE = /^[A-Za-z0-9_.-]+(?: [A-Za-z0-9_.-]+)*$/;

/** Why a handle would be refused, or null when it is fine (docs/protocol.md, Limits). */
export function handleProblem(name: string): string | null {
  if (name.length === 0) return 'Type a handle to play under.';
  if (name.length > NAME_MAX) return `A handle is at most ${NAME_MAX} characters (this one has ${name.length}).`;
  if (/ {2}/.test(name)) return 'Use single spaces between words.';
  if (!NAME_RE.test(name))
    return 'A handle uses ASCII letters, digits, "_", "-", "." and single spaces between words.';
  return null;
}

export interface LoginInfo {
  /** The browser's last session, offered to resume. */
  last: Saved | null;
  /** A hello is on its way. */
  busy: boolean;
  /** The server's (or our) reason the last try failed. */
  error: string | null;
}

export class LoginView {
  readonly el: HTMLElement;
  private input: HTMLInputElement;
  private join: HTMLButtonElement;
  private errorEl: HTMLElement;
  private resumeBox: HTMLElement;
  private localError: string | null = null;
  private shownError: string | null = null;

  constructor(private readonly app: App) {
    this.input = h('input', {
      id: 'handle',
      name: 'handle',
      type: 'text',
      autocomplete: 'nickname',
      autocapitalize: 'off',
      spellcheck: 'false',
      maxlength: 40,
      required: true,
      'aria-describedby': 'handle-hint login-error',
      'data-focus': 'handle',
    });
    this.input.addEventListener('input', () => {
      if (this.localError) {
        this.localError = null;
        this.input.removeAttribute('aria-invalid');
        this.errorEl.replaceChildren();
      }
    });
    this.join = h('button', { type: 'submit', class: 'btn primary', id: 'join', 'data-focus': 'join' }, 'Join');
    this.errorEl = h('p', { id: 'login-error', class: 'form-error', role: 'alert' });
    this.resumeBox = h('div', { class: 'resume-box' });
    const form = h(
      'form',
      { id: 'login', class: 'login-form', novalidate: true, 'aria-labelledby': 'login-title' },
      h('h2', { id: 'login-title' }, 'Join the card room'),
      h(
        'div',
        { class: 'field' },
        h('label', { for: 'handle' }, 'Your handle'),
        h('div', { class: 'inline' }, this.input, this.join),
        h(
          'p',
          { id: 'handle-hint', class: 'hint' },
          'Up to 20 characters: letters, digits, _ - . and single spaces. Others at the table see it.',
        ),
      ),
      this.errorEl,
    );
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.submit();
    });
    this.el = h(
      'main',
      { class: 'login-screen', id: 'login-screen' },
      h(
        'div',
        { class: 'login-card' },
        h(
          'p',
          { class: 'login-intro' },
          'Barbu, the seven-contract card game for four, and its relatives: King, ',
          'Ravage City, Chinese Poker and the Fife game. Play with friends or computer players.',
        ),
        this.resumeBox,
        form,
      ),
    );
  }

  private submit(): void {
    const name = this.input.value.trim();
    const problem = handleProblem(name);
    if (problem) {
      this.localError = problem;
      this.showError(problem);
      this.input.focus();
      return;
    }
    this.localError = null;
    this.app.join(name);
  }

  private showError(text: string | null): void {
    if (text === this.shownError && this.errorEl.textContent === (text ?? '')) return;
    this.shownError = text;
    if (text) {
      this.input.setAttribute('aria-invalid', 'true');
      this.errorEl.replaceChildren(text);
    } else {
      this.input.removeAttribute('aria-invalid');
      this.errorEl.replaceChildren();
    }
  }

  /** Called on every redraw while the form is on the page. */
  update(info: LoginInfo): void {
    this.join.disabled = info.busy;
    this.join.textContent = info.busy ? 'Joining\u2026' : 'Join';
    this.showError(this.localError ?? info.error);
    const last = info.last;
    const want = last ? `${last.name}|${info.busy}` : '';
    if (this.resumeBox.dataset.for !== want) {
      this.resumeBox.dataset.for = want;
      if (last) {
        this.resumeBox.replaceChildren(
          h(
            'button',
            {
              type: 'button',
              id: 'resume',
              class: 'btn primary wide',
              'data-focus': 'resume',
              disabled: info.busy,
              onclick: () => this.app.resume(),
            },
            `Resume as ${last.name}`,
          ),
          h('p', { class: 'hint or' }, 'or join under a new handle:'),
        );
      } else {
        this.resumeBox.replaceChildren();
      }
    }
  }

  focus(): void {
    if (!this.el.contains(document.activeElement)) this.input.focus();
  }
}
