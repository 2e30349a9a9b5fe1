// The start form: form#login with input#handle, in one of three ways
// (`form#login[data-mode]`, chosen by the radio buttons `input#mode-guest`,
// `#mode-signin`, `#mode-signup`): play as a guest under a handle, sign in
// to a registered handle with its password (`input#password`), or sign up
// (`input#password` and `input#password-repeat`).  `#resume` when the
// browser remembers a session ("Resume as alice").  The form is built once
// and kept, so what is typed survives every redraw; the password fields
// are emptied as soon as the hello is sent or refused, and never stored.

import type { App } from '../app';
import { h } from '../dom';
import type { Saved } from '../net';

const NAME_MAX = 20;
const PASSWORD_MIN = 8;
const PASSWORD_MAX = 128;
/** A word: letters (with their marks), digits, _ - . (docs/protocol.md, Handles). */
const NAME_RE = /^[\p{L}\p{M}\p{Nd}_.-]+(?: [\p{L}\p{M}\p{Nd}_.-]+)*$/u;

export type LoginMode = 'guest' | 'signin' | 'signup';

/** Characters as a person counts them (code points after NFC). */
export function charCount(s: string): number {
  return [...s.normalize('NFC')].length;
}

/** Why a handle would be refused, or null when it is fine.  The server has
 * the last word (look-alikes of registered handles, mixed scripts). */
export function handleProblem(name: string): string | null {
  const n = charCount(name);
  if (n === 0) return 'Type a handle to play under.';
  if (n > NAME_MAX) return `A handle is at most ${NAME_MAX} characters (this one has ${n}).`;
  if (/ {2}/.test(name)) return 'Use single spaces between words.';
  if (!NAME_RE.test(name.normalize('NFC')))
    return 'A handle uses letters, digits, "_", "-", "." and single spaces between words.';
  return null;
}

