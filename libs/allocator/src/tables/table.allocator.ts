import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  insertEntities,
  jsonRows,
  preparedAtCommit,
  preparedQuery,
  type PendingInsert,
  type ScalarRead,
  type TogetherStatement,
} from '@hostboard/core';
import { TablesRepository, type Venue, type VenueTable } from '@hostboard/venue';
import { Reservation } from '../reservation.entity.js';
import { ReservationRepository } from '../reservation.repository.js';
import type { Party } from '../pool.allocator.js';
import { ReservationTable } from './reservation-table.entity.js';
import { parseSlot, slotLiteral, type TablePlacement } from './table-placement.js';
import { checkFree, checkNotOccupied, checkTarget, checkTargetShape, type TargetFacts } from './table-checks.js';

/**
 * The only code that decides tables. A reservation takes 1–4 tables for a slot: one table the party
 * fits, or exactly an approved combination. It checks first to give a good answer (naming who has
 * the table); the exclusion constraint makes a double booking impossible under any race.
 */
@Injectable()
export class TableAllocator {
  constructor(
    private readonly tables: TablesRepository,
    private readonly reservations: ReservationRepository,
  ) {}

  /**
   * VALIDATION unless `tableIds` is one table that seats the party or an approved combination that
   * does. Answers the tables' rows as read for the check (in no set order), so a caller that needs
   * their labels (a walk-in's default name) does not read them again.
   */
  async assertTarget(tx: EntityManager, venueId: string, tableIds: string[], partySize: number): Promise<VenueTable[]> {
    checkTargetShape(tableIds);
    const unique = [...new Set(tableIds)];
    const tables = await this.tables.findTables(tx, venueId, unique);
    const combinations = unique.length > 1 ? await this.tables.listCombinations(tx, venueId) : [];
    checkTarget({ tables, combinations }, tableIds, partySize);
    return tables;
  }

  /**
   * OCCUPANCY_CONFLICT when a seated party is in the way of a slot `[start, end)`: a slot starting by
   * the venue's `now` meets whoever sits at the tables now, however long past their turn; a later
   * one meets only the seated parties whose turn it overlaps (judged by the turns alone, as `checkFree`
   * judges a confirmed party for a later slot). A turn starts when the party sat down (`occupyFrom`).
   */
  async assertNotOccupiedDuring(
    tx: EntityManager,
    venueId: string,
    tableIds: string[],
    start: Date,
    end: Date,
    now: Date,
  ): Promise<void> {
    const condition = start.getTime() <= now.getTime() ? "r.state = 'SEATED'" : "r.state = 'SEATED' AND rt.slot && $3::tstzrange";
    const extra = start.getTime() <= now.getTime() ? [] : [slotLiteral(start, end)];
    checkNotOccupied(await this.placements(tx, venueId, tableIds, condition, extra));
  }

  /**
   * A party seated before its slot starts sits at its tables from `now`, not from the time it booked:
   * its turn moves to start now and keeps its length, so the exclusion constraint protects the
   * interval the party really occupies (and the later one it had booked is free for others). The
   * earlier turn is refused like any placement when another party holds, has booked or is still
   * expected at one of the tables (see `checkFree`). A party seated on time or late keeps its slot.
   * `planned` is the reservation's slot as read under the venue lock (`slotOfRead`). Answers the
   * move to travel with the seat's other rows (insertTogether), or null when the slot stays.
   */
  async occupyFromStatement(
    tx: EntityManager,
    venueId: string,
    reservationId: string,
    tableIds: string[],
    planned: { start: Date; end: Date } | null,
    now: Date,
  ): Promise<TogetherStatement | null> {
    if (!planned || planned.start.getTime() <= now.getTime()) return null;
    const end = new Date(now.getTime() + (planned.end.getTime() - planned.start.getTime()));
    await this.assertFree(tx, venueId, tableIds, now, end, now, reservationId);
    return {
      sql: 'UPDATE reservation_tables SET slot = $2::tstzrange WHERE reservation_id = $1',
      params: [reservationId, slotLiteral(now, end)],
    };
  }

  /** The slot a reservation's tables are placed for (all share one; null without tables), as a part of a combined read. */
  slotOfRead(reservationId: string): ScalarRead<{ start: Date; end: Date } | null> {
    return {
      sql: `SELECT json_build_object('lo', lower(slot), 'hi', upper(slot)) FROM reservation_tables
             WHERE reservation_id = $1 LIMIT 1`,
      params: [reservationId],
      parse: (value) => {
        if (value === null || value === undefined) return null;
        const row = (typeof value === 'string' ? JSON.parse(value) : value) as { lo: string; hi: string };
        return { start: new Date(row.lo), end: new Date(row.hi) };
      },
    };
  }

