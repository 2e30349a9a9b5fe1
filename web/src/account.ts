// Who you are, in the header: `button#account-btn` (the handle, "(guest)"
// for a guest) opens `#account-menu`: "Signed in as Zoë" or "Playing as
// alice (guest)", and for a registered player `button#change-password`
// and `button#sign-out-everywhere`; for a guest `button#register-btn`
// (register the handle in use, keeping the seat); `button#sign-out` for
// everybody (as the header's `#logout`), and `button#admin-open` for an
// administrator.  The password dialog (`dialog#password-dialog`,
// `form#password-form`: `input#pw-current`, `input#pw-new`,
// `input#pw-repeat`, `#password-error`, `button#password-submit`) sends
// `password` or `register`; the server's `account` gives the page its new
// token (main.ts).  Passwords stay in the dialog's fields until sent, then
// the fields are emptied: nothing is stored, nothing is logged.

import type { App } from './app';
import { fill, h } from './dom';
import { ask } from './ui/confirm';
import { charCount, newPasswordProblem } from './ui/login';
import { sentence } from './text';

export interface AccountHooks {
  /** The header's sign out (asks first). */
  signOut(): void;
  /** Opens the administrators' panel. */
  openAdmin(): void;
}

/** "(guest)" beside a guest's handle: a computer player or a registered
 * player has none. */
export function guestMark(registered: boolean | undefined, bot = false): HTMLElement | null {
  if (registered || bot) return null;
  return h('span', { class: 'guest-tag', title: 'A guest: this handle is not registered' }, ' (guest)');
}

/** The date a token stops working, in words ("27 December 2026"). */
function dateWords(seconds: number): string {
  try {
    return new Date(seconds * 1000).toLocaleDateString(undefined, { day: 'numeric', month: 'long', year: 'numeric' });
  } catch {
    return new Date(seconds * 1000).toDateString();
  }
}

type PwMode = 'change' | 'register';

class PasswordDialog {
  private dialog: HTMLDialogElement | null = null;
  private current!: HTMLInputElement;
  private fresh!: HTMLInputElement;
  private repeat!: HTMLInputElement;
  private currentField!: HTMLElement;
  private title!: HTMLElement;
  private intro!: HTMLElement;
  private error!: HTMLElement;
  private submitBtn!: HTMLButtonElement;
  private mode: PwMode = 'change';
  private busy = false;
  private back: HTMLElement | null = null;

  constructor(private readonly app: App) {}

