// Card faces and backs, drawn as SVG by our own code (viewBox 0 0 100 140).
// The SVG is decoration (aria-hidden): the element around it carries the
// card's name (names.cardLabel).  Each face is built once per card and
// variant and then cloned, so a full redraw of the table stays cheap and
// every caller gets its own independent node.

import { svg } from '../dom';
import type { Card, Suit } from '../protocol';
import { RANK_INDEX, RED, cardRank, cardSuit } from '../names';

export const CARD_W = 100;
export const CARD_H = 140;

// Literal colours (presentation attributes do not take var() everywhere);
// table.css maps the `ink-*` classes to --red-suit and --black-suit.
const RED_INK = '#c0001a';
const BLACK_INK = '#111111';
const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif';
const SERIF = 'Georgia, "DejaVu Serif", "Times New Roman", serif';

// Suit shapes in a 100 x 100 box.
const SUIT_PATH: Record<Suit, string> = {
  H:
    'M50 94 C38 80 4 58 4 31 C4 13 17 4 30 4 C40 4 47 10 50 19 C53 10 60 4 70 4 ' +
    'C83 4 96 13 96 31 C96 58 62 80 50 94 Z',
  D: 'M50 2 L88 50 L50 98 L12 50 Z',
  S:
    'M50 3 C44 18 6 40 6 64 C6 79 17 88 29 88 C38 88 44 83 47 77 C46 87 42 94 33 98 ' +
    'L67 98 C58 94 54 87 53 77 C56 83 62 88 71 88 C83 88 94 79 94 64 C94 40 56 18 50 3 Z',
  C:
    'M50 4 A21 21 0 0 1 66 39 A21 21 0 1 1 56 72 C57 84 61 92 68 98 L32 98 ' +
    'C39 92 43 84 44 72 A21 21 0 1 1 34 39 A21 21 0 0 1 50 4 Z',
};

function ink(s: Suit): string {
  return RED[s] ? RED_INK : BLACK_INK;
}
/** The ink's classes: red or black, and the suit's own (ink-C), which the
 * four-colour deck paints (look.css). */
function inkClass(s: Suit): string {
  return `${RED[s] ? 'ink-red' : 'ink-black'} ink-${s}`;
}

/** A suit symbol of size `size` centred on (cx, cy), upside down if `flip`. */
export function suitShape(s: Suit, cx: number, cy: number, size: number, flip = false): SVGElement {
  const k = size / 100;
  const x = cx - size / 2;
  const y = cy - size / 2;
  const t = (flip ? `rotate(180 ${cx} ${cy}) ` : '') + `translate(${x} ${y}) scale(${k})`;
  return svg('path', { d: SUIT_PATH[s], transform: t, fill: ink(s), class: inkClass(s) });
}

/** A small suit symbol as its own SVG, for text lines ("Trumps: ♥"). */
export function suitIcon(s: Suit): SVGElement {
  return svg(
    'svg',
    { viewBox: '0 0 100 100', class: 'suit-icon', 'aria-hidden': 'true', focusable: 'false' },
    svg('path', { d: SUIT_PATH[s], fill: ink(s), class: inkClass(s) }),
  );
}

// Pip positions (x, y) for 2-10; pips below the middle are drawn upside down.
const L = 34;
const C = 50;
const R = 66;
const PIPS: Record<string, [number, number][]> = {
  '2': [[C, 26], [C, 114]],
  '3': [[C, 26], [C, 70], [C, 114]],
  '4': [[L, 26], [R, 26], [L, 114], [R, 114]],
  '5': [[L, 26], [R, 26], [C, 70], [L, 114], [R, 114]],
  '6': [[L, 26], [R, 26], [L, 70], [R, 70], [L, 114], [R, 114]],
  '7': [[L, 26], [R, 26], [C, 48], [L, 70], [R, 70], [L, 114], [R, 114]],
  '8': [[L, 26], [R, 26], [C, 48], [L, 70], [R, 70], [C, 92], [L, 114], [R, 114]],
  '9': [[L, 26], [R, 26], [L, 55], [R, 55], [C, 70], [L, 85], [R, 85], [L, 114], [R, 114]],
  T: [[L, 26], [R, 26], [C, 41], [L, 55], [R, 55], [L, 85], [R, 85], [C, 99], [L, 114], [R, 114]],
};