  /**
   * `checkNotOccupied`'s facts for a reservation's own tables, as a part of a combined read: the
   * other reservations seated at any of them (check them with `checkNotOccupied`).
   */
  seatedAtTablesOfRead(venueId: string, reservationId: string): ScalarRead<TablePlacement[]> {
    return {
      sql: `SELECT json_agg(json_build_object('tableId', rt.table_id, 'label', t.label, 'reservationId', r.id,
                     'name', r.name, 'state', r.state, 'slot', rt.slot::text) ORDER BY t.label)
              FROM reservation_tables rt JOIN reservations r ON r.id = rt.reservation_id JOIN venue_tables t ON t.id = rt.table_id
             WHERE rt.venue_id = $1 AND r.state = 'SEATED' AND r.id <> $2::uuid
               AND rt.table_id IN (SELECT table_id FROM reservation_tables WHERE reservation_id = $2::uuid)`,
      params: [venueId, reservationId],
      parse: (value) =>
        jsonRows<Omit<TablePlacement, 'slot'> & { slot: string }>(value).map((r) => ({ ...r, slot: parseSlot(r.slot) })),
    };
  }

  /**
   * Who is on `tableIds` at any time, as a part of a combined read sent before the venue's now is
   * known (a move's, with the lock): every seated party, and every active held or confirmed placement,
   * except `exceptReservationId`'s own, in label order. Narrow it with `seatedNow`, `seatedDuring` or
   * `plannedFor` (the time conditions of a party seated now, `assertNotOccupiedDuring` and `assertFree`).
   */
  placementsOnTablesRead(venueId: string, tableIds: string[], exceptReservationId: string): ScalarRead<TablePlacement[]> {
    return {
      sql: `SELECT json_agg(json_build_object('tableId', rt.table_id, 'label', t.label, 'reservationId', r.id,
                     'name', r.name, 'state', r.state, 'slot', rt.slot::text) ORDER BY t.label, r.id)
              FROM reservation_tables rt JOIN reservations r ON r.id = rt.reservation_id JOIN venue_tables t ON t.id = rt.table_id
             WHERE rt.venue_id = $1 AND rt.table_id = ANY($2::uuid[]) AND r.id <> $3::uuid
               AND (r.state = 'SEATED' OR (rt.active AND r.state IN ('HELD', 'CONFIRMED')))`,
      params: [venueId, tableIds, exceptReservationId],
      parse: (value) =>
        jsonRows<Omit<TablePlacement, 'slot'> & { slot: string }>(value).map((r) => ({ ...r, slot: parseSlot(r.slot) })),
    };
  }

  /**
   * CONFLICT when one of the tables is held or booked for an overlapping slot, or kept at the venue's
   * `now` for a party that confirmed and is not seated yet (see `checkFree`).
   */
  async assertFree(
    tx: EntityManager,
    venueId: string,
    tableIds: string[],
    start: Date,
    end: Date,
    now: Date,
    exceptReservationId?: string,
  ): Promise<void> {
    const rows = await this.placements(
      tx,
      venueId,
      tableIds,
      `rt.active AND r.state IN ('HELD', 'CONFIRMED')
       AND (rt.slot && $3::tstzrange OR (r.state = 'CONFIRMED' AND lower(rt.slot) <= $4))`,
      [slotLiteral(start, end), now],
      exceptReservationId,
    );
    checkFree(rows, start, end, now);
  }

  /**
   * `assertTarget`'s facts as a part of a combined read (readTogether): the venue's live tables among
   * `tableIds`, and, for more than one table, the approved combinations. Check them with `checkTarget`.
   */
  targetRead(venueId: string, tableIds: string[]): ScalarRead<TargetFacts> {
    return {
      sql: `SELECT json_build_object(
              'tables', (SELECT json_agg(json_build_object('id', id, 'capacity', capacity)) FROM venue_tables
                          WHERE venue_id = $1 AND id = ANY($2::uuid[]) AND retired_at IS NULL),
              'combinations', (SELECT json_agg(json_build_object('capacity', c.capacity, 'tableIds',
                                 (SELECT json_agg(ct.table_id) FROM table_combination_tables ct WHERE ct.combination_id = c.id)))
                                 FROM table_combinations c WHERE c.venue_id = $1 AND cardinality($2::uuid[]) > 1))`,
      params: [venueId, [...new Set(tableIds)]],
      parse: (value) => {
        const facts = (typeof value === 'string' ? JSON.parse(value) : value) as {
          tables: Array<{ capacity: number }> | null;
          combinations: Array<{ capacity: number; tableIds: string[] | null }> | null;
        };
        return {
          tables: facts.tables ?? [],
          combinations: (facts.combinations ?? []).map((c) => ({ capacity: c.capacity, tableIds: c.tableIds ?? [] })),
        };
      },
    };
  }

