// Reporting a table or a player to the server's administrators:
// `button#report-table` in the table's bar and `button.seat-report`
// (`data-report-name=NAME`) beside another person's name at the table open
// `dialog#report` (`form#report-form`, `textarea#report-text`: 1-300
// characters, `#report-count`, `#report-error` with the server's refusal,
// `button#report-submit`, `button#report-cancel`).  The server's `reported`
// closes it with a notice.

import type { App } from './app';
import { h } from './dom';
import { charCount } from './ui/login';
import { sentence } from './text';

const TEXT_MAX = 300;

export interface ReportTarget {
  table?: number;
  name?: string;
}

let dialog: HTMLDialogElement | null = null;
let text: HTMLTextAreaElement;
let count: HTMLElement;
let error: HTMLElement;
let title: HTMLElement;
let submitBtn: HTMLButtonElement;
let target: ReportTarget = {};
let back: HTMLElement | null = null;
let busy = false;
let theApp: App;

function what(t: ReportTarget): string {
  if (t.name && t.table !== undefined) return `${t.name} at table ${t.table}`;
  if (t.name) return t.name;
  return `table ${t.table}`;
}

function close(): void {
  if (dialog?.open) dialog.close();
  if (back?.isConnected) back.focus({ preventScroll: true });
}

function counted(): void {
  const n = charCount(text.value.trim());
  count.textContent = `${n} of ${TEXT_MAX} characters`;
  count.classList.toggle('over', n > TEXT_MAX);
}

async function submit(): Promise<void> {
  if (busy) return;
  const words = text.value.trim();
  const n = charCount(words);
  if (n === 0 || n > TEXT_MAX) {
    error.textContent = n === 0 ? 'Say in a few words what happened (1 to 300 characters).' : `A report is at most ${TEXT_MAX} characters (this one has ${n}).`;
    text.setAttribute('aria-invalid', 'true');
    text.focus();
    return;
  }
  busy = true;
  submitBtn.disabled = true;
  try {
    const r = await theApp.request({ type: 'report', ...target, text: words }, true);
    if (r.type === 'reported') {
      close();
      theApp.notify('info', `Your report on ${what(target)} went to the administrators.`);
    } else if (r.type === 'error') {
      error.textContent = sentence(r.text || `The server refused the report (${r.code}): try again later.`);
    }
  } finally {
    busy = false;
    submitBtn.disabled = false;
  }
}

function make(): HTMLDialogElement {
  title = h('h2', { id: 'report-title' });
  text = h('textarea', { id: 'report-text', name: 'text', rows: 4, maxlength: 600, 'aria-describedby': 'report-count report-error' });
  count = h('p', { id: 'report-count', class: 'hint' });
  error = h('p', { id: 'report-error', class: 'form-error', role: 'alert' });
  submitBtn = h('button', { type: 'submit', id: 'report-submit', class: 'btn primary' }, 'Send the report');
  text.addEventListener('input', () => {
    error.textContent = '';
    text.removeAttribute('aria-invalid');
    counted();
  });
  const form = h(
    'form',
    { id: 'report-form', novalidate: true },
    title,
    h('p', null, 'The administrators of this server read it, with your handle, the time and what you name here. Nobody else does.'),
    h('div', { class: 'field' }, h('label', { for: 'report-text' }, 'What happened'), text, count),
    error,
    h(
      'div',
      { class: 'dialog-buttons' },
      h('button', { type: 'button', id: 'report-cancel', class: 'btn', onclick: () => close() }, 'Cancel'),
      submitBtn,
    ),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void submit();
  });
  const d = h('dialog', { id: 'report', class: 'confirm-dialog report-dialog', 'aria-labelledby': 'report-title' }, form);
  document.body.append(d);
  return d;
}

/** Opens the report dialog about a table, a player, or a player at a table. */
export function openReport(app: App, t: ReportTarget): void {
  theApp = app;
  dialog ??= make();
  target = t;
  back = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  dialog.dataset.table = t.table !== undefined ? String(t.table) : '';
  dialog.dataset.name = t.name ?? '';
  title.textContent = `Report ${what(t)}`;
  text.value = '';
  error.textContent = '';
  text.removeAttribute('aria-invalid');
  counted();
  dialog.showModal();
  text.focus();
}

/** The small flag beside a person's name at the table. */
export function reportNameButton(app: App, name: string, table: number): HTMLElement {
  return h(
    'button',
    {
      type: 'button',
      class: 'seat-report',
      'data-report-name': name,
      title: `Report ${name}`,
      'aria-label': `Report ${name}`,
      onclick: (e: Event) => {
        e.stopPropagation();
        openReport(app, { name, table });
      },
    },
    h('span', { 'aria-hidden': 'true' }, '\u2691'),
  );
}

/** The table bar's Report button. */
export function reportTableButton(app: App, table: number): HTMLElement {
  return h(
    'button',
    {
      type: 'button',
      id: 'report-table',
      'data-focus': 'report-table',
      title: `Report table ${table} to the administrators`,
      onclick: () => openReport(app, { table }),
    },
    'Report',
  );
}
