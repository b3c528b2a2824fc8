import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { parseSlot } from './table-placement.js';

export type TableState = 'free' | 'held' | 'booked' | 'occupied';

export interface FloorTable {
  id: string;
  label: string;
  capacity: number;
  /** The table's place on the floor plan (percent of width and height); null until a manager places it. */
  x: number | null;
  y: number | null;
  state: TableState;
  /** Held: when the hold lapses; booked: when the booking starts; occupied: since when. */
  until: string | null;
  placement: {
    reservationId: string;
    name: string;
    partySize: number;
    state: string;
    slot: { start: string; end: string };
    /** The open visit of an occupied table (what Clear closes). */
    visitId: string | null;
  } | null;
}

export interface TableCounts {
  tables: number;
  free: number;
  held: number;
  booked: number;
  occupied: number;
}

/** A booking this close to starting makes its table "booked soon" on the floor. */
export const BOOKED_SOON_MS = 60 * 60_000;

/** What each table is doing at an instant, for the board and the counts. */
@Injectable()
export class TableFloorReader {
  async floor(tx: EntityManager, venueId: string, now: Date): Promise<FloorTable[]> {
    const rows: Array<{
      id: string;
      label: string;
      capacity: number;
      pos_x: number | null;
      pos_y: number | null;
      reservation_id: string | null;
      name: string | null;
      party_size: number | null;
      state: string | null;
      slot: string | null;
      hold_expires_at: Date | null;
      opened_at: Date | null;
      visit_id: string | null;
    }> = await tx.query(
      `SELECT t.id, t.label, t.capacity, t.pos_x, t.pos_y, r.id AS reservation_id, r.name, r.party_size, r.state, rt.slot::text AS slot,
              r.hold_expires_at, v.opened_at, v.id AS visit_id
         FROM venue_tables t
         LEFT JOIN reservation_tables rt ON rt.table_id = t.id AND rt.active
              AND (upper(rt.slot) > $2 OR EXISTS (SELECT 1 FROM reservations s WHERE s.id = rt.reservation_id AND s.state = 'SEATED'))
              AND lower(rt.slot) < $3
         LEFT JOIN reservations r ON r.id = rt.reservation_id
         LEFT JOIN visits v ON v.reservation_id = r.id AND v.closed_at IS NULL
        WHERE t.venue_id = $1 AND t.retired_at IS NULL
        ORDER BY t.label, t.id, lower(rt.slot)`,
      [venueId, now, new Date(now.getTime() + BOOKED_SOON_MS)],
    );
    const byTable = new Map<string, FloorTable>();
    const rank: Record<TableState, number> = { free: 0, booked: 1, held: 2, occupied: 3 };
    for (const r of rows) {
      const state: TableState = !r.state ? 'free' : r.state === 'SEATED' ? 'occupied' : r.state === 'HELD' ? 'held' : 'booked';
      const slot = r.slot ? parseSlot(r.slot) : null;
      const candidate: FloorTable = {
        id: r.id,
        label: r.label,
        capacity: Number(r.capacity),
        x: r.pos_x === null ? null : Number(r.pos_x),
        y: r.pos_y === null ? null : Number(r.pos_y),
        state,
        until:
          state === 'held'
            ? (r.hold_expires_at?.toISOString() ?? null)
            : state === 'booked'
              ? (slot?.start ?? null)
              : state === 'occupied'
                ? (r.opened_at?.toISOString() ?? null)
                : null,
        placement:
          r.reservation_id && slot
            ? {
                reservationId: r.reservation_id,
                name: r.name ?? '',
                partySize: Number(r.party_size),
                state: r.state ?? '',
                slot,
                visitId: r.visit_id,
              }
            : null,
      };
      const current = byTable.get(r.id);
      if (!current || rank[candidate.state] > rank[current.state]) byTable.set(r.id, candidate);
    }
    return [...byTable.values()];
  }

  counts(floor: FloorTable[]): TableCounts {
    const n = (s: TableState): number => floor.filter((t) => t.state === s).length;
    return { tables: floor.length, free: n('free'), held: n('held'), booked: n('booked'), occupied: n('occupied') };
  }
}
