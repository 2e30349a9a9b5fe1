// The rules in the page: `a.rules-link` (the table's bar, the create form,
// the contract chooser, the doubling panel, the deal summary) opens the
// server's rules page (`/rules/PRESET`, `/rules/table/ID`, straight at a
// section: `#contract-KEY`, `#doubling`) in `dialog#rules`, a frame in the
// page, so the game stays in view; the dialog has a link to open the same
// page in a new tab.  The link's own href works too (a middle click, or
// with the dialog unavailable).  The dialog is made once and lives outside
// the parts of the page that are redrawn, so its frame does not reload.

import { h } from '../dom';
import type { App } from '../app';
import type { Ctx } from './table';

let dialog: HTMLDialogElement | null = null;
let frame: HTMLIFrameElement | null = null;
let newTab: HTMLAnchorElement | null = null;
let opener: HTMLElement | null = null;

function make(): HTMLDialogElement {
  if (dialog) return dialog;
  frame = h('iframe', { id: 'rules-frame', class: 'rules-frame', title: 'The rules', sandbox: 'allow-same-origin' });
  newTab = h('a', { class: 'rules-newtab', id: 'rules-newtab', target: '_blank', rel: 'noopener' }, 'Open in a new tab');
  const close = h('button', { type: 'button', class: 'btn small', id: 'rules-close', onclick: () => dialog?.close() }, 'Close');
  dialog = h(
    'dialog',
    { id: 'rules', class: 'rules-dialog', 'aria-labelledby': 'rules-title' },
    h('div', { class: 'rules-head' }, h('h2', { id: 'rules-title' }, 'The rules'), newTab, close),
    frame,
  );
  dialog.addEventListener('close', () => {
    opener?.focus();
    opener = null;
  });
  // A click on the backdrop closes it, as a club player expects.
  dialog.addEventListener('click', (e) => {
    if (e.target === dialog) dialog?.close();
  });
  document.body.append(dialog);
  return dialog;
}

/** Opens the rules page (a same-origin path, with an optional #section).
 * The page is fetched and shown as the frame's srcdoc (the server forbids
 * framing its pages, and the page has no script: the frame runs none), then
 * scrolled to the section. */
export function openRules(url: string, from?: HTMLElement | null): void {
  const d = make();
  opener = from ?? null;
  if (newTab) newTab.href = url;
  if (frame && frame.dataset.src !== url) {
    const f = frame;
    f.dataset.src = url;
    f.dataset.state = 'loading';
    const [path, section] = url.split('#');
    const show = (): void => {
      f.dataset.state = 'shown';
      if (!section) return;
      const el = f.contentDocument?.getElementById(section);
      el?.scrollIntoView({ block: 'start' });
    };
    f.onload = show;
    fetch(path)
      .then(async (r) => {
        if (f.dataset.src !== url) return;
        if (!r.ok) throw new Error(`${r.status}`);
        f.srcdoc = await r.text();
      })
      .catch((e: unknown) => {
        if (f.dataset.src !== url) return;
        f.srcdoc = `<p style="font:16px system-ui;margin:16px">The rules page could not be loaded (${String(e instanceof Error ? e.message : e)}): try again later, or open it in a new tab.</p>`;
        f.dataset.state = 'failed';
      });
  }
  if (!d.open) {
    if (typeof d.showModal === 'function') d.showModal();
    else window.open(url, '_blank', 'noopener');
  }
}

/** An `a.rules-link` to url that opens the dialog. */
export function rulesAnchor(url: string, text: string, label?: string, section?: string): HTMLAnchorElement {
  return h(
    'a',
    {
      class: 'rules-link',
      href: url,
      target: '_blank',
      rel: 'noopener',
      'data-section': section ?? null,
      'aria-label': label ?? null,
      onclick: (e: Event) => {
        const me = e as MouseEvent;
        if (me.ctrlKey || me.metaKey || me.shiftKey || me.button === 1) return;
        e.preventDefault();
        openRules(url, e.currentTarget as HTMLElement);
      },
    },
    text,
  );
}

/** The table's rules page: the server's `rule_set.rules_url`, else /rules/table/ID. */
export function tableRulesUrl(ctx: Ctx): string {
  return ctx.rules?.rules_url ?? `/rules/table/${ctx.t.id}`;
}

/** A link to a section of the table's rules ('' for the top). */
export function rulesLink(ctx: Ctx, section: string, text: string, label?: string): HTMLAnchorElement {
  const base = tableRulesUrl(ctx);
  return rulesAnchor(section ? `${base}#${section}` : base, text, label, section || 'top');
}

/** The same from the App (panels drawn without a Ctx). */
export function appRulesLink(app: App, section: string, text: string, label?: string): HTMLAnchorElement | null {
  const t = app.state.table;
  if (!t) return null;
  const base = t.rule_set?.rules_url ?? `/rules/table/${t.id}`;
  return rulesAnchor(section ? `${base}#${section}` : base, text, label, section || 'top');
}
