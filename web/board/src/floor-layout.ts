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

/** One tile drawn on the plan: its centre and size, in pixels of the plan. */
export interface Tile {
  cx: number;
  cy: number;
}

export interface TileFit {
  /** Tile width in pixels; every tile is the same size, its text cut with an ellipsis where needed. */
  width: number;
  centres: Tile[];
}

/**
 * The widest tile (from `maxWidth` down to `minWidth`) at which every table can stand where the
 * manager placed it without touching another, each pulled inside the plan's edges. `null` when even
 * the narrowest tile would overlap: the board then lists the tables in a grid instead (a phone, or a
 * plan with tables placed close together), since a plan where tiles cover each other cannot be read.
 */
export function fitTiles(
  placed: Array<{ x: number; y: number }>,
  plan: { width: number; height: number },
  tile: { minWidth: number; maxWidth: number; height: number; gap: number },
): TileFit | null {
  if (plan.width < tile.minWidth || plan.height < tile.height) return null;
  const clamp = (v: number, lo: number, hi: number): number => Math.min(Math.max(v, lo), hi);
  for (let width = tile.maxWidth; width >= tile.minWidth; width -= 2) {
    const centres = placed.map((p) => ({
      cx: clamp((p.x / 100) * plan.width, width / 2, plan.width - width / 2),
      cy: clamp((p.y / 100) * plan.height, tile.height / 2, plan.height - tile.height / 2),
    }));
    const apart = centres.every((a, i) =>
      centres
        .slice(i + 1)
        // Two tiles are clear of each other when they are apart along either axis.
        .every((b) => Math.abs(a.cx - b.cx) >= width + tile.gap || Math.abs(a.cy - b.cy) >= tile.height + tile.gap),
    );
    if (apart) return { width, centres };
  }
  return null;
}

/** Table labels in the order a host counts them: T2 before T10. */
export function byLabel(a: { label: string }, b: { label: string }): number {
  return a.label.localeCompare(b.label, undefined, { numeric: true, sensitivity: 'base' });
}
