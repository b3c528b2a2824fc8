import type { Combination } from './api/types';

export interface Placed {
  id: string;
  label: string;
  capacity: number;
  /** Percent of the plan's width and height. */
  x: number;
  y: number;
}

/**
 * Where each table is drawn: where the manager placed it, else on a simple grid of the tables not
 * placed yet (so a new venue still shows a usable floor).
 */
export function layout<T extends { id: string; label: string; capacity: number; x?: number | null; y?: number | null }>(
  tables: T[],
): Array<T & Placed> {
  const unplaced = tables.filter((t) => t.x == null || t.y == null);
  const cols = Math.max(1, Math.ceil(Math.sqrt(unplaced.length * 1.5)));
  const rows = Math.max(1, Math.ceil(unplaced.length / cols));
  return tables.map((t) => {
    if (t.x != null && t.y != null) return { ...t, x: t.x, y: t.y };
    const i = unplaced.indexOf(t);
    return { ...t, x: Math.round(((i % cols) + 0.5) * (100 / cols)), y: Math.round((Math.floor(i / cols) + 0.5) * (100 / rows)) };
  });
}

/** The lines drawn between the tables of each approved combination. */
export function combinationLines(
  placed: Placed[],
  combinations: Combination[],
): Array<{ id: string; x1: number; y1: number; x2: number; y2: number }> {
  const out: Array<{ id: string; x1: number; y1: number; x2: number; y2: number }> = [];
  for (const c of combinations) {
    const members = c.tableIds.map((id) => placed.find((p) => p.id === id)).filter((p): p is Placed => Boolean(p));
    for (let i = 1; i < members.length; i++) {
      const a = members[i - 1];
      const b = members[i];
      out.push({ id: `${c.id}-${i}`, x1: a.x, y1: a.y, x2: b.x, y2: b.y });
    }
  }
  return out;
}
