// While the connection is down, a button that needs the server would do
// nothing: each such button is disabled, its title saying why, and given
// back when the connection is open again.  The hand's cards are marked
// aria-disabled instead, so that a keyboard player's focus stays in the
// hand.  Buttons that work without the server (opening a window, the last
// trick, a form's Cancel) stay as they are; a part of the page marks its
// own such buttons with `data-offline-ok`.

const WHY = 'Not connected to the server: this works again when the connection is back.';

/** Buttons that only change what the page shows. */
const LOCAL = [
  '[data-offline-ok]',
  '#score-btn',
  '#score-close',
  '#last-trick-btn',
  '[data-focus="last-trick-close"]',
  '#new-table',
  '#create-cancel',
  '#chat-toggle',
  '#settings-btn',
  '#summary-close',
  '#review-btn',
  '#showdown-btn',
  '#copy-invite',
  '#confirm-no',
].join(', ');

function disable(b: HTMLButtonElement): void {
  if (b.dataset.offline !== undefined || b.matches(LOCAL)) return;
  if (b.disabled || b.getAttribute('aria-disabled') === 'true') return;
  const card = b.classList.contains('card') && b.closest('#hand') !== null;
  b.dataset.offline = card ? 'aria' : 'disabled';
  if (b.hasAttribute('title')) b.dataset.offlineTitle = b.title;
  b.title = WHY;
  if (card) b.setAttribute('aria-disabled', 'true');
  else b.disabled = true;
}

function restore(b: HTMLButtonElement): void {
  if (b.dataset.offline === 'aria') b.removeAttribute('aria-disabled');
  else b.disabled = false;
  if (b.dataset.offlineTitle !== undefined) b.title = b.dataset.offlineTitle;
  else b.removeAttribute('title');
  delete b.dataset.offline;
  delete b.dataset.offlineTitle;
}

/** Disables (`open` false) or gives back (`open` true) the buttons under `roots`. */
export function applyOffline(roots: readonly Element[], open: boolean): void {
  for (const root of roots) {
    if (open) {
      if (root instanceof HTMLElement) delete root.dataset.offline;
      for (const b of root.querySelectorAll<HTMLButtonElement>('button[data-offline]')) restore(b);
    } else {
      if (root instanceof HTMLElement) root.dataset.offline = 'true';
      for (const b of root.querySelectorAll<HTMLButtonElement>('button')) disable(b);
    }
  }
}

/** Whether a button was disabled here (its click must do nothing). */
export function offlineDisabled(el: EventTarget | null): boolean {
  return el instanceof HTMLElement && el.dataset.offline !== undefined;
}
