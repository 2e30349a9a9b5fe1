// The new-table form (form#create): the rule set, house rules, seed, who may
// watch (and whether a player's household may, and may talk), computer players, the creator's seat, and what happens to a lost
// player's seat.  Built once and kept, so what is typed survives redraws and
// a refused form keeps its values.

import type { App } from '../app';
import { rulesAnchor } from './rules';
import { h } from '../dom';
import { SEAT_NAME } from '../names';
import type { CreateOptions, Seat } from '../protocol';
import { PRESETS, SEATS } from '../protocol';
import { rememberCreated } from '../mine';
import { sentence } from '../text';

const HOUSE_MAX = 4096;
const SEED_MAX = 18446744073709551615n;

function field(label: string, id: string, control: HTMLElement, hint?: string): HTMLElement {
  if (hint) control.setAttribute('aria-describedby', `${id}-hint`);
  return h(
    'div',
    { class: 'field' },
    h('label', { for: id }, label),
    control,
    hint ? h('p', { class: 'hint', id: `${id}-hint` }, hint) : null,
  );
}

function select(id: string, options: [string, string][], value: string): HTMLSelectElement {
  const s = h(
    'select',
    { id, name: id.replace(/^create-/, ''), 'data-focus': id },
    options.map(([v, t]) => h('option', { value: v }, t)),
  );
  s.value = value;
  return s;
}

export class CreateView {
  readonly el: HTMLFormElement;
  private rules: HTMLSelectElement;
  private house: HTMLTextAreaElement;
  private seed: HTMLInputElement;
  private kibitz: HTMLSelectElement;
  private bots: Map<Seat, HTMLInputElement> = new Map();
  private botLabels: Map<Seat, HTMLElement> = new Map();
  private level: HTMLSelectElement;
  private delay: HTMLInputElement;
  private clock: HTMLInputElement;
  private sit: HTMLSelectElement;
  private grace: HTMLInputElement;
  private takeover: HTMLSelectElement;
  private household: HTMLInputElement;
  private kibitzChat: HTMLInputElement;
  private ladder: HTMLInputElement;
  /** Hints (issue 26): never with a ladder or rated game. */
  private hints: HTMLInputElement;
  private ladderBox: HTMLElement;
  private rated: HTMLInputElement;
  private ratedBox: HTMLElement;
  private ratedBefore = false;
  private credit: HTMLSelectElement;
  private submitBtn: HTMLButtonElement;
  private errorEl: HTMLElement;
  private busy = false;
  private lastSit: Seat = 'N';

  private readonly rulesLink: HTMLElement;