function frame(): SVGElement {
  return svg('rect', {
    x: 1,
    y: 1,
    width: 98,
    height: 138,
    rx: 8,
    ry: 8,
    fill: '#ffffff',
    stroke: '#8a8a8a',
    'stroke-width': 1.5,
  });
}

// The indices and court letters are drawn from one hidden sprite of
// <text> glyphs (<use href>), not as text inside each card: a card button's
// name is its label ("Five of spades"), and text inside it that the name
// does not hold ("5", "5") would break WCAG's label-in-name (2.5.3).
let sprite: SVGElement | null = null;
const glyphIds = new Map<string, string>();

function spriteDefs(): SVGElement {
  if (!sprite) {
    sprite = svg(
      'svg',
      {
        id: 'card-glyphs',
        'aria-hidden': 'true',
        focusable: 'false',
        width: 0,
        height: 0,
        style: 'position:absolute;width:0;height:0;overflow:hidden',
      },
      svg('defs'),
    );
  }
  if (!sprite.isConnected) document.body.append(sprite);
  return sprite.firstChild as SVGElement;
}

/** A text glyph at (x, y): its shape (size, weight, anchor, length) in the
 * sprite, its paint (fill, class) on the <use>, which the glyph inherits. */
function glyph(text: string, attrs: Record<string, string | number>): SVGElement {
  const { x, y, fill, class: cls, ...shape } = attrs;
  const key = JSON.stringify([text, shape]);
  let id = glyphIds.get(key);
  if (id === undefined) {
    id = `card-glyph-${glyphIds.size}`;
    glyphIds.set(key, id);
  }
  const defs = spriteDefs();
  if (!defs.querySelector(`#${id}`)) defs.append(svg('text', { id, x: 0, y: 0, ...shape }, text));
  return svg('use', { href: `#${id}`, x: x ?? 0, y: y ?? 0, fill: fill ?? null, class: cls ?? null });
}

function root(cls: string, ...children: SVGElement[]): SVGElement {
  return svg(
    'svg',
    {
      viewBox: `0 0 ${CARD_W} ${CARD_H}`,
      class: cls,
      'aria-hidden': 'true',
      focusable: 'false',
      'font-family': FONT,
    },
    children,
  );
}

/** The rank and suit in a corner; the bottom-right one turned round. */
function corner(rank: string, s: Suit, flip: boolean, big = false): SVGElement {
  const label = RANK_INDEX[rank] ?? rank;
  const size = big ? 40 : 28;
  const x = big ? 17 : 12.5;
  const textAttrs: Record<string, string | number> = {
    x,
    y: big ? 40 : 30,
    'font-size': size,
    'font-weight': 700,
    'text-anchor': 'middle',
    fill: ink(s),
    class: inkClass(s),
  };
  if (label.length > 1) {
    textAttrs.textLength = big ? 30 : 21;
    textAttrs.lengthAdjust = 'spacingAndGlyphs';
  }
  const g = svg(
    'g',
    flip ? { transform: `rotate(180 50 70)` } : null,
    glyph(label, textAttrs),
    suitShape(s, x, big ? 62 : 43, big ? 30 : 16),
  );
  return g;
}

function court(rank: string, s: Suit): SVGElement[] {
  const col = ink(s);
  const tint = RED[s] ? '#fcebec' : '#ecf0f6';
  const out: SVGElement[] = [
    svg('rect', { x: 25, y: 18, width: 50, height: 104, rx: 4, fill: tint, stroke: col, 'stroke-width': 2, class: `tint-${s} line-${s}` }),
    svg('rect', { x: 29, y: 22, width: 42, height: 96, rx: 2, fill: 'none', stroke: col, 'stroke-width': 0.8, class: `line-${s}` }),
    suitShape(s, 50, 36, 16),
    suitShape(s, 50, 104, 16, true),
    glyph(rank, {
      x: 50,
      y: 86,
      'font-size': 44,
      'font-weight': 700,
      'font-family': SERIF,
      'text-anchor': 'middle',
      fill: col,
      class: `ink-${s}`,
    }),
  ];
  // A small emblem: a crown for the King, a flower for the Queen, a plume for the Jack.
  if (rank === 'K') {
    out.push(svg('path', { d: 'M40 52 L40 44 L45 48 L50 42 L55 48 L60 44 L60 52 Z', fill: col, class: `ink-${s}` }));
  } else if (rank === 'Q') {
    out.push(svg('circle', { cx: 50, cy: 47, r: 4, fill: 'none', stroke: col, 'stroke-width': 2, class: `line-${s}` }));
    out.push(svg('circle', { cx: 50, cy: 47, r: 1.5, fill: col, class: `ink-${s}` }));
  } else {
    out.push(svg('path', { d: 'M46 52 C46 44 52 42 56 40 C54 45 54 48 54 52 Z', fill: col, class: `ink-${s}` }));
  }
  return out;
}

