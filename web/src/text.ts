// The page's words from the server: a refusal's text is shown whole, as a
// sentence (the server's texts say what went wrong and what to do next).

/** A capital first letter and a full stop at the end. */
export function sentence(text: string): string {
  const t = text.trim();
  if (!t) return t;
  const s = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?\u2026)]$/.test(s) ? s : `${s}.`;
}