/** Why a new password would be refused, or null (the server checks again). */
export function newPasswordProblem(pw: string, repeat: string, name: string | null): string | null {
  const n = charCount(pw);
  if (n < PASSWORD_MIN) return `A password has at least ${PASSWORD_MIN} characters (this one has ${n}).`;
  if (n > PASSWORD_MAX) return `A password has at most ${PASSWORD_MAX} characters (this one has ${n}).`;
  if (name !== null && pw.normalize('NFC') === name.normalize('NFC')) return 'The password cannot be the handle itself: choose another.';
  if (pw !== repeat) return 'The two passwords are not the same: type the new one twice.';
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

const SUBMIT_WORDS: Record<LoginMode, [string, string]> = {
  guest: ['Join', 'Joining\u2026'],
  signin: ['Sign in', 'Signing in\u2026'],
  signup: ['Sign up', 'Signing up\u2026'],
};

const HINTS: Record<LoginMode, string> = {
  guest: 'Up to 20 characters: letters (any alphabet), digits, _ - . and single spaces. Others see it, marked as a guest; it is free again when you leave.',
  signin: 'The handle you signed up with, in any letter case.',
  signup: 'Up to 20 characters: letters (any alphabet), digits, _ - . and single spaces. Once signed up, nobody else can use it or a look-alike.',
};

export class LoginView {
  readonly el: HTMLElement;
  private form: HTMLFormElement;
  private input: HTMLInputElement;
  private password: HTMLInputElement;
  private repeat: HTMLInputElement;
  private passwordField: HTMLElement;
  private repeatField: HTMLElement;
  private passwordHint: HTMLElement;
  private hint: HTMLElement;
  private join: HTMLButtonElement;
  private errorEl: HTMLElement;
  private resumeBox: HTMLElement;
  private modes: Map<LoginMode, HTMLInputElement> = new Map();
  private mode: LoginMode = 'guest';
  private localError: string | null = null;
  private shownError: string | null = null;
  private busy = false;
  private lastServerError: string | null = null;

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
    this.password = h('input', {
      id: 'password',
      name: 'password',
      type: 'password',
      autocomplete: 'current-password',
      maxlength: 512,
      'aria-describedby': 'password-hint login-error',
      'data-focus': 'password',
    });
    this.repeat = h('input', {
      id: 'password-repeat',
      name: 'password-repeat',
      type: 'password',
      autocomplete: 'new-password',
      maxlength: 512,
      'aria-describedby': 'login-error',
      'data-focus': 'password-repeat',
    });
    for (const el of [this.input, this.password, this.repeat]) {
      el.addEventListener('input', () => {
        if (this.localError) {
          this.localError = null;
          el.removeAttribute('aria-invalid');
          this.showError(null);
        }
      });
    }
    this.join = h('button', { type: 'submit', class: 'btn primary', id: 'join', 'data-focus': 'join' }, 'Join');
    this.errorEl = h('p', { id: 'login-error', class: 'form-error', role: 'alert' });
    this.resumeBox = h('div', { class: 'resume-box' });
    this.hint = h('p', { id: 'handle-hint', class: 'hint' }, HINTS.guest);
    this.passwordHint = h('p', { id: 'password-hint', class: 'hint' });
    this.passwordField = h(
      'div',
      { class: 'field', id: 'password-field', hidden: true },
      h('label', { for: 'password' }, 'Password'),
      this.password,
      this.passwordHint,
    );
    this.repeatField = h(
      'div',
      { class: 'field', id: 'password-repeat-field', hidden: true },
      h('label', { for: 'password-repeat' }, 'The password again'),
      this.repeat,
    );

    const modeBox = (m: LoginMode, words: string): HTMLElement => {
      const r = h('input', { type: 'radio', name: 'login-mode', id: `mode-${m}`, value: m, 'data-focus': `mode-${m}` });
      r.checked = m === this.mode;
      r.addEventListener('change', () => {
        if (r.checked) this.setMode(m);
      });
      this.modes.set(m, r);
      return h('label', { class: 'mode', for: `mode-${m}` }, r, ` ${words}`);
    };

    this.form = h(
      'form',
      { id: 'login', class: 'login-form', novalidate: true, 'aria-labelledby': 'login-title', 'data-mode': 'guest' },
      h('h2', { id: 'login-title' }, 'Join the card room'),
      h(
        'fieldset',
        { class: 'login-modes', id: 'login-modes' },
        h('legend', { class: 'sr-only' }, 'How to join'),
        modeBox('guest', 'Play as a guest'),
        modeBox('signin', 'Sign in'),
        modeBox('signup', 'Sign up'),
      ),
      h(
        'div',
        { class: 'field' },
        h('label', { for: 'handle' }, 'Your handle'),
        h('div', { class: 'inline' }, this.input),
        this.hint,
      ),
      this.passwordField,
      this.repeatField,
      h('div', { class: 'login-submit' }, this.join),
      this.errorEl,
    );
    this.form.addEventListener('submit', (e) => {
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
        this.form,
      ),
    );
    this.setMode('guest');
  }

  /** Guest, sign in or sign up: the fields and words that go with it. */
  setMode(m: LoginMode): void {
    this.mode = m;
    const r = this.modes.get(m);
    if (r && !r.checked) r.checked = true;
    this.form.dataset.mode = m;
    this.passwordField.hidden = m === 'guest';
    this.repeatField.hidden = m !== 'signup';
    this.password.autocomplete = m === 'signup' ? 'new-password' : 'current-password';
    this.passwordHint.textContent =
      m === 'signup'
        ? `${PASSWORD_MIN} to ${PASSWORD_MAX} characters, not the handle itself. It is never shown to anyone, nor kept by this page.`
        : m === 'signin'
          ? 'The password you chose when you signed up. This page does not keep it.'
          : '';
    this.hint.textContent = HINTS[m];
    this.localError = null;
    this.showError(null);
    this.drawSubmit();
  }

  /** The form in the sign-in way with this handle typed (after being signed out). */
  prefill(name: string, mode: LoginMode): void {
    this.input.value = name;
    this.setMode(mode);
  }

  private drawSubmit(): void {
    const [idle, busy] = SUBMIT_WORDS[this.mode];
    const words = this.busy ? busy : idle;
    if (this.join.textContent !== words) this.join.textContent = words;
    this.join.disabled = this.busy;
  }

  private fail(text: string, el: HTMLInputElement): void {
    this.localError = text;
    el.setAttribute('aria-invalid', 'true');
    this.showError(text);
    el.focus();
  }

  private clearPasswords(): void {
    this.password.value = '';
    this.repeat.value = '';
  }

  private submit(): void {
    const name = this.input.value.trim().normalize('NFC');
    for (const el of [this.input, this.password, this.repeat]) el.removeAttribute('aria-invalid');
    const problem = handleProblem(name);
    if (problem) {
      this.fail(problem, this.input);
      return;
    }
    this.localError = null;
    if (this.mode === 'guest') {
      this.app.join(name);
      return;
    }
    const pw = this.password.value;
    if (this.mode === 'signin') {
      if (pw === '') {
        this.fail('Type the password of this handle (or play as a guest).', this.password);
        return;
      }
      this.clearPasswords();
      this.app.join(name, pw, false);
      return;
    }
    const bad = newPasswordProblem(pw, this.repeat.value, name);
    if (bad) {
      this.fail(bad, bad.includes('not the same') ? this.repeat : this.password);
      return;
    }
    this.clearPasswords();
    this.app.join(name, pw, true);
  }

  private showError(text: string | null): void {
    if (text === this.shownError && this.errorEl.textContent === (text ?? '')) return;
    this.shownError = text;
    if (text) {
      if (!this.form.querySelector('[aria-invalid]')) this.input.setAttribute('aria-invalid', 'true');
      this.errorEl.replaceChildren(text);
    } else {
      for (const el of [this.input, this.password, this.repeat]) el.removeAttribute('aria-invalid');
      this.errorEl.replaceChildren();
    }
  }

  /** Called on every redraw while the form is on the page. */
  update(info: LoginInfo): void {
    this.busy = info.busy;
    this.drawSubmit();
    if (info.error !== this.lastServerError) {
      this.lastServerError = info.error;
      // A refusal: a password typed is gone (it was sent once).
      if (info.error) this.clearPasswords();
    }
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
          h('p', { class: 'hint or' }, 'or join another way:'),
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
