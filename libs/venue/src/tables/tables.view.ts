import type { CombinationRow } from './tables.repository.js';
import type { VenueTable } from './venue-table.entity.js';

export interface TableView {
  id: string;
  label: string;
  capacity: number;
  createdAt: string;
}

export interface CombinationView {
  id: string;
  tableIds: string[];
  capacity: number;
  createdAt: string;
}

export function toTableView(t: VenueTable): TableView {
  return { id: t.id, label: t.label, capacity: t.capacity, createdAt: t.createdAt.toISOString() };
}

/** Table ids in a stable order (sorted), whatever order the manager gave them in. */
export function toCombinationView(c: CombinationRow): CombinationView {
  return { id: c.id, tableIds: [...c.tableIds].sort(), capacity: c.capacity, createdAt: c.createdAt.toISOString() };
}