function buildFace(c: Card, mini: boolean): SVGElement {
  if (c === 'Joker') return joker(mini);
  if (c === 'Bridge') return bridge(mini);
  const s = cardSuit(c);
  const r = cardRank(c);
  if (!s) {
    return root('card-svg', frame(), svg('text', { x: 50, y: 78, 'font-size': 24, 'text-anchor': 'middle' }, c));
  }
  if (mini) {
    // Readable when small: a big index, a big suit.
    return root('card-svg mini', frame(), corner(r, s, false, true), suitShape(s, 62, 104, 46));
  }
  const parts: SVGElement[] = [frame(), corner(r, s, false), corner(r, s, true)];
  if (r === 'A') {
    parts.push(suitShape(s, 50, 70, 48));
  } else if (r === 'K' || r === 'Q' || r === 'J') {
    parts.push(...court(r, s));
  } else {
    const size = r === '9' || r === 'T' ? 18 : 20;
    for (const [x, y] of PIPS[r] ?? []) parts.push(suitShape(s, x, y, size, y > 70));
  }
  return root('card-svg', ...parts);
}

function joker(mini: boolean): SVGElement {
  const col = '#5b2a86';
  const parts: SVGElement[] = [frame()];
  const star = (x: number, y: number, r: number, flip = false): SVGElement => {
    const pts: string[] = [];
    for (let i = 0; i < 10; i++) {
      const a = (Math.PI / 5) * i - Math.PI / 2;
      const rr = i % 2 === 0 ? r : r * 0.45;
      pts.push(`${(x + rr * Math.cos(a)).toFixed(1)},${(y + rr * Math.sin(a)).toFixed(1)}`);
    }
    return svg('polygon', { points: pts.join(' '), fill: col, transform: flip ? `rotate(180 50 70)` : null });
  };
  if (mini) {
    parts.push(svg('text', { x: 50, y: 44, 'font-size': 30, 'font-weight': 700, 'text-anchor': 'middle', fill: col }, 'JKR'));
    parts.push(star(50, 96, 28));
    return root('card-svg mini', ...parts);
  }
  parts.push(star(13, 16, 9), star(13, 16, 9, true));
  // A jester's cap: three points with bells.
  parts.push(
    svg('path', {
      d: 'M26 92 L30 58 L18 38 L40 52 L50 28 L60 52 L82 38 L70 58 L74 92 Z',
      fill: '#f2c230',
      stroke: col,
      'stroke-width': 2,
      'stroke-linejoin': 'round',
    }),
    svg('circle', { cx: 18, cy: 38, r: 5, fill: '#c0001a' }),
    svg('circle', { cx: 50, cy: 28, r: 5, fill: '#c0001a' }),
    svg('circle', { cx: 82, cy: 38, r: 5, fill: '#c0001a' }),
    svg('rect', { x: 24, y: 88, width: 52, height: 10, rx: 3, fill: col }),
    svg(
      'text',
      { x: 50, y: 116, 'font-size': 15, 'font-weight': 700, 'text-anchor': 'middle', fill: col, 'letter-spacing': 1.5 },
      'JOKER',
    ),
  );
  return root('card-svg', ...parts);
}

