// The Domino and Patience layout (#layout): a row per suit with its run of
// cards from lo to hi, the start rank, who has gone out, the passes; and
// beside it what the seat to move may do besides playing one card: the
// Patience groups (several cards at once) and the pass.

import { h } from '../dom';
import type { Card, LayoutSuit, Suit } from '../protocol';
import { canPass, groupPlays } from '../legal';
import { RANK_NAME, RED, SEAT_NAME, SUIT_NAME, cardLabel, cardShort } from '../names';
import { cardFace, suitIcon } from './cards';
import type { Ctx } from './table';

const SUITS: Suit[] = ['S', 'H', 'D', 'C'];

/** The cards of a run, lowest first, in the order the ranks run. */
export function runCards(suit: Suit, run: LayoutSuit): Card[] {
  const order = run.lo === 'A' ? 'A23456789TJQK' : '23456789TJQKA';
  const a = order.indexOf(run.lo);
  const b = order.indexOf(run.hi);
  if (a < 0 || b < 0 || b < a) return [run.lo + suit, ...(run.hi !== run.lo ? [run.hi + suit] : [])];
  const out: Card[] = [];
  for (let i = a; i <= b; i++) out.push(order.charAt(i) + suit);
  return out;
}

export function ordinal(n: number): string {
  const s = n % 100 >= 11 && n % 100 <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th';
  return `${n}${s}`;
}

function row(ctx: Ctx, s: Suit): HTMLElement {
  const run = ctx.v?.layout[s];
  const cards = run ? runCards(s, run) : [];
  const desc = run
    ? `${SUIT_NAME[s]}: ${cardLabel(cards[0])} to ${cardLabel(cards[cards.length - 1])}`
    : `${SUIT_NAME[s]}: not started`;
  return h(
    'div',
    {
      class: `layout-row ${RED[s] ? 'red' : 'black'}`,
      'data-suit': s,
      'data-lo': run?.lo ?? null,
      'data-hi': run?.hi ?? null,
      role: 'listitem',
      'aria-label': desc,
    },
    h('span', { class: 'layout-suit', 'aria-hidden': 'true' }, suitIcon(s)),
    cards.length > 0
      ? h(
          'div',
          { class: 'layout-run', 'aria-hidden': 'true' },
          cards.map((c) => h('div', { class: 'layout-card', 'data-card': c }, cardFace(c))),
        )
      : h('div', { class: 'layout-empty', 'aria-hidden': 'true' }, 'not started'),
    run ? h('span', { class: 'layout-ends', 'aria-hidden': 'true' }, `${cardShort(cards[0])} – ${cardShort(cards[cards.length - 1])}`) : null,
  );
}

/** The groups of cards that may go down together, and the pass, for the seat to move. */
export function renderLayoutActions(ctx: Ctx): HTMLElement | null {
  const { vm, app } = ctx;
  if (!ctx.me || !vm || ctx.v?.to_move !== ctx.me || ctx.v.phase !== 'play') return null;
  const groups = groupPlays(vm);
  const pass = canPass(vm);
  if (groups.length === 0 && !pass) return null;
  return h(
    'div',
    { class: 'layout-actions' },
    groups.length > 0
      ? h(
          'div',
          { class: 'groups', role: 'group', 'aria-label': 'Several cards at once' },
          h('span', { class: 'groups-title' }, 'Or play together:'),
          groups.map((g) => {
            const words = g.cards.map(cardShort).join(' ');
            return h(
              'button',
              {
                type: 'button',
                class: 'group',
                'data-cards': g.cards.join(' '),
                'data-focus': `group-${g.cards.join('-')}`,
                'aria-label': `Play ${g.cards.map(cardLabel).join(', ')} together`,
                onclick: () => app.act(g),
              },
              h(
                'span',
                { class: 'group-cards', 'aria-hidden': 'true' },
                g.cards.map((c) => h('span', { class: 'group-card' }, cardFace(c, { mini: true }))),
              ),
              h('span', { class: 'group-word' }, `Play ${words} together`),
            );
          }),
        )
      : null,
    pass
      ? h(
          'button',
          {
            type: 'button',
            id: 'pass',
            class: 't-primary',
            'data-focus': 'pass',
            onclick: () => {
              const entry = (vm.legal ?? []).find((a) => a.type === 'pass');
              if (entry) app.act(entry);
            },
          },
          'Pass — no card fits',
        )
      : null,
  );
}

export function renderLayout(ctx: Ctx): HTMLElement {
  const v = ctx.v;
  const patience = v?.kind === 'patience';
  // The start rank: the declared one (Domino), else the rules' fixed one (the
  // Fife Patiences start from the Jacks).
  const fixed = v?.contracts.map((k) => ctx.t.rule_set?.contracts.find((c) => c.key === k)?.fixed_rank).find((r) => r);
  const start = v?.rank ?? fixed ?? (patience ? 'J' : undefined);
  const info: (HTMLElement | string)[] = [];
  if (start) info.push(h('span', { class: 'layout-start' }, `Starts with ${(RANK_NAME[start] ?? start).toLowerCase()}s`));
  if (v && v.out.length > 0) {
    info.push(
      h(
        'span',
        { class: 'layout-out' },
        'Out: ',
        v.out.map((s, i) => `${ordinal(i + 1)} ${s === ctx.me ? 'you' : SEAT_NAME[s]}`).join(', '),
      ),
    );
  }
  if (v && v.passes > 0) {
    info.push(h('span', { class: 'layout-passes' }, v.passes === 1 ? '1 pass' : `${v.passes} passes in a row`));
  }
  const last = ctx.vm?.last;
  if (last && last.type === 'pass') {
    info.push(h('span', { class: 'layout-last' }, `${last.seat === ctx.me ? 'You' : SEAT_NAME[last.seat]} passed`));
  } else if (last && last.type === 'play' && last.cards.length > 0) {
    info.push(
      h(
        'span',
        { class: 'layout-last' },
        `${last.seat === ctx.me ? 'You' : SEAT_NAME[last.seat]} played ${last.cards.map(cardShort).join(' ')}`,
      ),
    );
  }
  return h(
    'div',
    { id: 'layout', class: 'layout', 'data-kind': v?.kind ?? null },
    h('div', { class: 'layout-rows', role: 'list', 'aria-label': patience ? 'Patience layout' : 'Domino layout' }, SUITS.map((s) => row(ctx, s))),
    h('div', { class: 'layout-info', 'aria-live': 'polite' }, info),
  );
}
