// The administrators' panel (for a session whose `welcome` said `admin`):
// `button#admin-open` in the lobby's head (and "Administration" in the
// account menu) opens `dialog#admin`:
//
// - `#admin-status` (`data-kind` `done` or `error`): the server's answer to
//   the last act, in its words;
// - `ol#admin-reports`: the players' reports, newest first, from `mod_log`
//   and as they arrive (`report`), each `li[data-report=ID]` with buttons
//   to close the table reported (`button[data-mod-close=ID]`) and to ban the
//   handle reported (`button[data-ban=NAME]`);
// - `#admin-tables`: each table not over, `[data-admin-table=ID]`, with
//   `button[data-mod-close=ID]` and, for each person seated,
//   `button[data-mod-remove=X]`;
// - `form#admin-handle`: `input#admin-name`, `button#admin-ban`,
//   `button#admin-unban`;
// - `ol#admin-banned`: the handles banned now, each `li[data-banned=NAME]`
//   with `button[data-unban=NAME]`;
// - `ol#admin-acts`: the acts kept (`mod_log`'s `acts`), `li[data-act=ban]`.
//
// Every act asks first in `dialog#confirm` with a reason
// (`input#confirm-reason`), kept with the act.  While the
// panel is closed, new reports count on `button#admin-open`
// (`data-new`).

import type { App } from './app';
import { h } from './dom';
import { SEAT_NAME } from './names';
import type { ActInfo, ClientMsg, ModLogMsg, ReportInfo, Seat, TableSummary } from './protocol';
import { SEATS } from './protocol';
import { askReason } from './ui/confirm';
import { sentence } from './text';

const KEEP = 100;

