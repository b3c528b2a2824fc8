import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { jsonRows, type ScalarRead } from '@hostboard/core';
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

/**
 * A party with a confirmed table that is not seated yet (it accepted an offer, or was booked at the
 * desk), due now or within BOOKED_SOON_MS: the board's "To be seated" list. It stays until the host
 * seats it or cancels it (a no-show), however long ago its slot ended.
 */
export interface ToSeatParty {
  reservationId: string;
  /** The queue entry it came from; null for a booking made at the desk. */
  entryId: string | null;
  name: string;
  partySize: number;
  tableIds: string[];
  slot: { start: string; end: string };
  /** When it was confirmed: the offer's acceptance, or the booking's creation. */
  confirmedAt: string;
}

/** How many parties to be seated the board carries (a floor has far fewer tables than this). */
export const TO_SEAT_LIMIT = 200;

/** A booking this close to starting makes its table "booked soon" on the floor. */
export const BOOKED_SOON_MS = 60 * 60_000;

/** What each table is doing at an instant, for the board and the counts. */
@Injectable()
export class TableFloorReader {
  async floor(tx: EntityManager, venueId: string, now: Date): Promise<FloorTable[]> {
    const rows: FloorRow[] = await tx.query(FLOOR_SQL, [venueId, now, new Date(now.getTime() + BOOKED_SOON_MS)]);
    return toFloor(rows);
  }

  /** The same floor as one part of a combined read (readTogether): its rows as JSON, in the same order. */
  floorRead(venueId: string, now: Date): ScalarRead<FloorTable[]> {
    return {
      sql: `SELECT json_agg(f ORDER BY f.n) FROM (
              SELECT *, row_number() OVER (ORDER BY label, id, slot_start) AS n FROM (${FLOOR_SQL}) r) f`,
      params: [venueId, now, new Date(now.getTime() + BOOKED_SOON_MS)],
      parse: (value) =>
        toFloor(
          jsonRows<FloorRow>(value).map((r) => ({
            ...r,
            hold_expires_at: r.hold_expires_at === null ? null : new Date(r.hold_expires_at),
            opened_at: r.opened_at === null ? null : new Date(r.opened_at),
          })),
        ),
    };
  }

  /** The parties to be seated, longest expected first, as one part of a combined read. */
  toSeatRead(venueId: string, now: Date): ScalarRead<ToSeatParty[]> {
    return {
      sql: `SELECT coalesce(json_agg(p ORDER BY p.slot_start, p.name, p.reservation_id), '[]') FROM (
              SELECT r.id AS reservation_id, r.entry_id, r.name, r.party_size,
                     array_agg(rt.table_id::text ORDER BY t.label, rt.table_id) AS table_ids,
                     min(lower(rt.slot)) AS slot_start, max(upper(rt.slot)) AS slot_end,
                     coalesce(r.confirmed_at,
                              (SELECT max(o.resolved_at) FROM offers o WHERE o.reservation_id = r.id AND o.state = 'accepted'),
                              r.created_at) AS confirmed_at
                FROM reservations r
                JOIN reservation_tables rt ON rt.reservation_id = r.id AND rt.active
                JOIN venue_tables t ON t.id = rt.table_id
               WHERE r.venue_id = $1 AND r.state = 'CONFIRMED' AND r.kind = 'tables'
               GROUP BY r.id
              HAVING min(lower(rt.slot)) < $2
               ORDER BY min(lower(rt.slot)), r.name, r.id
               LIMIT ${TO_SEAT_LIMIT}) p`,
      params: [venueId, new Date(now.getTime() + BOOKED_SOON_MS)],
      parse: (value) =>
        jsonRows<ToSeatRow>(value).map((r) => ({
          reservationId: r.reservation_id,
          entryId: r.entry_id,
          name: r.name,
          partySize: Number(r.party_size),
          tableIds: r.table_ids,
          slot: { start: new Date(r.slot_start).toISOString(), end: new Date(r.slot_end).toISOString() },
          confirmedAt: new Date(r.confirmed_at).toISOString(),
        })),
    };
  }

  counts(floor: FloorTable[]): TableCounts {
    const n = (s: TableState): number => floor.filter((t) => t.state === s).length;
    return { tables: floor.length, free: n('free'), held: n('held'), booked: n('booked'), occupied: n('occupied') };
  }
}

interface ToSeatRow {
  reservation_id: string;
  entry_id: string | null;
  name: string;
  party_size: number;
  table_ids: string[];
  slot_start: string;
  slot_end: string;
  confirmed_at: string;
}

interface FloorRow {
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
}

/**
 * Each table with what is on it now or within BOOKED_SOON_MS; $1 venue, $2 now, $3 now + BOOKED_SOON_MS.
 * A seated party keeps its table past its slot, and so does a confirmed one that has not arrived yet:
 * the party is still expected (and listed to be seated) until the host seats it or cancels it as a
 * no-show, so its table must not read free.
 */
const FLOOR_SQL = `SELECT t.id, t.label, t.capacity, t.pos_x, t.pos_y, r.id AS reservation_id, r.name, r.party_size, r.state, rt.slot::text AS slot,
              r.hold_expires_at, v.opened_at, v.id AS visit_id, lower(rt.slot) AS slot_start
         FROM venue_tables t
         LEFT JOIN reservation_tables rt ON rt.table_id = t.id AND rt.active
              AND (upper(rt.slot) > $2
                   OR EXISTS (SELECT 1 FROM reservations s WHERE s.id = rt.reservation_id AND s.state IN ('SEATED', 'CONFIRMED')))
              AND lower(rt.slot) < $3
         LEFT JOIN reservations r ON r.id = rt.reservation_id
         LEFT JOIN visits v ON v.reservation_id = r.id AND v.closed_at IS NULL
        WHERE t.venue_id = $1 AND t.retired_at IS NULL
        ORDER BY t.label, t.id, lower(rt.slot)`;

/** The rows of FLOOR_SQL, one table each: where a table has several placements, the busiest state wins. */
function toFloor(rows: FloorRow[]): FloorTable[] {
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
