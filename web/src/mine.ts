// The tables this player created (and those it handed to the computer
// players), so the lobby can offer "Close" and "Hand over" on them.  The
// lobby summary's `creator` and `handed_over` say it (the server sends
// them; `handed_over` is forgotten at a restart of the server); otherwise the
// page remembers the ids the server gave its `create` and `again` (in
// localStorage `barbu.mine`, by handle: the same in every tab).

interface Mine {
  created: number[];
  handed: number[];
}

const KEY = 'barbu.mine';
const KEEP = 50;
let memory: Record<string, Mine> = {};

function load(): Record<string, Mine> {
  try {
    const raw = window.localStorage.getItem(KEY);
    const v: unknown = raw ? JSON.parse(raw) : {};
    if (v && typeof v === 'object') memory = v as Record<string, Mine>;
  } catch {
    /* storage off or damaged: this page's memory only */
  }
  return memory;
}

function save(): void {
  try {
    window.localStorage.setItem(KEY, JSON.stringify(memory));
  } catch {
    /* kept for this page only */
  }
}

function of(name: string): Mine {
  const all = load();
  const m = all[name];
  if (m && Array.isArray(m.created) && Array.isArray(m.handed)) return m;
  return (all[name] = { created: [], handed: [] });
}

export function rememberCreated(name: string | null, id: number): void {
  if (!name) return;
  const m = of(name);
  if (!m.created.includes(id)) m.created.push(id);
  if (m.created.length > KEEP) m.created.splice(0, m.created.length - KEEP);
  save();
}

export function rememberHanded(name: string | null, id: number): void {
  if (!name) return;
  const m = of(name);
  if (!m.handed.includes(id)) m.handed.push(id);
  if (m.handed.length > KEEP) m.handed.splice(0, m.handed.length - KEEP);
  save();
}

/** Whether `name` created the table (the server's word first). */
export function createdBy(t: { id: number; creator?: string }, name: string | null): boolean {
  if (!name) return false;
  if (t.creator !== undefined) return t.creator.toLowerCase() === name.toLowerCase();
  return of(name).created.includes(t.id);
}

export function handedOver(t: { id: number; handed_over?: boolean }, name: string | null): boolean {
  if (t.handed_over !== undefined) return t.handed_over;
  return !!name && of(name).handed.includes(t.id);
}
