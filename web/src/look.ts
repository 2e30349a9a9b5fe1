// The table's look from the player's settings (settings.ts): the felt's
// colour, the spacing and size of the cards, the four-colour deck.  Each is
// a CSS custom property or a class on <html>, read by table.css and
// cards.ts's ink classes, so a change shows at once without a redraw.
//
//   --table-colour, --table-colour-light, --table-colour-dark: the felt
//     (unset: the house green of app.css); html.felt-light when the chosen
//     colour is so light that the felt's text turns dark to stay readable;
//   --card-gap: the room between two cards of the hand, the spacing (px
//     from one card to the next) less a card's width, which may be
//     negative (unset: up to 6 px, as far apart as the width allows);
//   html[data-card-size="small"|"large"]: the card sizes (medium unset);
//   html.four-colour: clubs green, diamonds blue.

import { onSettingsChange, settings } from './settings';

function channels(hex: string): [number, number, number] {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function toHex(c: [number, number, number]): string {
  return '#' + c.map((v) => Math.max(0, Math.min(255, Math.round(v))).toString(16).padStart(2, '0')).join('');
}

/** The colour mixed towards white (k > 0) or black (k < 0) by |k|. */
function shade(hex: string, k: number): string {
  const c = channels(hex);
  const to = k > 0 ? 255 : 0;
  const a = Math.abs(k);
  return toHex([c[0] + (to - c[0]) * a, c[1] + (to - c[1]) * a, c[2] + (to - c[2]) * a]);
}

/** WCAG's relative luminance. */
function luminance(hex: string): number {
  const lin = (v: number): number => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : Math.pow((s + 0.055) / 1.055, 2.4);
  };
  const [r, g, b] = channels(hex);
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** Puts the settings' look on the page. */
export function applyLook(): void {
  const s = settings();
  const root = document.documentElement;
  const style = root.style;
  if (s.tableColour) {
    style.setProperty('--table-colour', s.tableColour);
    style.setProperty('--table-colour-light', shade(s.tableColour, 0.12));
    style.setProperty('--table-colour-dark', shade(s.tableColour, -0.3));
    // White text needs 4.5:1 on the felt: (1.05) / (L + 0.05) >= 4.5.
    root.classList.toggle('felt-light', luminance(s.tableColour) > 0.183);
  } else {
    style.removeProperty('--table-colour');
    style.removeProperty('--table-colour-light');
    style.removeProperty('--table-colour-dark');
    root.classList.remove('felt-light');
  }
  if (s.cardSpacing) style.setProperty('--card-gap', `calc(${s.cardSpacing}px - var(--card-w))`);
  else style.removeProperty('--card-gap');
  if (s.cardSize === 'medium') delete root.dataset.cardSize;
  else root.dataset.cardSize = s.cardSize;
  root.classList.toggle('four-colour', s.fourColour);
}

/** Applies the look now and after every change of a setting. */
export function startLook(): void {
  applyLook();
  onSettingsChange(applyLook);
}
