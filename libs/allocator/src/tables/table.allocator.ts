import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  DomainException,
  ErrorCode,
  insertEntities,
  preparedQuery,
  sqlState,
  SQLSTATE,
  violatedConstraint,
} from '@hostboard/core';
import { TablesRepository, type Venue } from '@hostboard/venue';
import { Reservation } from '../reservation.entity.js';
import { ReservationRepository } from '../reservation.repository.js';
import type { Party } from '../pool.allocator.js';
import { ReservationTable } from './reservation-table.entity.js';
import { parseSlot, slotLiteral, type TablePlacement } from './table-placement.js';

export const TABLES_DO_NOT_FIT = 'Offer one table the party fits, or an approved combination that seats it.';

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

  /** VALIDATION unless `tableIds` is one table that seats the party or an approved combination that does. */
  async assertTarget(tx: EntityManager, venueId: string, tableIds: string[], partySize: number): Promise<void> {
    const unique = [...new Set(tableIds)];
    if (unique.length !== tableIds.length || unique.length < 1 || unique.length > 4)
      throw DomainException.validation(TABLES_DO_NOT_FIT, { tableIds });
    const found = await this.tables.findTables(tx, venueId, unique);
    if (found.length !== unique.length)
      throw DomainException.validation('One of the tables is not a table of this venue.', { tableIds });
    if (unique.length === 1) {
      if ((found[0]?.capacity ?? 0) < partySize) throw DomainException.validation(TABLES_DO_NOT_FIT, { tableIds, partySize });
      return;
    }
    const key = [...unique].sort().join(',');
    const combination = (await this.tables.listCombinations(tx, venueId)).find((c) => [...c.tableIds].sort().join(',') === key);
    if (!combination || combination.capacity < partySize)
      throw DomainException.validation(TABLES_DO_NOT_FIT, { tableIds, partySize });
  }

  /** OCCUPANCY_CONFLICT when a party is seated at one of the tables right now. */
  async assertNotOccupied(tx: EntityManager, venueId: string, tableIds: string[], exceptReservationId?: string): Promise<void> {
    const rows = await this.placements(tx, venueId, tableIds, "r.state = 'SEATED'", [], exceptReservationId);
    if (rows[0]) {
      throw new DomainException(ErrorCode.OCCUPANCY_CONFLICT, `Table ${rows[0].label} is occupied by ${rows[0].name}.`, {
        placement: rows[0],
      });
    }
  }

  /** CONFLICT when one of the tables is held or booked for an overlapping slot. */
  async assertFree(
    tx: EntityManager,
    venueId: string,
    tableIds: string[],
    start: Date,
    end: Date,
    exceptReservationId?: string,
  ): Promise<void> {
    const rows = await this.placements(
      tx,
      venueId,
      tableIds,
      "rt.active AND rt.slot && $3::tstzrange AND r.state IN ('HELD', 'CONFIRMED')",
      [slotLiteral(start, end)],
      exceptReservationId,
    );
    if (rows[0]) {
      throw new DomainException(
        ErrorCode.CONFLICT,
        `Table ${rows[0].label} is already planned for ${rows[0].name} (${rows[0].state}).`,
        { placement: rows[0] },
      );
    }
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
    };
    await this.reservations.insert(tx, r);
    await this.placeOn(tx, venue.id, r.id, tableIds, slot);
    return r;
  }

  /** Moves a reservation to other tables, keeping its slot (the same target rules as an offer). */
  async move(tx: EntityManager, venueId: string, reservationId: string, tableIds: string[]): Promise<void> {
    const rows = await tx.find(ReservationTable, { where: { reservationId } });
    const slot = rows[0] ? parseSlot(rows[0].slot) : null;
    if (!slot) throw DomainException.validation('This reservation has no tables to move.');
    await tx.delete(ReservationTable, { reservationId });
    await this.placeOn(tx, venueId, reservationId, tableIds, { start: new Date(slot.start), end: new Date(slot.end) });
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

  private async placeOn(
    tx: EntityManager,
    venueId: string,
    reservationId: string,
    tableIds: string[],
    slot: { start: Date; end: Date },
  ): Promise<void> {
    await insertEntities(
      tx,
      ReservationTable,
      tableIds.map((tableId) => ({ reservationId, tableId, venueId, slot: slotLiteral(slot.start, slot.end), active: true })),
    );
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

/** The exclusion constraint refused an overlapping table: a race the check above lost. */
export function tableTaken(err: unknown): DomainException | undefined {
  if (sqlState(err) === SQLSTATE.exclusionViolation && violatedConstraint(err) === 'reservation_tables_no_overlap') {
    return new DomainException(ErrorCode.CONFLICT, 'The table was just taken for that time; reload the floor.', {});
  }
  return undefined;
}