  private make(): HTMLDialogElement {
    this.current = h('input', { type: 'password', id: 'pw-current', name: 'current-password', autocomplete: 'current-password', maxlength: 512 });
    this.fresh = h('input', { type: 'password', id: 'pw-new', name: 'new-password', autocomplete: 'new-password', maxlength: 512, 'aria-describedby': 'pw-new-hint' });
    this.repeat = h('input', { type: 'password', id: 'pw-repeat', name: 'repeat-password', autocomplete: 'new-password', maxlength: 512 });
    this.currentField = h('div', { class: 'field' }, h('label', { for: 'pw-current' }, 'Your password now'), this.current);
    this.title = h('h2', { id: 'password-title' });
    this.intro = h('p', { id: 'password-intro' });
    this.error = h('p', { id: 'password-error', class: 'form-error', role: 'alert' });
    this.submitBtn = h('button', { type: 'submit', id: 'password-submit', class: 'btn primary' }, 'Change the password');
    // A hidden user name helps a password manager file the new password
    // under the right handle.
    const user = h('input', { type: 'text', name: 'username', autocomplete: 'username', hidden: true, readonly: true, tabindex: -1, 'aria-hidden': 'true', id: 'pw-user' });
    const form = h(
      'form',
      { id: 'password-form', method: 'dialog', novalidate: true },
      this.title,
      this.intro,
      user,
      this.currentField,
      h(
        'div',
        { class: 'field' },
        h('label', { for: 'pw-new' }, 'New password'),
        this.fresh,
        h('p', { class: 'hint', id: 'pw-new-hint' }, '8 to 128 characters, not the handle itself.'),
      ),
      h('div', { class: 'field' }, h('label', { for: 'pw-repeat' }, 'The new password again'), this.repeat),
      this.error,
      h(
        'div',
        { class: 'dialog-buttons' },
        h('button', { type: 'button', id: 'password-cancel', class: 'btn', onclick: () => this.close() }, 'Cancel'),
        this.submitBtn,
      ),
    );
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      void this.submit();
    });
    for (const el of [this.current, this.fresh, this.repeat]) el.addEventListener('input', () => this.setError(null));
    const d = h('dialog', { id: 'password-dialog', class: 'confirm-dialog password-dialog', 'aria-labelledby': 'password-title' }, form);
    d.addEventListener('close', () => this.clear());
    document.body.append(d);
    return d;
  }

  open(mode: PwMode): void {
    this.dialog ??= this.make();
    const d = this.dialog;
    this.mode = mode;
    this.back = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const name = this.app.state.name ?? '';
    (d.querySelector('#pw-user') as HTMLInputElement).value = name;
    this.currentField.hidden = mode === 'register';
    this.title.textContent = mode === 'change' ? 'Change your password' : `Register ${name}`;
    this.intro.textContent =
      mode === 'change'
        ? 'Every other place signed in to this account (another browser, a phone) is signed out; this one stays.'
        : `Keep ${name} as yours: with a password, nobody else can use it or a look-alike, and you can sign in from any browser. You keep your seat.`;
    this.submitBtn.textContent = mode === 'change' ? 'Change the password' : 'Register';
    this.setError(null);
    this.clear();
    d.showModal();
    (mode === 'change' ? this.current : this.fresh).focus();
  }

  private close(): void {
    if (this.dialog?.open) this.dialog.close();
    this.clear();
    if (this.back?.isConnected) this.back.focus({ preventScroll: true });
  }

  private clear(): void {
    if (!this.dialog) return;
    this.current.value = '';
    this.fresh.value = '';
    this.repeat.value = '';
  }

  private setError(text: string | null, el?: HTMLInputElement): void {
    this.error.textContent = text ?? '';
    for (const x of [this.current, this.fresh, this.repeat]) x.removeAttribute('aria-invalid');
    if (text && el) {
      el.setAttribute('aria-invalid', 'true');
      el.focus();
    }
  }

  private async submit(): Promise<void> {
    if (this.busy) return;
    const name = this.app.state.name;
    if (this.mode === 'change' && charCount(this.current.value) === 0) {
      this.setError('Type the password you have now.', this.current);
      return;
    }
    const bad = newPasswordProblem(this.fresh.value, this.repeat.value, name);
    if (bad) {
      this.setError(bad, bad.includes('not the same') ? this.repeat : this.fresh);
      return;
    }
    const msg =
      this.mode === 'change'
        ? ({ type: 'password', password: this.current.value, new_password: this.fresh.value } as const)
        : ({ type: 'register', password: this.fresh.value } as const);
    this.clear();
    this.busy = true;
    this.submitBtn.disabled = true;
    try {
      const r = await this.app.request(msg, true);
      if (r.type === 'account') {
        this.close();
        this.app.notify(
          'info',
          this.mode === 'change'
            ? 'Your password is changed: every other place signed in to this account is signed out.'
            : `${r.name} is registered to you: sign in with its password from any browser.`,
        );
      } else if (r.type === 'error') {
        this.setError(sentence(r.text || `The server refused that (${r.code}): try again.`), this.mode === 'change' ? this.current : this.fresh);
      }
    } finally {
      this.busy = false;
      this.submitBtn.disabled = false;
    }
  }
}

export class AccountMenu {
  readonly el: HTMLElement;
  private btn: HTMLButtonElement;
  private menu: HTMLElement;
  private drawn = '';
  private pw: PasswordDialog;

