// Building the page: elements from code, text as text nodes.  Nothing from
// the server is ever parsed as markup (the one exception, the Fife score
// sheet, goes into a sandboxed frame).

export type Attrs = Record<string, string | number | boolean | null | undefined | EventListener>;
export type Child = Node | string | number | null | undefined | false | Child[];

function append(el: Element, c: Child): void {
  if (c === null || c === undefined || c === false) return;
  if (Array.isArray(c)) {
    for (const x of c) append(el, x);
  } else if (c instanceof Node) {
    el.appendChild(c);
  } else {
    el.appendChild(document.createTextNode(String(c)));
  }
}

function setAttrs(el: Element, attrs: Attrs | null | undefined): void {
  if (!attrs) return;
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') {
      el.addEventListener(k.slice(2), v);
    } else if (v === true) {
      el.setAttribute(k, '');
    } else {
      el.setAttribute(k, String(v));
    }
  }
}

/** h('button', {class: 'x', onclick: f}, 'text', child, ...) */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs?: Attrs | null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  for (const c of children) append(el, c);
  return el;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** An SVG element: svg('rect', {x: 0, y: 0, width: 10, height: 10}) */
export function svg(tag: string, attrs?: Attrs | null, ...children: Child[]): SVGElement {
  const el = document.createElementNS(SVG_NS, tag) as SVGElement;
  setAttrs(el, attrs);
  for (const c of children) append(el, c);
  return el;
}

/** Replaces an element's children. */
export function fill(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  for (const c of children) append(el, c);
}

/**
 * Re-renders a region without losing the keyboard focus: an element that
 * has focus and a `data-focus` key gets focus back if the new content has an
 * element with the same key.
 */
export function rerender(el: Element, draw: () => Child): void {
  const active = document.activeElement;
  const key = active instanceof HTMLElement && el.contains(active) ? active.dataset.focus : undefined;
  fill(el, draw());
  if (key !== undefined) {
    const again = el.querySelector<HTMLElement>(`[data-focus="${CSS.escape(key)}"]`);
    again?.focus();
  }
}
