// The player's settings (`button#settings-btn` in the header opens
// `dialog#settings`): how long a finished trick stays, the turn sound,
// tap-then-confirm for playing a card, how long the deal's summary stays,
// and the table's look: its colour, the card spacing and size, the
// four-colour deck (look.ts).  Each change is kept at once (settings.ts,
// localStorage, and a registered player's account) and heard by every
// part of the page that reads it.

import { h } from '../dom';
import { chime } from '../turn';
import type { CardSize, Settings } from '../settings';
import { CARD_SIZES, CARD_SPACING_MAX, CARD_SPACING_MIN, DEFAULT_SETTINGS, TRICK_PAUSE_MAX, setSetting, settings } from '../settings';

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

function checkField(key: 'sound' | 'tapConfirm' | 'fourColour', id: string, label: string, hint: string, extra?: HTMLElement): HTMLElement {
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

/** The felt's colour when none is chosen (app.css --felt). */
const HOUSE_GREEN = '#1d5c45';

function colourField(): HTMLElement {
  const id = 'set-table-colour';
  const input = h('input', { type: 'color', id, value: settings().tableColour || HOUSE_GREEN, 'aria-describedby': `${id}-hint` });
  input.addEventListener('input', () => setSetting('tableColour', input.value.toLowerCase()));
  const reset = h(
    'button',
    {
      type: 'button',
      class: 'btn small',
      id: 'set-table-colour-reset',
      onclick: () => {
        setSetting('tableColour', '');
        input.value = HOUSE_GREEN;
      },
    },
    'The house green',
  );
  return h(
    'div',
    { class: 'field' },
    h('label', { for: id }, 'Table colour'),
    h('div', { class: 'inline-field' }, input, reset),
    h('p', { class: 'hint', id: `${id}-hint` }, 'The felt changes at once; on a light colour its text turns dark.'),
  );
}

function spacingField(): HTMLElement {
  const id = 'set-card-spacing';
  const now = settings().cardSpacing;
  const out = h('output', { id: `${id}-value`, for: id });
  const say = (): void => {
    const v = settings().cardSpacing;
    out.textContent = v ? `${v} px` : 'as wide as the table allows';
  };
  const input = h('input', {
    type: 'range',
    id,
    min: CARD_SPACING_MIN,
    max: CARD_SPACING_MAX,
    step: 1,
    value: now || CARD_SPACING_MAX,
    'aria-describedby': `${id}-hint`,
  });
  input.addEventListener('input', () => {
    setSetting('cardSpacing', Number(input.value));
    say();
  });
  say();
  return h(
    'div',
    { class: 'field' },
    h('label', { for: id }, 'Card spacing in your hand'),
    h('div', { class: 'inline-field' }, input, out),
    h(
      'p',
      { class: 'hint', id: `${id}-hint` },
      `${CARD_SPACING_MIN} to ${CARD_SPACING_MAX} pixels from one card to the next; the cards still close up when the table is too narrow for them, and a phone keeps its two rows of cards.`,
    ),
  );
}

function sizeField(): HTMLElement {
  const id = 'set-card-size';
  const names: Record<CardSize, string> = { small: 'Small', medium: 'Medium', large: 'Large' };
  const select = h(
    'select',
    { id, 'aria-describedby': `${id}-hint` },
    ...CARD_SIZES.map((v) => h('option', { value: v }, names[v])),
  );
  select.value = settings().cardSize;
  select.addEventListener('change', () => setSetting('cardSize', select.value as CardSize));
  return h(
    'div',
    { class: 'field' },
    h('label', { for: id }, 'Card size'),
    select,
    h('p', { class: 'hint', id: `${id}-hint` }, 'The cards of your hand and of the trick (on a phone, of the trick).'),
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
    h(
      'p',
      { class: 'hint' },
      'Kept in this browser for every table and your next visit; signed in with a password, also with your account, for every browser you sign in from.',
    ),
    numberField(
      'trickPause',
      'set-trick-pause',
      'A finished trick stays (ms)',
      `0 to ${TRICK_PAUSE_MAX} milliseconds before it goes to its winner (default ${def.trickPause}); a click on it moves on sooner.`,
      0,
      TRICK_PAUSE_MAX,
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
    colourField(),
    spacingField(),
    sizeField(),
    checkField(
      'fourColour',
      'set-four-colour',
      'A four-colour deck',
      'Clubs green and diamonds blue, beside red hearts and black spades: no suit is mistaken for its partner.',
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
