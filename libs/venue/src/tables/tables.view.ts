import type { CombinationRow } from './tables.repository.js';
import type { VenueTable } from './venue-table.entity.js';

export interface TableView {
  id: string;
  label: string;
  capacity: number;
  /** Place on the floor plan, percent of its width and height; null until placed. */
  x: number | null;
  y: number | null;
  retired: boolean;
  createdAt: string;
}

export interface CombinationView {
  id: string;
  tableIds: string[];
  capacity: number;
  createdAt: string;
}

export function toTableView(t: VenueTable): TableView {
  return {
    id: t.id,
    label: t.label,
    capacity: t.capacity,
    x: t.posX ?? null,
    y: t.posY ?? null,
    retired: Boolean(t.retiredAt),
    createdAt: t.createdAt.toISOString(),
  };
}

/** Table ids in a stable order (sorted), whatever order the manager gave them in. */
export function toCombinationView(c: CombinationRow): CombinationView {
  return { id: c.id, tableIds: [...c.tableIds].sort(), capacity: c.capacity, createdAt: c.createdAt.toISOString() };
}