  /**
   * Who is on `tableIds` now or later, as a part of a combined read: seated parties, the active held
   * or confirmed placements whose slot ends after `from`, and the confirmed ones whose slot started by
   * `from` (their party is still expected, however late). Together they answer both
   * `checkNotOccupied` and `checkFree` for any slot starting at `from` (the venue's now), once the slot is known.
   */
  placementsFromRead(venueId: string, tableIds: string[], from: Date): ScalarRead<TablePlacement[]> {
    return placementsRead(venueId, tableIds, from, '$3');
  }

  /**
   * `placementsFromRead` sent before the venue is read (with its lock): from the venue's own now as the
   * statement sees it, a sandbox's simulated clock, else `wallNow` (taken before the statement was sent).
   * Its answer holds every placement `placementsFromRead` at any later instant would, and more only
   * held ones whose slot ended by then (which `checkFree` from that instant ignores). So it stands for
   * the decision's now when that is not earlier than the instant it read at (`readAt`); else read again.
   */
  placementsFromVenueNowRead(venueId: string, tableIds: string[], wallNow: Date): ScalarRead<TablePlacement[]> {
    return placementsRead(
      venueId,
      tableIds,
      wallNow,
      '(SELECT CASE WHEN v.sandbox AND v.clock_now IS NOT NULL THEN v.clock_now ELSE $3::timestamptz END FROM venues v WHERE v.id = $1)',
    );
  }

  /** A reservation on tables for `[start, end)`: HELD until `holdExpiresAt`, or CONFIRMED. */
  async reserve(
    tx: EntityManager,
    venue: Venue,
    party: Party,
    tableIds: string[],
    slot: { start: Date; end: Date },
    state: 'HELD' | 'CONFIRMED',
    now: Date,
    holdExpiresAt: Date | null,
  ): Promise<Reservation> {
    const { reservation, placements } = await this.reserveThenPlace(tx, venue, party, tableIds, slot, state, now, holdExpiresAt);
    await insertEntities(tx, ReservationTable, placements.rows);
    return reservation;
  }

  /**
   * `reserve` for a command that writes its new rows in one statement: the reservation is inserted in
   * a statement of its own (the placements' insert trigger reads it to set them active), held to go in
   * one write with the next statement or the COMMIT (`insertAtCommit`; its error is that statement's),
   * and its placements come back as rows to travel with the command's others (insertTogether).
   */
  async reserveThenPlace(
    tx: EntityManager,
    venue: Venue,
    party: Party,
    tableIds: string[],
    slot: { start: Date; end: Date },
    state: 'HELD' | 'CONFIRMED',
    now: Date,
    holdExpiresAt: Date | null,
  ): Promise<{ reservation: Reservation; placements: PendingInsert<ReservationTable> }> {
    const r: Reservation = {
      id: randomUUID(),
      venueId: venue.id,
      entryId: party.entryId,
      kind: 'tables',
      name: party.name,
      partySize: party.partySize,
      email: party.email,
      phone: party.phone,
      state,
      holdExpiresAt,
      stateReason: null,
      termsVersion: venue.termsVersion,
      bookingLinkHash: null,
      createdAt: now,
      updatedAt: now,
      confirmedAt: state === 'CONFIRMED' ? now : null,
    };
    await this.reservations.insertAtCommit(tx, r);
    return { reservation: r, placements: this.placementRows(venue.id, r.id, tableIds, slot) };
  }

  /**
   * A move to other tables, keeping the slot, for a command that decided under the venue lock (the slot read there, `slotOfRead`): the
   * delete of the reservation's placements is held to go with the COMMIT, as a statement of its own
   * ahead of the command's last one (in the same write); the new placements come back as rows to
   * travel in that last one. Not one statement: its data-modifying CTEs run in no set order, and an
   * insert ahead of the delete meets the old row of a table the move keeps (T1+T2 to T2+T3: the
   * primary key refuses it, on PostgreSQL and on the embedded database alike).
   */
  async moveAtCommit(
    tx: EntityManager,
    venueId: string,
    reservationId: string,
    tableIds: string[],
    slot: { start: Date; end: Date },
  ): Promise<PendingInsert<ReservationTable>> {
    await preparedAtCommit(tx, 'DELETE FROM reservation_tables WHERE reservation_id = $1', [reservationId]);
    return this.placementRows(venueId, reservationId, tableIds, slot);
  }

