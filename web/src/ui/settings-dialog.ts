// The player's settings (`button#settings-btn` in the header opens
// `dialog#settings`): how long a finished trick stays, the turn sound,
// tap-then-confirm for playing a card, how long the deal's summary stays.
// Each change is kept at once (settings.ts, localStorage) and heard by
// every part of the page that reads it.

import { h } from '../dom';
import { chime } from '../turn';
import type { Settings } from '../settings';
import { DEFAULT_SETTINGS, setSetting, settings } from '../settings';

let dialog: HTMLDialogElement | null = null;

function numberField(
  key: 'trickPause' | 'summaryPause',
  id: string,
  label: string,
  hint: string,
  min: number,
  max: number,
  step: number,
): HTMLElement {
  const input = h('input', {
    type: 'number',
    id,
    min,
    max,
    step,
    inputmode: 'numeric',
    value: settings()[key],
    'aria-describedby': `${id}-hint`,
  });
  const err = h('p', { class: 'form-error', id: `${id}-error`, role: 'alert' });
  const valid = (): number | null => {
    const n = Number(input.value);
    return input.value.trim() === '' || !Number.isInteger(n) || n < min || n > max ? null : n;
  };
  // Kept while typing when valid; a complaint only once the field is left.
  input.addEventListener('input', () => {
    const n = valid();
    if (n !== null && n !== settings()[key]) setSetting(key, n);
  });
  input.addEventListener('change', () => {
    const n = valid();
    if (n === null) {
      input.setAttribute('aria-invalid', 'true');
      err.textContent = `Give a whole number from ${min} to ${max}; the setting stays ${settings()[key]}.`;
      return;
    }
    input.removeAttribute('aria-invalid');
    err.textContent = '';
    setSetting(key, n);
  });
  return h(
    'div',
    { class: 'field' },
    h('label', { for: id }, label),
    input,
    h('p', { class: 'hint', id: `${id}-hint` }, hint),
    err,
  );
}

function checkField(key: 'sound' | 'tapConfirm', id: string, label: string, hint: string, extra?: HTMLElement): HTMLElement {
  const box = h('input', { type: 'checkbox', id, 'aria-describedby': `${id}-hint` });
  box.checked = settings()[key];
  box.addEventListener('change', () => {
    setSetting(key, box.checked);
    // Turning the sound on is a click: the browser lets it play now, so the
    // player hears what it sounds like.
    if (key === 'sound' && box.checked) chime();
  });
  return h(
    'div',
    { class: 'field check-field' },
    h('label', { class: 'check', for: id }, box, ` ${label}`),
    extra ?? null,
    h('p', { class: 'hint', id: `${id}-hint` }, hint),
  );
}

function build(): HTMLDialogElement {
  const d = h('dialog', { id: 'settings', class: 'settings-dialog', 'aria-labelledby': 'settings-title' });
  d.addEventListener('cancel', (e) => {
    e.preventDefault();
    close();
  });
  document.body.append(d);
  return d;
}

function fillDialog(d: HTMLDialogElement): void {
  const def: Settings = DEFAULT_SETTINGS;
  d.replaceChildren(
    h('h2', { id: 'settings-title' }, 'Settings'),
    h('p', { class: 'hint' }, 'Kept in this browser for every table and your next visit.'),
    numberField(
      'trickPause',
      'set-trick-pause',
      'A finished trick stays (ms)',
      `0 to 10000 milliseconds before it goes to its winner (default ${def.trickPause}); a click on it moves on sooner.`,
      0,
      10000,
      100,
    ),
    checkField(
      'sound',
      'set-sound',
      'A sound when it is your turn',
      'A short chime, made by the browser, as your turn comes; the tab title says "Your turn" either way. Off by default.',
      h('button', { type: 'button', class: 'btn small', id: 'sound-test', onclick: () => chime() }, 'Play the sound'),
    ),
    checkField(
      'tapConfirm',
      'set-tap-confirm',
      'Tap a card twice to play it',
      'The first tap raises the card, the second plays it: no card goes by a slip of the finger.',
    ),
    numberField(
      'summaryPause',
      'set-summary-pause',
      "The deal's summary stays (s)",
      `0 to 60 seconds before it closes by itself (default ${def.summaryPause}); 0 keeps it until you close it.`,
      0,
      60,
      1,
    ),
    h(
      'div',
      { class: 'dialog-buttons' },
      h('button', { type: 'button', class: 'btn primary', id: 'settings-close', onclick: () => close() }, 'Done'),
    ),
  );
}

let back: HTMLElement | null = null;

export function openSettings(): void {
  dialog ??= build();
  fillDialog(dialog);
  back = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  if (typeof dialog.showModal === 'function') dialog.showModal();
  else dialog.setAttribute('open', '');
  (dialog.querySelector('input') as HTMLElement | null)?.focus();
}

function close(): void {
  if (!dialog) return;
  if (dialog.open) dialog.close();
  else dialog.removeAttribute('open');
  if (back?.isConnected) back.focus({ preventScroll: true });
}

/** `button#settings-btn` for the header. */
export function settingsButton(): HTMLButtonElement {
  return h(
    'button',
    {
      type: 'button',
      class: 'btn small',
      id: 'settings-btn',
      'aria-haspopup': 'dialog',
      title: 'Settings',
      onclick: () => openSettings(),
    },
    h('span', { 'aria-hidden': 'true' }, '\u2699 '),
    'Settings',
  );
}