function bridge(mini: boolean): SVGElement {
  const col = '#0b4f6c';
  const parts: SVGElement[] = [frame()];
  const arch = (y: number, w: number): SVGElement =>
    svg('path', {
      d: `M${50 - w / 2} ${y} Q50 ${y - w * 0.7} ${50 + w / 2} ${y} M${50 - w / 2} ${y} L${50 + w / 2} ${y}`,
      fill: 'none',
      stroke: col,
      'stroke-width': 4,
      'stroke-linecap': 'round',
    });
  if (mini) {
    parts.push(svg('text', { x: 50, y: 44, 'font-size': 30, 'font-weight': 700, 'text-anchor': 'middle', fill: col }, 'BR'));
    parts.push(arch(110, 70));
    return root('card-svg mini', ...parts);
  }
  parts.push(
    svg('text', { x: 13, y: 26, 'font-size': 20, 'font-weight': 700, 'text-anchor': 'middle', fill: col }, 'B'),
    svg(
      'text',
      { x: 13, y: 26, 'font-size': 20, 'font-weight': 700, 'text-anchor': 'middle', fill: col, transform: 'rotate(180 50 70)' },
      'B',
    ),
    // An arched bridge over water, with its piers.
    svg('path', {
      d: 'M16 84 L84 84 L84 90 L16 90 Z M22 84 Q50 40 78 84',
      fill: 'none',
      stroke: col,
      'stroke-width': 4,
      'stroke-linejoin': 'round',
    }),
    svg('path', { d: 'M30 84 L30 70 M40 84 L40 60 M50 84 L50 57 M60 84 L60 60 M70 84 L70 70', stroke: col, 'stroke-width': 2 }),
    svg('path', {
      d: 'M16 100 q6 -4 12 0 t12 0 t12 0 t12 0 t12 0 t12 0',
      fill: 'none',
      stroke: '#2b7fb8',
      'stroke-width': 2.5,
    }),
    svg(
      'text',
      { x: 50, y: 116, 'font-size': 14, 'font-weight': 700, 'text-anchor': 'middle', fill: col, 'letter-spacing': 1 },
      'BRIDGE',
    ),
  );
  return root('card-svg', ...parts);
}

let backLattice: string | null = null;
function lattice(): string {
  if (backLattice !== null) return backLattice;
  // Diagonal lines both ways, clipped by hand to the inner panel.
  const x0 = 8, x1 = 92, y0 = 8, y1 = 132;
  const d: string[] = [];
  for (let k = -84; k <= 124; k += 9) {
    const a = Math.max(x0, y0 - k), b = Math.min(x1, y1 - k);
    if (a < b) d.push(`M${a} ${a + k}L${b} ${b + k}`);
  }
  for (let k = 16; k <= 224; k += 9) {
    const a = Math.max(x0, k - y1), b = Math.min(x1, k - y0);
    if (a < b) d.push(`M${a} ${k - a}L${b} ${k - b}`);
  }
  backLattice = d.join(' ');
  return backLattice;
}

function buildBack(): SVGElement {
  return root(
    'card-svg back',
    svg('rect', { x: 1, y: 1, width: 98, height: 138, rx: 8, ry: 8, fill: '#ffffff', stroke: '#8a8a8a', 'stroke-width': 1.5 }),
    svg('rect', { x: 6, y: 6, width: 88, height: 128, rx: 5, fill: '#1f3f8f' }),
    svg('path', { d: lattice(), stroke: '#8fb0ff', 'stroke-width': 1.2, 'stroke-opacity': 0.55, fill: 'none' }),
    svg('rect', { x: 6, y: 6, width: 88, height: 128, rx: 5, fill: 'none', stroke: '#ffffff', 'stroke-width': 2 }),
    svg('circle', { cx: 50, cy: 70, r: 14, fill: '#1f3f8f', stroke: '#ffffff', 'stroke-width': 2 }),
    svg('path', { d: SUIT_PATH.S, transform: 'translate(42 62) scale(0.16)', fill: '#ffffff' }),
  );
}

const faces = new Map<string, SVGElement>();
let back: SVGElement | null = null;

export interface FaceOptions {
  /** A face readable at a small size: a big index and suit, no pips. */
  mini?: boolean;
}

/** A card's face (aria-hidden; label the element around it with names.cardLabel). */
export function cardFace(c: Card, opts: FaceOptions = {}): SVGElement {
  const key = (opts.mini ? 'm:' : 'f:') + c;
  let f = faces.get(key);
  if (!f) {
    f = buildFace(c, !!opts.mini);
    faces.set(key, f);
  }
  return f.cloneNode(true) as SVGElement;
}

/** The back of a card (aria-hidden). */
export function cardBack(): SVGElement {
  if (!back) back = buildBack();
  return back.cloneNode(true) as SVGElement;
}