  /** The tables of one reservation, in id order, as a part of a combined read (readTogether). */
  tableIdsOfRead(reservationId: string): ScalarRead<string[]> {
    return {
      sql: 'SELECT json_agg(table_id ORDER BY table_id) FROM reservation_tables WHERE reservation_id = $1',
      params: [reservationId],
      parse: (value) => jsonRows<string>(value),
    };
  }

  async tableIdsOf(tx: EntityManager, reservationIds: string[]): Promise<Map<string, string[]>> {
    const map = new Map<string, string[]>();
    if (reservationIds.length === 0) return map;
    const rows: Array<{ reservation_id: string; table_id: string }> = await preparedQuery(
      tx,
      'SELECT reservation_id, table_id FROM reservation_tables WHERE reservation_id = ANY($1::uuid[]) ORDER BY table_id',
      [reservationIds],
    );
    for (const r of rows) map.set(r.reservation_id, [...(map.get(r.reservation_id) ?? []), r.table_id]);
    return map;
  }

  private placementRows(
    venueId: string,
    reservationId: string,
    tableIds: string[],
    slot: { start: Date; end: Date },
  ): PendingInsert<ReservationTable> {
    return {
      target: ReservationTable,
      rows: tableIds.map((tableId) => ({
        reservationId,
        tableId,
        venueId,
        slot: slotLiteral(slot.start, slot.end),
        active: true,
      })),
    };
  }

  private async placements(
    tx: EntityManager,
    venueId: string,
    tableIds: string[],
    condition: string,
    extra: unknown[],
    except?: string,
  ): Promise<TablePlacement[]> {
    const rows: Array<{ table_id: string; label: string; reservation_id: string; name: string; state: string; slot: string }> =
      await preparedQuery(
        tx,
        `SELECT rt.table_id, t.label, r.id AS reservation_id, r.name, r.state, rt.slot::text AS slot
         FROM reservation_tables rt JOIN reservations r ON r.id = rt.reservation_id JOIN venue_tables t ON t.id = rt.table_id
        WHERE rt.venue_id = $1 AND rt.table_id = ANY($2::uuid[]) AND ${condition}
          AND r.id <> $${3 + extra.length}::uuid
        ORDER BY t.label LIMIT 4`,
        [venueId, tableIds, ...extra, except ?? '00000000-0000-0000-0000-000000000000'],
      );
    return rows.map((r) => ({
      tableId: r.table_id,
      label: r.label,
      reservationId: r.reservation_id,
      name: r.name,
      state: r.state,
      slot: parseSlot(r.slot),
    }));
  }
}

/** The instant a `placementsFromVenueNowRead` read from: the venue's simulated clock, else the wall clock it was given. */
export function placementsReadAt(venue: Pick<Venue, 'sandbox' | 'clockNow'>, wallNow: Date): Date {
  return venue.sandbox && venue.clockNow ? venue.clockNow : wallNow;
}

function placementsRead(venueId: string, tableIds: string[], from: Date, fromSql: string): ScalarRead<TablePlacement[]> {
  return {
    sql: `SELECT json_agg(json_build_object('tableId', rt.table_id, 'label', t.label, 'reservationId', r.id,
                   'name', r.name, 'state', r.state, 'slot', rt.slot::text) ORDER BY t.label, r.id)
            FROM reservation_tables rt JOIN reservations r ON r.id = rt.reservation_id JOIN venue_tables t ON t.id = rt.table_id
           WHERE rt.venue_id = $1 AND rt.table_id = ANY($2::uuid[])
             AND (r.state = 'SEATED' OR (rt.active AND r.state IN ('HELD', 'CONFIRMED') AND upper(rt.slot) > ${fromSql})
                  OR (rt.active AND r.state = 'CONFIRMED' AND lower(rt.slot) <= ${fromSql}))`,
    params: [venueId, tableIds, from],
    parse: (value) =>
      jsonRows<Omit<TablePlacement, 'slot'> & { slot: string }>(value).map((r) => ({ ...r, slot: parseSlot(r.slot) })),
  };
}
