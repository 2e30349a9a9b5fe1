// The question asked before a step that is hard to undo (leaving a table,
// logging out, closing or handing over a table): `dialog#confirm` with
// `button#confirm-yes` and `button#confirm-no`.  One dialog, made on first
// use and kept; `ask()` resolves true only for the yes button.  Escape and
// the no button answer no; the focus goes back where it was.

import { h } from '../dom';

export interface Question {
  title: string;
  /** What the step means now, in sentences. */
  text: string | string[];
  /** The yes button's words ("Leave the table"). */
  yes: string;
  /** The no button's words (default "Stay"). */
  no?: string;
}

let dialog: HTMLDialogElement | null = null;
let answer: ((yes: boolean) => void) | null = null;

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

/** Asks; resolves true when the person chose yes. */
export function ask(q: Question): Promise<boolean> {
  if (answer) settle(false);
  dialog ??= make();
  const d = dialog;
  const back = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const paras = Array.isArray(q.text) ? q.text : [q.text];
  const no = h('button', { type: 'button', id: 'confirm-no', class: 'btn', onclick: () => settle(false) }, q.no ?? 'Stay');
  const yes = h('button', { type: 'button', id: 'confirm-yes', class: 'btn danger', onclick: () => settle(true) }, q.yes);
  d.replaceChildren(
    h('h2', { id: 'confirm-title' }, q.title),
    h(
      'div',
      { id: 'confirm-text' },
      paras.map((p) => h('p', null, p)),
    ),
    h('div', { class: 'dialog-buttons' }, no, yes),
  );
  return new Promise((resolve) => {
    answer = (v) => {
      resolve(v);
      if (back && back.isConnected) back.focus({ preventScroll: true });
    };
    if (typeof d.showModal === 'function') d.showModal();
    else d.setAttribute('open', '');
    // The safe answer has the focus: Enter does not leave by accident.
    no.focus();
  });
}