  constructor(
    private readonly app: App,
    private readonly onClose: () => void,
  ) {
    this.rules = select(
      'create-rules',
      PRESETS.map((p) => [p.key, `${p.key} \u2014 ${p.about}`]),
      'uk',
    );

    this.house = h('textarea', {
      id: 'create-house',
      name: 'house',
      rows: 5,
      spellcheck: 'false',
      'data-focus': 'create-house',
      placeholder: 'israeli = enforce',
      'aria-describedby': 'create-house-hint',
    });
    this.seed = h('input', {
      id: 'create-seed',
      name: 'seed',
      type: 'text',
      inputmode: 'numeric',
      autocomplete: 'off',
      pattern: '[0-9]*',
      maxlength: 20,
      placeholder: 'Empty: the server draws a new one',
      'data-focus': 'create-seed',
    });
    this.clock = h('input', {
      id: 'create-clock',
      name: 'clock',
      type: 'number',
      min: 0,
      max: 600,
      step: 5,
      value: 0,
      inputmode: 'numeric',
      'data-focus': 'create-clock',
    });
    this.kibitz = select(
      'create-kibitz',
      [
        ['none', 'Nobody'],
        ['seat', "One seat's hand at a time"],
        ['all', 'One seat or every hand'],
      ],
      'seat',
    );
    this.level = select(
      'create-level',
      [
        ['easy', 'Easy (rules of thumb)'],
        ['medium', 'Medium (searches, about a hundredth of a second)'],
        ['hard', 'Hard (searches ten times longer)'],
        ['random', 'Random (any legal card)'],
      ],
      'medium',
    );
    this.delay = h('input', {
      id: 'create-delay',
      name: 'delay',
      type: 'number',
      min: 0,
      max: 5000,
      step: 100,
      value: 600,
      inputmode: 'numeric',
      'data-focus': 'create-delay',
    });
    this.sit = select(
      'create-sit',
      SEATS.map((s) => [s, SEAT_NAME[s]]),
      'N',
    );
    this.sit.addEventListener('change', () => this.sitChanged());
    // The chosen preset's rules page, in the rules dialog.
    this.rulesLink = h('span', { class: 'create-rules-link' });
    const setLink = (): void => {
      const key = this.rules.value;
      this.rulesLink.replaceChildren(rulesAnchor(`/rules/${encodeURIComponent(key)}`, `The rules of ${key}`));
    };
    this.rules.addEventListener('change', setLink);
    setLink();
    this.grace = h('input', {
      id: 'create-grace',
      name: 'grace',
      type: 'number',
      min: 0,
      max: 3600,
      step: 30,
      value: 300,
      inputmode: 'numeric',
      'data-focus': 'create-grace',
    });
    this.takeover = select(
      'create-takeover',
      [
        ['vote', 'The others may seat a computer or a substitute'],
        ['bot', 'A computer player takes the seat'],
      ],
      'vote',
    );

    // Both off by default: a player's own browser or address sees no other
    // hand, and watchers cannot whisper cards to the players.
    this.household = h('input', { type: 'checkbox', id: 'create-household', name: 'household', 'data-focus': 'create-household' });
    this.kibitzChat = h('input', { type: 'checkbox', id: 'create-kibitz-chat', name: 'kibitz_chat', 'data-focus': 'create-kibitz-chat' });

    // Hints: the players may ask the computer for their next decision.
    // Off by default, and never at a ladder or rated table, whose games
    // must be the players' own.
    this.hints = h('input', { type: 'checkbox', id: 'create-hints', name: 'hints', 'data-focus': 'create-hints', 'aria-describedby': 'create-hints-hint' });

    // A ladder table (registered players only): no chosen seed, no
    // computer players at the start; shown only to a registered player.
    this.ladder = h('input', { type: 'checkbox', id: 'create-ladder', name: 'ladder', 'data-focus': 'create-ladder', 'aria-describedby': 'create-ladder-hint' });
    this.ladder.addEventListener('change', () => this.ladderChanged());
    this.ladderBox = h(
      'div',
      { class: 'field span2 ladder-field', hidden: true },
      h('label', { class: 'check', for: 'create-ladder' }, this.ladder, ' Ladder table'),
      h(
        'p',
        { class: 'hint', id: 'create-ladder-hint' },
        'Registered players only (substitutes too); no chosen seed, so nobody knows the deals; no computer players at the start. Who played which deal is kept.',
      ),
    );

    // A rated game (registered people only; the ladder's tables are rated
    // anyway), and who a seat's points go to when a substitute played.
    this.rated = h('input', { type: 'checkbox', id: 'create-rated', name: 'rated', 'data-focus': 'create-rated', 'aria-describedby': 'create-rated-hint' });
    this.ratedBox = h(
      'div',
      { class: 'field span2 ladder-field', hidden: true },
      h('label', { class: 'check', for: 'create-rated' }, this.rated, ' Rated game'),
      h(
        'p',
        { class: 'hint', id: 'create-rated-hint' },
        'The result changes the ratings in the club: every person who sits must be registered; computer players may play; no chosen seed.',
      ),
    );
    // A rated game takes no chosen seed (nobody may know its deals).
    this.rated.addEventListener('change', () => {
      this.seed.disabled = this.rated.checked || this.ladder.checked;
      if (this.rated.checked) this.seed.value = '';
      this.hintsAllowed();
    });
    this.credit = select(
      'create-credit',
      [
        ['record', 'To the player of record'],
        ['deals', 'Deal by deal, to who played it'],
      ],
      'record',
    );

    const botBoxes = SEATS.map((s) => {
      const box = h('input', {
        type: 'checkbox',
        name: 'bot',
        value: s,
        id: `create-bot-${s}`,
        'data-focus': `create-bot-${s}`,
      });
      box.checked = s !== 'N';
      this.bots.set(s, box);
      const note = h('span', { class: 'you-note' });
      this.botLabels.set(s, note);
      return h('label', { class: 'check', for: `create-bot-${s}` }, box, ` Computer player ${SEAT_NAME[s]}`, note);
    });

    this.submitBtn = h(
      'button',
      { type: 'submit', id: 'create-submit', class: 'btn primary', 'data-focus': 'create-submit' },
      'Create table',
    );
    this.errorEl = h('p', { id: 'create-error', class: 'form-error', role: 'alert' });

    this.el = h(
      'form',
      { id: 'create', class: 'create-form', novalidate: true, 'aria-labelledby': 'create-title', hidden: true },
      h('h2', { id: 'create-title' }, 'New table'),
      h(
        'div',
        { class: 'create-grid' },
        h(
          'div',
          { class: 'field span2' },
          h('label', { for: 'create-rules' }, 'Rule set'),
          this.rules,
          this.rulesLink,
        ),
        this.ladderBox,
        this.ratedBox,
        h(
          'details',
          { class: 'field span2 house' },
          h('summary', null, 'House rules (optional)'),
          h('label', { for: 'create-house' }, 'Rules file applied over the rule set'),
          this.house,
          h(
            'p',
            { class: 'hint', id: 'create-house-hint' },
            'One setting a line, as in docs/rules.md, for example "israeli = enforce". At most 4096 bytes.',
          ),
        ),
        field('Your seat', 'create-sit', this.sit),
        field('Who may watch', 'create-kibitz', this.kibitz),
        h(
          'fieldset',
          { class: 'field watch-opts span2' },
          h('legend', null, 'Watchers'),
          h(
            'div',
            { class: 'checks' },
            h(
              'label',
              { class: 'check', for: 'create-household' },
              this.household,
              ' Let people at one address or browser as a player watch the hands (a family)',
            ),
            h('label', { class: 'check', for: 'create-kibitz-chat' }, this.kibitzChat, ' Kibitzers may talk to the players during the game'),
          ),
        ),
        h(
          'div',
          { class: 'field span2 hints-field' },
          h('label', { class: 'check', for: 'create-hints' }, this.hints, ' Hints'),
          h(
            'p',
            { class: 'hint', id: 'create-hints-hint' },
            "Each player may ask the computer (medium) for its choice at their turn, from their own hand only. Not at a ladder or rated table: a game with hints is not rated.",
          ),
        ),
        h(
          'fieldset',
          { class: 'field bots span2' },
          h('legend', null, 'Computer players'),
          h('div', { class: 'checks' }, botBoxes),
        ),
        field('Computer players play', 'create-level', this.level),
        field('Computer players wait (ms)', 'create-delay', this.delay, '0 to 5000, so people can follow their moves.'),
        field('Seat held for a lost player (s)', 'create-grace', this.grace, '0 to 3600 seconds.'),
        field('When that time is up', 'create-takeover', this.takeover),
        field(
          'When a substitute plays, the score goes',
          'create-credit',
          this.credit,
          'As the club agrees (seed 002): the final score is attributed to the seat\'s first player unless agreed otherwise. "Deal by deal" credits each deal\'s points to whoever held the seat when it ended.',
        ),
        field(
          'Move clock (s)',
          'create-clock',
          this.clock,
          '10\u2013600 seconds for each move, 0 for no clock. When a player\'s time runs out, a computer player makes that one move for them.',
        ),
        field(
          'Seed (optional)',
          'create-seed',
          this.seed,
          'Leave it empty and the server deals new cards. Digits only: the same seed deals the same cards again. A seed you choose is shown to everyone, and you are marked as knowing every deal.',
        ),
      ),
      this.errorEl,
      h(
        'div',
        { class: 'form-buttons' },
        this.submitBtn,
        h(
          'button',
          { type: 'button', class: 'btn', id: 'create-cancel', 'data-focus': 'create-cancel', onclick: () => this.close() },
          'Cancel',
        ),
      ),
    );
    this.el.addEventListener('submit', (e) => {
      e.preventDefault();
      void this.submit();
    });
    this.el.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        this.close();
      }
    });
    this.sitChanged();
  }

  get isOpen(): boolean {
    return !this.el.hidden;
  }

  open(): void {
    const registered = this.app.state.account.registered;
    this.ladderBox.hidden = !registered;
    this.ratedBox.hidden = !registered;
    if (!registered) this.rated.checked = false;
    if (!registered && this.ladder.checked) {
      this.ladder.checked = false;
      this.ladderChanged();
    }
    this.seed.disabled = this.ladder.checked || this.rated.checked;
    this.hintsAllowed();
    this.el.hidden = false;
    this.rules.focus();
  }

  close(): void {
    if (this.el.hidden) return;
    this.el.hidden = true;
    this.setError(null);
    this.onClose();
  }

  /** A ladder table takes no seed and no computer players: those fields
   * are emptied and disabled while the box is ticked. */
  private ladderChanged(): void {
    const on = this.ladder.checked;
    // A ladder game is rated: the box says so, ticked and fixed.
    if (on && !this.rated.disabled) this.ratedBefore = this.rated.checked;
    this.rated.disabled = on;
    this.rated.checked = on ? true : this.ratedBefore;
    if (on) this.rated.title = 'A ladder game is always rated.';
    else this.rated.removeAttribute('title');
    this.seed.disabled = on || this.rated.checked;
    if (on) this.seed.value = '';
    for (const s of SEATS) {
      const box = this.bots.get(s) as HTMLInputElement;
      if (on) box.checked = false;
      box.disabled = on || s === this.sit.value;
    }
    this.hintsAllowed();
  }

  /** Hints go with neither a ladder nor a rated game: unticked and
   * disabled while either is. */
  private hintsAllowed(): void {
    const off = (this.ladder.checked && !this.ladderBox.hidden) || (this.rated.checked && !this.ratedBox.hidden);
    if (off) this.hints.checked = false;
    this.hints.disabled = off;
    if (off) this.hints.title = 'A ladder or rated game takes no hints.';
    else this.hints.removeAttribute('title');
  }

  /** The creator's seat has no computer player: moving to a seat moves its
   * computer player to the seat left. */
  private sitChanged(): void {
    const now = this.sit.value as Seat;
    const was = this.lastSit;
    if (now !== was) {
      const moved = this.bots.get(now)?.checked ?? false;
      const old = this.bots.get(was);
      if (moved && old) old.checked = true;
    }
    for (const s of SEATS) {
      const box = this.bots.get(s) as HTMLInputElement;
      const mine = s === now;
      if (mine) box.checked = false;
      box.disabled = mine || this.ladder?.checked === true;
      (this.botLabels.get(s) as HTMLElement).textContent = mine ? ' (your seat)' : '';
      box.closest('label')?.classList.toggle('mine', mine);
    }
    this.lastSit = now;
  }

  private setError(text: string | null): void {
    this.errorEl.textContent = text ?? '';
  }

  private fail(text: string, focus?: HTMLElement): void {
    this.setError(text);
    if (focus) {
      if (focus === this.house) (this.house.closest('details') as HTMLDetailsElement).open = true;
      focus.setAttribute('aria-invalid', 'true');
      focus.focus();
    }
  }

  /** The form's values as a `create` message, or a complaint. */
  private options(): CreateOptions | null {
    for (const el of [this.seed, this.delay, this.grace, this.house, this.clock]) el.removeAttribute('aria-invalid');
    const o: CreateOptions = { rules: this.rules.value };
    const house = this.house.value;
    if (house.trim() !== '') {
      if (new TextEncoder().encode(house).length > HOUSE_MAX) {
        this.fail(`House rules are at most ${HOUSE_MAX} bytes.`, this.house);
        return null;
      }
      o.house = house.endsWith('\n') ? house : `${house}\n`;
    }
    const seed = this.seed.value.trim();
    if (seed !== '') {
      if (!/^[0-9]{1,20}$/.test(seed) || BigInt(seed) > SEED_MAX) {
        this.fail('A seed is a whole number from 0 to 18446744073709551615, digits only.', this.seed);
        return null;
      }
      o.seed = seed;
    }
    o.kibitz = this.kibitz.value as CreateOptions['kibitz'];
    const sit = this.sit.value as Seat;
    o.sit = sit;
    const bots = SEATS.filter((s) => s !== sit && this.bots.get(s)?.checked);
    if (bots.length > 0) o.bots = bots;
    // The table's level: its computer players now, and any that take a
    // seat later (a takeover, or a player's call for one).
    o.level = this.level.value as CreateOptions['level'];
    const delay = Number(this.delay.value);
    if (this.delay.value.trim() === '' || !Number.isInteger(delay) || delay < 0 || delay > 5000) {
      this.fail("The computer players' wait is a whole number of milliseconds from 0 to 5000.", this.delay);
      return null;
    }
    o.delay = delay;
    const grace = Number(this.grace.value);
    if (this.grace.value.trim() === '' || !Number.isInteger(grace) || grace < 0 || grace > 3600) {
      this.fail('The time a seat is held is a whole number of seconds from 0 to 3600.', this.grace);
      return null;
    }
    o.grace = grace;
    o.takeover = this.takeover.value as CreateOptions['takeover'];
    const clock = this.clock.value.trim() === '' ? 0 : Number(this.clock.value);
    if (!Number.isInteger(clock) || (clock !== 0 && (clock < 10 || clock > 600))) {
      this.fail('The move clock is a whole number of seconds from 10 to 600, or 0 for no clock.', this.clock);
      return null;
    }
    if (clock > 0) o.clock = clock;
    if (this.household.checked) o.household = true;
    if (this.kibitzChat.checked) o.kibitz_chat = true;
    if (this.ladder.checked && !this.ladderBox.hidden) {
      o.ladder = true;
      delete o.seed;
      delete o.bots;
    } else if (this.rated.checked && !this.ratedBox.hidden) {
      o.rated = true;
    }
    o.credit = this.credit.value === 'deals' ? 'deals' : 'record';
    if (this.hints.checked && !o.ladder && !o.rated) o.hints = true;
    return o;
  }

  private async submit(): Promise<void> {
    if (this.busy) return;
    const o = this.options();
    if (!o) return;
    this.setError(null);
    this.busy = true;
    this.submitBtn.disabled = true;
    this.submitBtn.textContent = 'Creating\u2026';
    try {
      const r = await this.app.request({ type: 'create', ...o }, true);
      if (r.type === 'error') {
        this.fail(sentence(r.text || `The server refused the table (${r.code}): check the form and try again.`), r.code === 'bad_rules' && o.house ? this.house : undefined);
      } else if (r.type === 'created') {
        rememberCreated(this.app.state.name, r.table);
        this.el.hidden = true;
        this.setError(null);
        this.onClose();
      }
    } finally {
      this.busy = false;
      this.submitBtn.disabled = false;
      this.submitBtn.textContent = 'Create table';
    }
  }
}
