// A phone is a real table (issue 22, point 7): checks at 390x844 that the
// evening_c scenario and the Fife game's agent (lib/agent.mjs) make.

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { check, DESKTOP, frames, PHONE } from './harness.mjs';

/** Every card of #hand: a box of at least 44x44 px, and the card itself at its centre. */
export async function cardsTouchable(p, when) {
  const cards = await p.page.evaluate(() => {
    // The hand in view (a person scrolls to it), then each card's centre.
    document.querySelector('#hand')?.scrollIntoView({ block: 'nearest' });
    return [...document.querySelectorAll('#hand button.card[data-card]')].map((b) => {
      const r = b.getBoundingClientRect();
      const x = r.left + r.width / 2;
      const y = r.top + r.height / 2;
      const at = document.elementFromPoint(x, y);
      const hit = at ? at.closest('button.card[data-card]') : null;
      return { card: b.getAttribute('data-card'), w: Math.round(r.width), h: Math.round(r.height), x: Math.round(x), y: Math.round(y), atCentre: hit ? hit.getAttribute('data-card') : at ? at.tagName : null };
    });
  });
  check(cards.length > 0, `${p.name}: #hand should hold cards (${when})`, { page: p });
  const small = cards.filter((c) => c.w < 44 || c.h < 44);
  check(small.length === 0, `${p.name}: every card in #hand should be at least 44x44 px at 390 wide (${when})`, { expected: '>= 44x44', actual: small, page: p });
  const covered = cards.filter((c) => c.atCentre !== c.card);
  check(covered.length === 0, `${p.name}: no card in #hand may be covered at its centre (by a neighbour or anything else) (${when})`, { expected: 'elementFromPoint(centre) is the card', actual: covered, page: p });
  return cards;
}

/** At 390x844, with the hand scrolled into view as a person would: the
 * control (the Fife game's #cut or #pass-on-submit) inside the viewport and
 * not covered, and (withHand) every card of the hand uncovered too, so the
 * player picks and confirms without scrolling.  Back to 1280x800 after. */
export async function phoneControlInView(p, sel, what, { withHand = false } = {}) {
  const page = p.page;
  await page.setViewportSize(PHONE);
  await frames(page);
  try {
    for (const from of ['top', 'hand']) {
      const r = await page.evaluate(
        ({ sel, from }) => {
          if (from === 'top') window.scrollTo(0, 0);
          else document.querySelector('#hand')?.scrollIntoView({ block: 'nearest' });
          const b = document.querySelector(sel);
          if (!b) return null;
          const x = b.getBoundingClientRect();
          const at = document.elementFromPoint(x.left + x.width / 2, x.top + x.height / 2);
          return { top: Math.round(x.top), bottom: Math.round(x.bottom), left: Math.round(x.left), right: Math.round(x.right), h: Math.round(x.height), hit: !!at && (at === b || b.contains(at)), vh: innerHeight, vw: innerWidth };
        },
        { sel, from },
      );
      check(r !== null, `${p.name}: ${what} (${sel}) should be on the page`, { page: p });
      const inside = r.top >= 0 && r.bottom <= r.vh && r.left >= 0 && r.right <= r.vw;
      check(inside && r.hit, `${p.name}: at 390x844 ${what} (${sel}) should be inside the viewport and uncovered without scrolling (page at the ${from === 'top' ? 'top' : 'hand'})`, { expected: `0 <= top, bottom <= ${r.vh}`, actual: r, page: p });
      check(r.h >= 44, `${p.name}: at 390x844 ${what} (${sel}) should be at least 44 px high`, { actual: r, page: p });
      if (withHand && from === 'hand') await cardsTouchable(p, `at 390x844 with ${sel} pinned`);
      if (from === 'hand') {
        const name = sel.replace(/[^a-z-]/g, '');
        mkdirSync(p.sc.opts.shots, { recursive: true });
        await page.screenshot({ path: join(p.sc.opts.shots, `${p.sc.name}-${name}-in-view-390x844.png`) });
      }
    }
  } finally {
    await page.setViewportSize(DESKTOP);
    await frames(page);
  }
}
