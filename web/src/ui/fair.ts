// Fair deals at the table: `#fair-deals` (`data-commitment` the whole hash,
// `data-key` the whole key once the game is over).  From the start it says
// "Deals committed to: 3fa1c2…9b0e" (the full hash in its title and in the
// folded text); once the game is over, the key, and how to check it:
// download the record (`button#fair-record`) and run `barbu verify` on it.
// Also `#ladder-banner` at a ladder table.

import { h } from '../dom';
import type { Ctx } from './table';

/** A long hex string in short: its first and last few digits. */
export function shortHex(hex: string): string {
  return hex.length > 12 ? `${hex.slice(0, 6)}\u2026${hex.slice(-4)}` : hex;
}

/** The file name main.ts gives a downloaded record. */
function recordFile(table: number): string {
  return `barbu-table-${table}.txt`;
}

export function renderFair(ctx: Ctx): HTMLElement | null {
  const { t, app } = ctx;
  if (!t.commitment) return null;
  const over = t.state === 'over' && !!t.key;
  return h(
    'section',
    { id: 'fair-deals', class: 'fair-deals', 'data-commitment': t.commitment, 'data-key': over ? t.key : null, 'aria-labelledby': 'fair-title' },
    h(
      'details',
      { open: over ? true : null },
      h(
        'summary',
        { id: 'fair-title', title: `The deals of this game are committed to the hash ${t.commitment}` },
        'Deals committed to: ',
        h('code', { class: 'fair-short' }, shortHex(t.commitment)),
        over ? h('span', { class: 'fair-state' }, ' \u00b7 key shown') : null,
      ),
      h(
        'p',
        null,
        'The server drew a secret key before the first card and published its hash: every deal, draw and cut of this game comes from that key. ',
        over ? 'The game is over, so here is the key.' : 'The key is shown when the game is over, to everyone at once.',
      ),
      h('p', { class: 'fair-line' }, 'Commitment: ', h('code', { class: 'fair-hex', id: 'fair-commitment' }, t.commitment)),
      over
        ? h(
            'div',
            { class: 'fair-key' },
            h('p', { class: 'fair-line' }, 'Key: ', h('code', { class: 'fair-hex', id: 'fair-key' }, t.key ?? '')),
            h(
              'p',
              null,
              'To check that these were the deals committed to, download the record and run ',
              h('code', null, `barbu verify ${recordFile(t.id)}`),
              ' (or check the hash alone: ',
              h('code', null, 'echo KEY | xxd -r -p | b2sum -l 256'),
              ').',
            ),
            h(
              'button',
              {
                type: 'button',
                id: 'fair-record',
                class: 'btn small',
                'data-focus': 'fair-record',
                onclick: () => app.send({ type: 'record', table: t.id }),
              },
              'Download the record',
            ),
          )
        : null,
    ),
  );
}

export function ladderBanner(ctx: Ctx): HTMLElement | null {
  if (!ctx.t.ladder) return null;
  return h(
    'div',
    { class: 'table-banner ladder', id: 'ladder-banner', role: 'note' },
    h('span', { class: 'tag ladder-tag' }, 'ladder'),
    ' A ladder table: registered players only, no chosen seed, and who played which deal is kept.',
  );
}
