// The Fife game's panel (#fife): where the game is (Set, Round, deal), the
// Calls the Round has played and left, the draw for the first Caller and
// the Silly Round's first dealer, the Silly Round's cuts as they happen
// (with what each was for and decided, in the engine's words), the
// Pass-ons (direction, who has chosen, the three cards to pick) and the
// Piranha.  What is legal comes from the server's list only.

import type { App } from '../app';
import { mySeat } from '../app';
import { h } from '../dom';
import { findLegal, legalActions } from '../legal';
import { cardLabel, cardShort, cardSuit, contractName, RED, SEAT_NAME, sortHand } from '../names';
import type { Card, PassOnAction, Seat, View, ViewMsg } from '../protocol';
import { SEATS } from '../protocol';
import { cardFace } from './cards';
import { callAbbr, comboName, FIFE_CALLS, seatAndName, sortCalls } from './declare';

type Dir = 'left' | 'across' | 'right';
const DIR_STEP: Record<Dir, number> = { left: 1, across: 2, right: 3 };
/** The booklet's Pass-on directions by deal of the Silly Round (rules.md). */
const DIRS_BY_DEAL: Dir[][] = [
  ['left', 'left', 'left'],
  ['right', 'right', 'right'],
  ['across', 'left', 'across'],
  ['left', 'left', 'left'],
  ['right', 'right', 'right'],
  ['across', 'right', 'across'],
];

function seatAt(s: Seat, step: number): Seat {
  return SEATS[(SEATS.indexOf(s) + step) % 4];
}

// ------------------------------------------------ the Pass-ons seen

interface Memo {
  table: number;
  deal: number;
  at: number;
  /** The direction of each Pass-on of the deal, as seen. */
  dirs: (Dir | undefined)[];
}

let memo: Memo | null = null;

/** Follows the views of a deal to remember where each Pass-on went. */
function observe(vm: ViewMsg): Memo | null {
  const v = vm.view;
  const f = v.fife;
  if (!f) return null;
  if (!memo || memo.table !== vm.table || memo.deal !== v.deal || vm.at < memo.at)
    memo = { table: vm.table, deal: v.deal, at: vm.at, dirs: [] };
  memo.at = vm.at;
  if (v.phase === 'pass_on' && f.pass_dir) memo.dirs[f.n_pass_ons] = f.pass_dir;
  return memo;
}

// --------------------------------------------------------------- pieces

/** Where the game is: "Set 1 of 2 · deal 3 of the Round"; once the game is
 * over the Set counter has moved past the last Set, so it says how many
 * were played ("1 Set played"), never "Set 2 of 1". */
export function fifeKicker(set: number, sets: number | undefined, over: boolean, bits: readonly string[] = []): string {
  if (over) {
    const n = sets ?? set;
    return `${n} Set${n === 1 ? '' : 's'} played`;
  }
  return `Set ${set + 1}${sets ? ` of ${sets}` : ''}${bits.length ? ` \u00b7 ${bits.join(' \u00b7 ')}` : ''}`;
}

/** A card as text: "3♥", "Joker", "Bridge"; its name for screen readers. */
export function miniCard(c: Card): HTMLElement {
  const s = cardSuit(c);
  const colour = s ? (RED[s] ? ' is-red' : ' is-black') : ' is-odd';
  return h('span', { class: `cardchip${colour}`, role: 'img', 'aria-label': cardLabel(c), title: cardLabel(c) }, s ? cardShort(c) : c);
}

export function miniCards(cards: readonly Card[]): HTMLElement {
  return h('span', { class: 'cardchips' }, sortHand(cards).map((c) => miniCard(c)));
}

/** A small card face for a cut or a draw ("3H"); a Joker or the Bridge card as a labelled card. */
function cutCard(c: Card): HTMLElement {
  const s = cardSuit(c);
  if (s)
    return h('span', { class: 'cutcard', role: 'img', 'aria-label': cardLabel(c), title: cardLabel(c) }, cardFace(c, { mini: true }));
  return h('span', { class: `cutcard is-odd is-${c.toLowerCase()}`, role: 'img', 'aria-label': cardLabel(c), title: cardLabel(c) }, h('span', { 'aria-hidden': 'true' }, c === 'Joker' ? '\u2605' : '\u2660\u2665'), h('span', { 'aria-hidden': 'true', class: 'cutcard-word' }, c));
}

function dirWords(d: Dir | undefined): string {
  return d === 'across' ? 'across' : `to the ${d ?? 'left'}`;
}

