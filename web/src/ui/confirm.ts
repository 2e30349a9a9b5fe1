// The question asked before a step that is hard to undo (leaving a table,
// logging out, closing or handing over a table): `dialog#confirm` with
// `button#confirm-yes` and `button#confirm-no`.  One dialog, made on first
// use and kept; `ask()` resolves true only for the yes button.  Escape and
// the no button answer no; the focus goes back where it was.

import { fill, h } from '../dom';

export interface Question {
  title: string;
  /** What the step means now, in sentences. */
  text: string | string[];
  /** The yes button's words ("Leave the table"). */
  yes: string;
  /** The no button's words (default "Stay"). */
  no?: string;
  /** Asks for a reason too (`input#confirm-reason`, 1-300 characters,
   * required): an administrator's act. */
  reason?: string;
}

let dialog: HTMLDialogElement | null = null;
let answer: ((yes: boolean) => void) | null = null;
let reasonInput: HTMLInputElement | null = null;

function settle(yes: boolean): void {
  const a = answer;
  answer = null;
  if (dialog?.open) dialog.close();
  a?.(yes);
}

function make(): HTMLDialogElement {
  const d = h('dialog', { id: 'confirm', class: 'confirm-dialog', 'aria-labelledby': 'confirm-title', 'aria-describedby': 'confirm-text' });
  d.addEventListener('cancel', (e) => {
    e.preventDefault();
    settle(false);
  });
  d.addEventListener('close', () => settle(false));
  document.body.append(d);
  return d;
}

/** Asks for a reason as well; resolves with it (trimmed), or null for no. */
export async function askReason(q: Question & { reason: string }): Promise<string | null> {
  const yes = await ask(q);
  const text = reasonInput?.value.trim() ?? '';
  return yes && text !== '' ? text : null;
}

/** Asks; resolves true when the person chose yes. */
export function ask(q: Question): Promise<boolean> {
  if (answer) settle(false);
  dialog ??= make();
  const d = dialog;
  const back = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const paras = Array.isArray(q.text) ? q.text : [q.text];
  const no = h('button', { type: 'button', id: 'confirm-no', class: 'btn', onclick: () => settle(false) }, q.no ?? 'Stay');
  const reasonError = h('p', { id: 'confirm-reason-error', class: 'form-error', role: 'alert' });
  reasonInput = q.reason
    ? h('input', { type: 'text', id: 'confirm-reason', maxlength: 300, autocomplete: 'off', 'aria-describedby': 'confirm-reason-error' })
    : null;
  const yes = h(
    'button',
    {
      type: 'button',
      id: 'confirm-yes',
      class: 'btn danger',
      onclick: () => {
        if (reasonInput && reasonInput.value.trim() === '') {
          reasonError.textContent = 'Give a reason: it is kept with the act.';
          reasonInput.setAttribute('aria-invalid', 'true');
          reasonInput.focus();
          return;
        }
        settle(true);
      },
    },
    q.yes,
  );
  fill(
    d,
    h('h2', { id: 'confirm-title' }, q.title),
    h(
      'div',
      { id: 'confirm-text' },
      paras.map((p) => h('p', null, p)),
    ),
    reasonInput ? h('div', { class: 'field' }, h('label', { for: 'confirm-reason' }, q.reason), reasonInput, reasonError) : null,
    h('div', { class: 'dialog-buttons' }, no, yes),
  );
  return new Promise((resolve) => {
    answer = (v) => {
      resolve(v);
      if (back && back.isConnected) back.focus({ preventScroll: true });
    };
    if (typeof d.showModal === 'function') d.showModal();
    else d.setAttribute('open', '');
    // The safe answer has the focus (Enter does not leave by accident), or
    // the reason asked for, which the yes button needs first.
    (reasonInput ?? no).focus();
  });
}