  constructor(
    private readonly app: App,
    private readonly hooks: AccountHooks,
  ) {
    this.pw = new PasswordDialog(app);
    this.btn = h('button', {
      type: 'button',
      id: 'account-btn',
      class: 'btn small account-btn',
      'aria-expanded': 'false',
      'aria-controls': 'account-menu',
      onclick: () => this.toggle(),
    });
    this.menu = h('div', { id: 'account-menu', class: 'account-menu', hidden: true });
    this.el = h('div', { class: 'account', hidden: true }, this.btn, this.menu);
    this.menu.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        this.close(true);
      }
    });
    window.addEventListener('resize', () => {
      if (!this.menu.hidden) this.place();
    });
    document.addEventListener('click', (e) => {
      if (!this.menu.hidden && e.target instanceof Node && !this.el.contains(e.target)) this.close(false);
    });
  }

  private toggle(): void {
    if (this.menu.hidden) {
      this.place();
      this.menu.hidden = false;
      this.btn.setAttribute('aria-expanded', 'true');
      this.menu.querySelector<HTMLElement>('button')?.focus();
    } else this.close(true);
  }

  /** Under its button, kept inside the screen (the button is on the left
   * of a phone's header, on the right of a wide one). */
  private place(): void {
    const r = this.btn.getBoundingClientRect();
    const w = Math.min(320, window.innerWidth - 24);
    const left = Math.max(12, Math.min(r.right - w, window.innerWidth - 12 - w));
    this.menu.style.top = `${Math.round(r.bottom + 6)}px`;
    this.menu.style.left = `${Math.round(left)}px`;
    this.menu.style.width = `${w}px`;
  }

  close(focus: boolean): void {
    if (this.menu.hidden) return;
    this.menu.hidden = true;
    this.btn.setAttribute('aria-expanded', 'false');
    if (focus) this.btn.focus();
  }

  private item(id: string, words: string, act: () => void, cls = ''): HTMLElement {
    return h(
      'li',
      null,
      h(
        'button',
        {
          type: 'button',
          id,
          class: `btn small menu-item ${cls}`,
          onclick: () => {
            this.close(false);
            act();
          },
        },
        words,
      ),
    );
  }

  /** Shown while signed in (the lobby and the table). */
  update(shown: boolean): void {
    const s = this.app.state;
    const name = s.name ?? '';
    const a = s.account;
    const key = `${shown}|${name}|${a.registered}|${a.admin}|${a.expires ?? ''}`;
    if (key === this.drawn) return;
    this.drawn = key;
    this.el.hidden = !shown;
    if (!shown) {
      this.close(false);
      return;
    }
    this.el.dataset.registered = String(a.registered);
    fill(
      this.btn,
      h('span', { class: 'sr-only' }, a.registered ? 'Signed in as ' : 'Playing as '),
      h('span', { class: 'account-name' }, name),
      a.registered ? null : h('span', { class: 'guest-tag' }, ' (guest)'),
      a.admin ? h('span', { class: 'tag admin-tag' }, 'admin') : null,
      h('span', { 'aria-hidden': 'true' }, ' \u25be'),
    );
    const who = a.registered
      ? h('p', { class: 'account-who' }, 'Signed in as ', h('strong', null, name), a.admin ? ', an administrator' : '', '.')
      : h('p', { class: 'account-who' }, 'Playing as ', h('strong', null, name), ' (guest): the handle is free again when you leave.');
    const until = a.registered && a.expires ? h('p', { class: 'hint account-until' }, `This browser stays signed in until ${dateWords(a.expires)}.`) : null;
    const items: HTMLElement[] = [];
    if (a.admin) items.push(this.item('admin-open-menu', 'Administration', () => this.hooks.openAdmin()));
    if (a.registered) {
      items.push(this.item('change-password', 'Change the password', () => this.pw.open('change')));
    } else {
      items.push(this.item('register-btn', `Register ${name}`, () => this.pw.open('register')));
    }
    items.push(this.item('sign-out', a.registered ? 'Sign out' : 'Log out', () => this.hooks.signOut()));
    if (a.registered) items.push(this.item('sign-out-everywhere', 'Sign out everywhere', () => void this.everywhere(), 'danger-text'));
    fill(this.menu, who, until, h('ul', { class: 'menu-items' }, items));
  }

  private async everywhere(): Promise<void> {
    const name = this.app.state.name ?? '';
    const yes = await ask({
      title: 'Sign out everywhere?',
      text: [
        `Every browser and device signed in as ${name} is signed out, this one too: a seat you hold is left as when you sign out.`,
        'To play again, sign in with your password.',
      ],
      yes: 'Sign out everywhere',
      no: 'Stay',
    });
    if (yes) this.app.logout(true);
  }
}