function roundTitle(v: View): string {
  const f = v.fife;
  if (!f) return '';
  if (f.round === 4) return 'Silly Round';
  return `Round ${f.round + 1} \u2014 Caller ${SEAT_NAME[v.declarer]}`;
}

// ----------------------------------------------------------------- panel

export function renderFife(app: App): HTMLElement | null {
  const vm = app.state.view;
  const f = vm?.view.fife;
  if (!vm || !f) return null;
  const v = vm.view;
  const rules = app.state.table?.rule_set;
  const me = mySeat(app.state);
  const shown: Seat | null = me ?? (v.seat !== 'all' ? v.seat : null);
  const m = observe(vm);
  const silly = f.round === 4;
  const over = v.phase === 'over';
  const sets = rules?.sets;

  let status = '';
  /** What this player must do now: the cut, or the three cards to pass. */
  let act: HTMLElement | null = null;
  const parts: (HTMLElement | null)[] = [];

  // The Calls of the Round.
  if (!over) {
    const done = new Set(f.calls_done);
    const now = new Set(v.contracts);
    parts.push(
      h(
        'ul',
        { class: 'fife-calls', 'aria-label': 'Calls this Round' },
        FIFE_CALLS.map((k) => {
          const state = now.has(k) ? 'now' : done.has(k) ? 'done' : 'left';
          const word = state === 'now' ? 'this deal' : state === 'done' ? 'played' : 'left';
          return h(
            'li',
            { class: `fife-call is-${state}`, title: `${contractName(k, rules)}: ${word}` },
            h('abbr', { title: contractName(k, rules) }, callAbbr(k, rules)),
            h('span', { class: 'sr-only' }, ` ${contractName(k, rules)}, ${word}`),
          );
        }),
      ),
    );
    if (v.contracts.length) {
      parts.push(
        h(
          'p',
          { class: 'panel-line fife-call-now' },
          h('strong', null, 'Call: '),
          comboName(v.contracts, rules),
          silly ? (f.n_cuts ? ', as cut' : ": the Round's last Call, no cut") : `, called by ${v.declarer === me ? 'you' : seatAndName(app, v.declarer)}`,
        ),
      );
    }
  }

  // The Silly Round's cuts.
  const cutLegal = legalActions(vm).find((a) => a.type === 'cut');
  if (silly && !over && (v.phase === 'cut' || f.n_cuts > 0)) {
    // What each cut was for and meant comes from the server, in the
    // engine's words: the client reads no cut itself.
    const entries = f.cuts.map((card, i) => ({ card, note: f.cut_notes?.[i] }));
    const box = h('div', { class: 'fife-cuts', 'aria-labelledby': 'fife-cuts-title' });
    box.append(h('h3', { class: 'panel-sub', id: 'fife-cuts-title' }, `Cuts this deal${f.n_cuts ? ` (${f.n_cuts})` : ''}`));
    if (entries.length) {
      box.append(
        h(
          'ol',
          { class: 'cut-list' },
          entries.map((e) =>
            h(
              'li',
              { class: `cut${e.note ? (e.note.for === 'pass_on' ? ' is-pass' : ' is-call') : ''}` },
              cutCard(e.card),
              e.note?.text ? h('span', { class: 'cut-note' }, e.note.for === 'pass_on' ? `Pass-on cut: ${e.note.text}` : e.note.text) : null,
            ),
          ),
        ),
      );
    } else {
      box.append(h('p', { class: 'panel-note' }, 'No cut yet.'));
    }
    if (f.sequence.length && v.contracts.length === 0)
      box.append(h('p', { class: 'panel-line' }, h('strong', null, 'Sequence so far: '), sortCalls(f.sequence).map((k) => contractName(k, rules)).join(' + ')));
    box.append(
      h(
        'details',
        { class: 'fife-legend' },
        h('summary', null, 'What the cuts mean'),
        h(
          'p',
          null,
          'For the Call: 2 Aces, 3 King of Hearts, 4 Queens, 5 Hearts, 6 Tricks; numbers next to each other (6 next to 2) make a sequence; a Joker gives all the negative Calls left, the Bridge card Double Patience. After a number the Cutter cuts again while a number could join it or a Joker bring in the other negative Calls left (a 2 then a Joker with Queens left: Aces + Queens); a played number, a number not next to it or the Bridge stops it. For a Pass-on: black starts one, red ends them, a Joker or the Bridge is cut again; at most three a deal.',
        ),
      ),
    );
    parts.push(box);
    if (v.phase === 'cut' && f.cutter) {
      const forWhat =
        f.cut_for === 'call' ? 'for the Call' : 'for a Pass-on: a black card starts one, a red card ends them';
      status =
        f.cutter === me
          ? `Your turn: cut the Unused Pack ${forWhat}.`
          : `${seatAndName(app, f.cutter)} cuts the Unused Pack ${forWhat}.`;
      if (cutLegal && f.cutter === me)
        act = h(
          'div',
          { class: 'panel-actions' },
          h(
            'button',
            { type: 'button', class: 'btn primary', id: 'cut', 'data-focus': 'cut', onclick: () => app.act(cutLegal) },
            'Cut the Unused Pack',
          ),
        );
    }
  }

  // The Pass-on under way.
  if (v.phase === 'pass_on') {
    const dir = (f.pass_dir ?? 'left') as Dir;
    const k = f.n_pass_ons;
    const box = h('div', { class: 'fife-pass', 'aria-labelledby': 'fife-pass-title' });
    box.append(
      h('h3', { class: 'panel-sub', id: 'fife-pass-title' }, `Pass-on ${k + 1}: everyone passes 3 cards ${dirWords(dir)}`),
      h(
        'ul',
        { class: 'pass-seats', 'aria-label': 'Who has chosen' },
        SEATS.map((s) => {
          const chose = f.passed_on.includes(s);
          return h(
            'li',
            { class: chose ? 'is-done' : v.to_move === s ? 'is-turn' : '' },
            h('span', { 'aria-hidden': 'true' }, chose ? '\u2713 ' : v.to_move === s ? '\u2026 ' : ''),
            `${SEAT_NAME[s]}${s === me ? ' (you)' : ''}`,
            h('span', { class: 'sr-only' }, chose ? ' has chosen' : ' has not chosen yet'),
          );
        }),
      ),
    );
    const passLegal = legalActions(vm).filter((a): a is PassOnAction => a.type === 'pass_on');
    if (me && v.to_move === me && passLegal.length) {
      const to = seatAt(me, DIR_STEP[dir]);
      const picked = app.state.ui.picked;
      const action: PassOnAction = { type: 'pass_on', cards: [...picked] };
      // Only an entry of the server's legal list is sent.
      const entry = picked.length === 3 ? (findLegal(vm, action) as PassOnAction | undefined) : undefined;
      const ready = entry !== undefined;
      status =
        picked.length === 0
          ? `Pick 3 cards to pass ${dir}, to ${SEAT_NAME[to]}.`
          : picked.length < 3
            ? `Pick ${3 - picked.length} more card${3 - picked.length === 1 ? '' : 's'} to pass ${dir}, to ${SEAT_NAME[to]}.`
            : picked.length === 3
              ? ready
                ? `Ready to pass ${picked.map(cardShort).join(' ')} to ${SEAT_NAME[to]}.`
                : 'These three cards may not be passed on now.'
              : `Pick exactly 3 cards: you have ${picked.length}.`;
      act = h(
        'div',
        { class: 'fife-act' },
        h('p', { class: 'panel-line pass-prompt' }, h('strong', null, `Pick 3 cards to pass ${dir}`), ` (to ${SEAT_NAME[to]}) in your hand.`),
        h('p', { class: 'pass-picked' }, 'Picked: ', picked.length ? miniCards(picked) : h('span', { class: 'muted' }, 'none yet'), ` (${picked.length} of 3)`),
        h(
          'div',
          { class: 'panel-actions' },
          h(
            'button',
            {
              type: 'button',
              class: 'btn primary',
              id: 'pass-on-submit',
              'data-focus': 'pass-on-submit',
              disabled: !ready,
              onclick: () => {
                if (entry) app.act(entry);
              },
            },
            ready ? `Pass ${picked.map(cardShort).join(' ')} to ${SEAT_NAME[to]}` : 'Pass 3 cards',
          ),
          picked.length
            ? h(
                'button',
                {
                  type: 'button',
                  class: 'btn ghost',
                  'data-focus': 'pass-on-clear',
                  onclick: () => {
                    app.state.ui.picked = [];
                    app.update();
                  },
                },
                'Clear',
              )
            : null,
        ),
      );
    } else if (shown && f.passed_on.includes(shown)) {
      const mine = f.passed[k];
      box.append(
        h(
          'p',
          { class: 'panel-line' },
          `${shown === me ? 'You pass' : `${SEAT_NAME[shown]} passes`} `,
          mine ? miniCards(mine) : '3 cards',
          ` to ${SEAT_NAME[seatAt(shown, DIR_STEP[dir])]}; waiting for the others.`,
        ),
      );
    }
    if (!status) {
      const chosen = f.passed_on.length;
      status = `Pass-on ${k + 1} ${dirWords(dir)}: ${chosen} of 4 have chosen${v.to_move ? `; ${v.to_move === me ? 'you are' : `${seatAndName(app, v.to_move)} is`} choosing` : ''}.`;
    }
    parts.push(box);
  }

  // The Pass-ons completed this deal, as this seat saw them.
  if (shown && f.passed.length && !over) {
    const done = Math.min(f.passed.length, f.received.length, f.n_pass_ons);
    if (done > 0) {
      const dirs = DIRS_BY_DEAL[f.round_deal] ?? [];
      parts.push(
        h(
          'div',
          { class: 'fife-passed' },
          h('h3', { class: 'panel-sub' }, 'Pass-ons this deal'),
          h(
            'ol',
            { class: 'pass-list' },
            Array.from({ length: done }, (_, i) => {
              const d = (m?.dirs[i] ?? dirs[i] ?? 'left') as Dir;
              const to = seatAt(shown, DIR_STEP[d]);
              const from = seatAt(shown, 4 - DIR_STEP[d]);
              return h(
                'li',
                null,
                `${d}: ${shown === me ? 'you gave' : `${SEAT_NAME[shown]} gave`} `,
                miniCards(f.passed[i] ?? []),
                ` to ${SEAT_NAME[to]}, got `,
                miniCards(f.received[i] ?? []),
                ` from ${SEAT_NAME[from]}`,
              );
            }),
          ),
        ),
      );
    }
  }

  // The Piranha.
  if (f.piranha && !over) {
    parts.push(
      h('p', { class: 'fife-piranha', role: 'note' }, h('strong', null, 'Piranha! '), `${seatAndName(app, f.piranha)} took El Kingko (K\u2665) in a trick won by an 8.`),
    );
  }

  // The draw: the first Caller, or the Silly Round's first dealer.
  const drawSeats = SEATS.filter((s) => f.draw[s]);
  const firstDeal = f.round_deal === 0 && !over && (silly || (f.set === 0 && f.round === 0 && v.deal === 0));
  if (firstDeal && drawSeats.length) {
    const winner = silly ? f.silly_first : v.first;
    parts.push(
      h(
        'div',
        { class: 'fife-draw' },
        h('h3', { class: 'panel-sub' }, silly ? 'The draw for the first dealer' : 'The draw for the first Caller'),
        h(
          'ul',
          { class: 'draw-list' },
          drawSeats.map((s) =>
            h(
              'li',
              { class: s === winner ? 'is-winner' : '' },
              h('span', { class: 'draw-seat' }, s),
              h('span', { class: 'sr-only' }, SEAT_NAME[s]),
              ' ',
              cutCard(f.draw[s] as Card),
            ),
          ),
        ),
        winner
          ? h(
              'p',
              { class: 'panel-note' },
              `${seatAndName(app, winner)} drew highest (the Bridge above a Joker above 6 down to 2): ${silly ? 'first dealer' : 'first Caller'}.`,
            )
          : null,
      ),
    );
  }

  if (!status && !over) {
    if (v.phase === 'declare') status = `${seatAndName(app, v.declarer)} ${v.declarer === me ? 'choose' : 'chooses'} the Call.`;
    else if (v.phase === 'play' && v.contracts.length) status = `Playing ${comboName(v.contracts, rules)}.`;
  }

  // Where the game is, what to do now, then the rest.
  const bits = over ? [] : [`deal ${f.round_deal + 1} of the Round`];
  if (silly && !over) bits.push(`dealer ${SEAT_NAME[v.dealer]}`, ...(f.cutter ? [`cutter ${SEAT_NAME[f.cutter]}`] : []));
  return h(
    'section',
    { class: 'panel panel-fife', id: 'fife', 'aria-labelledby': 'fife-title' },
    h('p', { class: 'panel-kicker' }, fifeKicker(f.set, sets, over, bits)),
    h('h2', { class: 'panel-title', id: 'fife-title' }, over ? 'The game is over' : roundTitle(v)),
    h('p', { class: `panel-status fife-status${act ? ' is-turn' : ''}`, 'aria-live': 'polite' }, status),
    act,
    parts,
  );
}