function when(at: number): string {
  const d = new Date(at * 1000);
  const today = new Date().toDateString() === d.toDateString();
  return today
    ? d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })
    : d.toLocaleString(undefined, { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
}

const ACT_WORDS: Record<string, string> = {
  close: 'closed',
  remove: 'removed',
  ban: 'banned',
  unban: 'unbanned',
};

export class AdminPanel {
  /** The lobby's button (hidden for everybody but administrators). */
  readonly button: HTMLButtonElement;
  private dialog: HTMLDialogElement | null = null;
  private reports: ReportInfo[] = [];
  private acts: ActInfo[] = [];
  private banned: NonNullable<ModLogMsg['banned']> = [];
  private bannedList!: HTMLElement;
  private unseen = 0;
  private status!: HTMLElement;
  private reportList!: HTMLElement;
  private actList!: HTMLElement;
  private tableList!: HTMLElement;
  private nameInput!: HTMLInputElement;
  private tablesDrawn = -1;

  constructor(private readonly app: App) {
    this.button = h(
      'button',
      { type: 'button', class: 'btn', id: 'admin-open', hidden: true, 'data-focus': 'admin-open', onclick: () => this.open() },
      'Administration',
    );
  }

  /** Every redraw: the button for an administrator; the tables in the panel. */
  update(tablesVersion: number): void {
    const admin = this.app.state.account.admin;
    if (this.button.hidden === admin) this.button.hidden = !admin;
    const words = this.unseen > 0 ? `Administration (${this.unseen} new)` : 'Administration';
    if (this.button.textContent !== words) this.button.textContent = words;
    this.button.dataset.new = String(this.unseen);
    if (!admin && this.dialog?.open) this.dialog.close();
    if (this.dialog?.open && tablesVersion !== this.tablesDrawn) {
      this.tablesDrawn = tablesVersion;
      this.drawTables();
    }
  }

  /** Signed out, or another person: nothing of the last one's panel stays. */
  reset(): void {
    this.reports = [];
    this.acts = [];
    this.banned = [];
    this.unseen = 0;
    if (this.dialog?.open) this.dialog.close();
  }

  /** A new report (the server's `report` message). */
  onReport(r: ReportInfo): void {
    if (this.reports.some((x) => x.id === r.id)) return;
    this.reports.unshift(r);
    this.reports.length = Math.min(this.reports.length, KEEP);
    if (this.dialog?.open) this.drawReports();
    else this.unseen += 1;
    this.app.notify('info', `A new report from ${r.by}${r.name ? ` about ${r.name}` : ''}${r.table !== undefined ? ` at table ${r.table}` : ''}: ${r.text}`);
  }

  open(): void {
    this.dialog ??= this.make();
    this.unseen = 0;
    this.setStatus(null);
    if (!this.dialog.open) this.dialog.showModal();
    this.tablesDrawn = -1;
    this.drawReports();
    this.drawBanned();
    this.drawActs();
    this.drawTables();
    this.app.update();
    void this.refresh();
    (this.dialog.querySelector('#admin-close') as HTMLElement).focus();
  }

  private close(): void {
    if (this.dialog?.open) this.dialog.close();
    this.button.focus();
  }

  private async refresh(): Promise<void> {
    const r = await this.app.request({ type: 'mod_log' }, true);
    if (r.type === 'mod_log') {
      const live = this.reports.filter((x) => !r.reports.some((y) => y.id === x.id));
      this.reports = [...live, ...r.reports].sort((a, b) => b.id - a.id).slice(0, KEEP);
      this.acts = [...r.acts].sort((a, b) => b.id - a.id).slice(0, KEEP);
      this.banned = r.banned ?? [];
      this.drawBanned();
      this.drawReports();
      this.drawActs();
    } else if (r.type === 'error') {
      this.setStatus('error', sentence(r.text));
    }
  }

  private make(): HTMLDialogElement {
    this.status = h('p', { id: 'admin-status', class: 'admin-status', role: 'status', 'aria-live': 'polite' });
    this.reportList = h('ol', { id: 'admin-reports', class: 'admin-list' });
    this.actList = h('ol', { id: 'admin-acts', class: 'admin-list' });
    this.bannedList = h('ol', { id: 'admin-banned', class: 'admin-list' });
    this.tableList = h('div', { id: 'admin-tables', class: 'admin-tables' });
    this.nameInput = h('input', { type: 'text', id: 'admin-name', name: 'name', autocomplete: 'off', autocapitalize: 'off', spellcheck: 'false', maxlength: 40 });
    const handleForm = h(
      'form',
      { id: 'admin-handle', class: 'admin-handle', novalidate: true },
      h('label', { for: 'admin-name' }, 'Handle'),
      h(
        'div',
        { class: 'inline' },
        this.nameInput,
        h('button', { type: 'submit', id: 'admin-ban', class: 'btn danger' }, 'Ban'),
        h('button', { type: 'button', id: 'admin-unban', class: 'btn', onclick: () => void this.unban(this.nameInput.value.trim()) }, 'Unban'),
      ),
    );
    handleForm.addEventListener('submit', (e) => {
      e.preventDefault();
      void this.ban(this.nameInput.value.trim());
    });
    const d = h(
      'dialog',
      { id: 'admin', class: 'confirm-dialog admin-dialog', 'aria-labelledby': 'admin-title' },
      h(
        'div',
        { class: 'admin-head' },
        h('h2', { id: 'admin-title' }, 'Administration'),
        h('button', { type: 'button', id: 'admin-refresh', class: 'btn small', onclick: () => void this.refresh() }, 'Refresh'),
        h('button', { type: 'button', id: 'admin-close', class: 'btn small', onclick: () => this.close() }, 'Close'),
      ),
      this.status,
      h('section', { 'aria-labelledby': 'admin-reports-title' }, h('h3', { id: 'admin-reports-title' }, 'Reports'), this.reportList),
      h('section', { 'aria-labelledby': 'admin-tables-title' }, h('h3', { id: 'admin-tables-title' }, 'Tables'), this.tableList),
      h('section', { 'aria-labelledby': 'admin-handle-title' }, h('h3', { id: 'admin-handle-title' }, 'Ban or unban a handle'), handleForm),
      h('section', { 'aria-labelledby': 'admin-banned-title' }, h('h3', { id: 'admin-banned-title' }, 'Banned'), this.bannedList),
      h('section', { 'aria-labelledby': 'admin-acts-title' }, h('h3', { id: 'admin-acts-title' }, 'Acts'), this.actList),
    );
    document.body.append(d);
    return d;
  }

  private setStatus(kind: 'done' | 'error' | null, text = ''): void {
    if (!this.status) return;
    this.status.textContent = text;
    this.status.dataset.kind = kind ?? '';
    this.status.setAttribute('role', kind === 'error' ? 'alert' : 'status');
  }

  private drawReports(): void {
    if (!this.reportList) return;
    if (this.reports.length === 0) {
      this.reportList.replaceChildren(h('li', { class: 'hint' }, 'No reports.'));
      return;
    }
    this.reportList.replaceChildren(
      ...this.reports.map((r) =>
        h(
          'li',
          { class: 'report', 'data-report': r.id },
          h(
            'p',
            { class: 'report-head' },
            h('time', null, when(r.at)),
            ' ',
            h('strong', null, r.by),
            ' reports ',
            r.name ? h('strong', { class: 'report-name' }, r.name) : null,
            r.name && r.table !== undefined ? ' at ' : null,
            r.table !== undefined ? `table ${r.table}` : null,
          ),
          h('p', { class: 'report-text' }, r.text),
          h(
            'div',
            { class: 'report-actions' },
            r.table !== undefined && this.app.state.tables.has(r.table)
              ? h('button', { type: 'button', class: 'btn small', 'data-mod-close': r.table, onclick: () => void this.closeTable(r.table as number) }, `Close table ${r.table}`)
              : null,
            r.name ? h('button', { type: 'button', class: 'btn small danger', 'data-ban': r.name, onclick: () => void this.ban(r.name as string) }, `Ban ${r.name}`) : null,
          ),
        ),
      ),
    );
  }

  private drawBanned(): void {
    if (!this.bannedList) return;
    if (this.banned.length === 0) {
      this.bannedList.replaceChildren(h('li', { class: 'hint' }, 'Nobody is banned.'));
      return;
    }
    this.bannedList.replaceChildren(
      ...this.banned.map((b) =>
        h(
          'li',
          { class: 'admin-table', 'data-banned': b.name },
          h('span', null, h('strong', null, b.name), ` banned by ${b.by}, ${when(b.at)}`, b.text ? h('span', { class: 'act-why' }, `: ${b.text}`) : null),
          h('button', { type: 'button', class: 'btn small', 'data-unban': b.name, onclick: () => void this.unban(b.name) }, `Unban ${b.name}`),
        ),
      ),
    );
  }

  private drawActs(): void {
    if (!this.actList) return;
    if (this.acts.length === 0) {
      this.actList.replaceChildren(h('li', { class: 'hint' }, 'No acts yet.'));
      return;
    }
    this.actList.replaceChildren(
      ...this.acts.map((a) => {
        const what = a.act === 'close' ? `table ${a.table}` : a.act === 'remove' ? `${a.name ?? ''} from table ${a.table}` : (a.name ?? '');
        return h(
          'li',
          { class: 'act', 'data-act': a.act },
          h('time', null, when(a.at)),
          ' ',
          h('strong', null, a.by),
          ` ${ACT_WORDS[a.act] ?? a.act} ${what}`,
          a.text ? h('span', { class: 'act-why' }, `: ${a.text}`) : null,
        );
      }),
    );
  }

  private drawTables(): void {
    if (!this.tableList) return;
    const tables = [...this.app.state.tables.values()].filter((t) => t.state !== 'over').sort((a, b) => a.id - b.id);
    if (tables.length === 0) {
      this.tableList.replaceChildren(h('p', { class: 'hint' }, 'No table is open.'));
      return;
    }
    this.tableList.replaceChildren(h('ul', { class: 'admin-list' }, tables.map((t) => this.tableRow(t))));
  }

  private tableRow(t: TableSummary): HTMLElement {
    const people = SEATS.map((s, i) => [s, t.seats[i]] as const).filter(([, x]) => x && x.name && !x.bot);
    return h(
      'li',
      { 'data-admin-table': t.id, class: 'admin-table' },
      h('span', { class: 'admin-table-what' }, `Table ${t.id} \u00b7 ${t.rules} \u00b7 ${t.state}${t.ladder ? ' \u00b7 ladder' : ''}`),
      h(
        'span',
        { class: 'report-actions' },
        h('button', { type: 'button', class: 'btn small', 'data-mod-close': t.id, onclick: () => void this.closeTable(t.id) }, 'Close'),
        people.map(([s, x]) =>
          h(
            'button',
            {
              type: 'button',
              class: 'btn small',
              'data-mod-remove': s,
              'aria-label': `Remove ${x?.name} (${SEAT_NAME[s]}) from table ${t.id}`,
              onclick: () => void this.remove(t.id, s as Seat, x?.name ?? ''),
            },
            `Remove ${x?.name} (${SEAT_NAME[s]})`,
          ),
        ),
      ),
    );
  }

  /** Sends an act; the server's `done` or refusal goes in #admin-status. */
  private async act(msg: ClientMsg, done: string): Promise<void> {
    const r = await this.app.request(msg, true);
    if (r.type === 'done') {
      this.setStatus('done', done);
      this.app.notify('info', done);
      await this.refresh();
    } else if (r.type === 'error') {
      this.setStatus('error', sentence(r.text || `The server refused that (${r.code}).`));
    }
  }

  private async closeTable(id: number): Promise<void> {
    const text = await askReason({
      title: `Close table ${id}?`,
      text: ['Its game ends now and the table goes from the list; everybody there is back in the lobby.', 'The act and its reason are kept.'],
      reason: 'Reason (kept with the act)',
      yes: 'Close the table',
      no: 'Keep it',
    });
    if (text) await this.act({ type: 'mod_close', table: id, text }, `Table ${id} is closed.`);
  }

  private async remove(id: number, seat: Seat, name: string): Promise<void> {
    const text = await askReason({
      title: `Remove ${name} from table ${id}?`,
      text: [`${name} leaves ${SEAT_NAME[seat]}'s seat and is told so; in a game under way the table's rule for an empty seat applies.`, 'The act and its reason are kept.'],
      reason: 'Reason (kept with the act)',
      yes: `Remove ${name}`,
      no: 'Keep them',
    });
    if (text) await this.act({ type: 'mod_remove', table: id, seat, text }, `${name} is removed from table ${id}.`);
  }

  private async ban(name: string): Promise<void> {
    if (!name) {
      this.setStatus('error', 'Type the handle to ban.');
      this.nameInput.focus();
      return;
    }
    const text = await askReason({
      title: `Ban ${name}?`,
      text: [`${name} is signed out everywhere and cannot sign in, sign up or play as a guest under this handle (or a look-alike) until unbanned.`, 'The act and its reason are kept.'],
      reason: 'Reason (kept with the act)',
      yes: `Ban ${name}`,
      no: 'Not now',
    });
    if (text) await this.act({ type: 'ban', name, text }, `${name} is banned.`);
  }

  private async unban(name: string): Promise<void> {
    if (!name) {
      this.setStatus('error', 'Type the handle to unban.');
      this.nameInput.focus();
      return;
    }
    const text = await askReason({
      title: `Unban ${name}?`,
      text: [`${name} may sign in, sign up and play again.`, 'The act and its reason are kept.'],
      reason: 'Reason (kept with the act)',
      yes: `Unban ${name}`,
      no: 'Not now',
    });
    if (text) await this.act({ type: 'unban', name, text }, `${name} is unbanned.`);
  }
}
