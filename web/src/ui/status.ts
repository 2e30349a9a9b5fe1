// The connection's state in the header (#conn[data-state]) and the notice
// line (#notice): the latest error or piece of news, fading after a while.

import type { ConnState, Notice } from '../app';
import { h } from '../dom';

/** How long a notice stays (its fading is the CSS animation's last second). */
export const NOTICE_MS = 6000;

function online(): boolean {
  return typeof navigator === 'undefined' || navigator.onLine !== false;
}

/** Words for the connection's state: "Connected", "Reconnecting in 3 s…", "Offline". */
export function connText(conn: ConnState, signedIn: boolean): string {
  switch (conn.status) {
    case 'open':
      return 'Connected';
    case 'connecting':
      return conn.attempts > 0 ? 'Reconnecting\u2026' : 'Connecting\u2026';
    case 'reconnecting': {
      if (!online()) return 'Offline: waiting for the network';
      const s = Math.ceil(((conn.retryAt ?? 0) - Date.now()) / 1000);
      return s > 0 ? `Reconnecting in ${s}\u00a0s\u2026` : 'Reconnecting\u2026';
    }
    case 'closed':
      if (conn.reason === 'replaced') return 'Opened in another tab';
      if (conn.reason) return conn.reason;
      return signedIn ? 'Offline' : 'Not signed in';
  }
}

export interface ConnActions {
  reconnectNow(): void;
  takeBack(): void;
}

/** `#conn[data-state]` and "Try now" while waiting to reconnect.  Built once:
 * the countdown changes every second but a screen reader hears only the
 * state's words ("Reconnecting"), not each tick. */
export class ConnView {
  readonly el: HTMLElement;
  private conn: HTMLElement;
  private spoken: HTMLElement;
  private shown: HTMLElement;
  private retry: HTMLButtonElement;

  constructor(act: ConnActions) {
    this.spoken = h('span', { class: 'sr-only', role: 'status' });
    this.shown = h('span', { class: 'conn-text' });
    this.conn = h(
      'span',
      { id: 'conn', 'data-state': 'closed', 'aria-hidden': 'true' },
      h('span', { class: 'conn-dot' }),
      this.shown,
    );
    this.retry = h(
      'button',
      { type: 'button', class: 'btn small', id: 'reconnect-now', hidden: true, onclick: () => act.reconnectNow() },
      'Try now',
    );
    this.el = h('div', { class: 'conn-wrap' }, this.conn, this.spoken, this.retry);
  }

  update(conn: ConnState, signedIn: boolean): void {
    const text = connText(conn, signedIn);
    if (this.conn.dataset.state !== conn.status) this.conn.dataset.state = conn.status;
    if (this.shown.textContent !== text) this.shown.textContent = text;
    const spoken = conn.status === 'reconnecting' && online() ? 'Reconnecting' : text;
    if (this.spoken.textContent !== spoken) this.spoken.textContent = spoken;
    const retry = conn.status === 'reconnecting' && online();
    if (this.retry.hidden === retry) this.retry.hidden = !retry;
  }
}

/** The banner under the header when the connection stopped for good. */
export function renderBanner(conn: ConnState, act: ConnActions): HTMLElement | null {
  if (conn.status !== 'closed' || conn.reason !== 'replaced') return null;
  return h(
    'div',
    { class: 'conn-banner', id: 'replaced' },
    h(
      'p',
      null,
      'This session is now open in another tab or window, so this one has stopped. ',
      'Only one place at a time can play a seat.',
    ),
    h(
      'button',
      { type: 'button', class: 'btn primary', id: 'take-back', 'data-focus': 'take-back', onclick: () => act.takeBack() },
      'Take the session back here',
    ),
  );
}

/** `#notice`: one element that stays, its role and text set per notice. */
export class NoticeView {
  readonly el: HTMLElement;
  private shown: Notice | null = null;

  constructor() {
    this.el = h('div', { id: 'notice', class: 'notice', role: 'status', 'aria-live': 'polite' });
  }

  show(n: Notice | null): void {
    if (n === this.shown) return;
    this.shown = n;
    if (!n) {
      this.el.replaceChildren();
      this.el.dataset.kind = '';
      this.el.classList.remove('showing');
      return;
    }
    const alert = n.kind === 'error';
    this.el.setAttribute('role', alert ? 'alert' : 'status');
    this.el.setAttribute('aria-live', alert ? 'assertive' : 'polite');
    this.el.dataset.kind = n.kind;
    // Restart the fading animation.
    this.el.classList.remove('showing');
    void this.el.offsetWidth;
    this.el.classList.add('showing');
    this.el.replaceChildren(h('span', { class: 'notice-text' }, n.text));
  }
}
