import { Injectable } from '@nestjs/common';
import { In, IsNull, type EntityManager } from 'typeorm';
import { jsonRows, readTogether, selectEntities, type ScalarRead } from '@hostboard/core';
import { TableCombinationTable } from './table-combination-table.entity.js';
import { TableCombination } from './table-combination.entity.js';
import { VenueTable } from './venue-table.entity.js';

export interface CombinationRow extends TableCombination {
  tableIds: string[];
}

/** The states of a reservation that holds a table (HOLDS_TABLE). */
export type HoldingState = 'HELD' | 'CONFIRMED' | 'SEATED';

/**
 * When a placement (`rt` of reservation `r`) holds its table at `$2`, the venue's now: a party seated
 * there; a live offer's hold, now or later; a confirmed booking, later, or started and not yet seated
 * (a party running late is still expected, as the allocator's own checks have it, until it is seated,
 * cancelled, marked a no-show, or its business day ends).
 */
const HOLDS_TABLE = `(r.state IN ('SEATED', 'CONFIRMED') OR (r.state = 'HELD' AND upper(rt.slot) > $2))`;

@Injectable()
export class TablesRepository {
  async insertTable(tx: EntityManager, table: VenueTable): Promise<void> {
    await tx.insert(VenueTable, table);
  }

  listTables(tx: EntityManager, venueId: string): Promise<VenueTable[]> {
    return tx.find(VenueTable, { where: { venueId, retiredAt: IsNull() }, order: { label: 'ASC', id: 'ASC' } });
  }

  /** The venue's tables among `ids` (ids of other venues, and retired tables, are simply not found). */
  findTables(tx: EntityManager, venueId: string, ids: string[]): Promise<VenueTable[]> {
    return selectEntities(tx, VenueTable, 'venue_id = $1 AND id = ANY($2::uuid[]) AND retired_at IS NULL', [venueId, ids]);
  }

  /** One table of the venue, retired or not, locked for a change. */
  async lockTable(tx: EntityManager, venueId: string, id: string): Promise<VenueTable | null> {
    const rows = await selectEntities(tx, VenueTable, 'venue_id = $1 AND id = $2 FOR UPDATE', [venueId, id]);
    return rows[0] ?? null;
  }

  async updateTable(
    tx: EntityManager,
    id: string,
    change: Partial<Pick<VenueTable, 'label' | 'capacity' | 'posX' | 'posY' | 'retiredAt'>>,
  ): Promise<void> {
    await tx.update(VenueTable, { id }, change);
  }

  /** Whether a party holds, has booked or sits at the table now or later (a table in use is not retired). */
  async inUse(tx: EntityManager, tableId: string, now: Date): Promise<boolean> {
    const rows: unknown[] = await tx.query(
      `SELECT 1 FROM reservation_tables rt JOIN reservations r ON r.id = rt.reservation_id
        WHERE rt.table_id = $1 AND rt.active AND ${HOLDS_TABLE}
        LIMIT 1`,
      [tableId, now],
    );
    return rows.length > 0;
  }

  /**
   * The largest party placed on this table alone (a combination's parties are sized by the
   * combination) that is seated there or holds it, by an offer or a booking, now or later; null when
   * none is. What a smaller table would leave without seats.
   */
  async largestPartyOn(
    tx: EntityManager,
    tableId: string,
    now: Date,
  ): Promise<{ partySize: number; name: string; state: HoldingState } | null> {
    const rows: Array<{ party_size: number; name: string; state: HoldingState }> = await tx.query(
      `SELECT r.party_size, r.name, r.state FROM reservation_tables rt JOIN reservations r ON r.id = rt.reservation_id
        WHERE rt.table_id = $1 AND rt.active AND ${HOLDS_TABLE}
          AND NOT EXISTS (SELECT 1 FROM reservation_tables o
                           WHERE o.reservation_id = rt.reservation_id AND o.active AND o.table_id <> rt.table_id)
        ORDER BY r.party_size DESC, r.name
        LIMIT 1`,
      [tableId, now],
    );
    const row = rows[0];
    return row ? { partySize: Number(row.party_size), name: row.name, state: row.state } : null;
  }

  async insertCombination(tx: EntityManager, combination: TableCombination, tableIds: string[]): Promise<void> {
    await tx.insert(TableCombination, combination);
    await tx.insert(
      TableCombinationTable,
      tableIds.map((tableId) => ({ combinationId: combination.id, tableId, venueId: combination.venueId })),
    );
  }

  /** Removes one of the venue's combinations (its table rows go with it); null when there is none. */
  async removeCombination(tx: EntityManager, venueId: string, id: string): Promise<CombinationRow | null> {
    const found = (await this.listCombinations(tx, venueId)).find((c) => c.id === id) ?? null;
    if (found) await tx.delete(TableCombination, { id, venueId });
    return found;
  }

  async listCombinations(tx: EntityManager, venueId: string): Promise<CombinationRow[]> {
    const combinations = await tx.find(TableCombination, { where: { venueId }, order: { createdAt: 'ASC', id: 'ASC' } });
    if (combinations.length === 0) return [];
    const members = await tx.find(TableCombinationTable, { where: { combinationId: In(combinations.map((c) => c.id)) } });
    return combinations.map((c) => ({
      ...c,
      tableIds: members.filter((m) => m.combinationId === c.id).map((m) => m.tableId),
    }));
  }

  /** Every capacity a party can be seated at here: each table's and each approved combination's. */
  async seatingCapacities(tx: EntityManager, venueId: string): Promise<number[]> {
    return (await readTogether(tx, { capacities: this.seatingCapacitiesRead(venueId) })).capacities;
  }

  /** `seatingCapacities` as a part of a combined read (readTogether). */
  seatingCapacitiesRead(venueId: string): ScalarRead<number[]> {
    return {
      sql: `SELECT json_agg(capacity) FROM (
              SELECT capacity FROM venue_tables WHERE venue_id = $1 AND retired_at IS NULL
              UNION ALL SELECT c.capacity FROM table_combinations c WHERE c.venue_id = $1
                AND NOT EXISTS (SELECT 1 FROM table_combination_tables ct JOIN venue_tables t ON t.id = ct.table_id
                                 WHERE ct.combination_id = c.id AND t.retired_at IS NOT NULL)) c`,
      params: [venueId],
      parse: (value) => jsonRows<number>(value).map(Number),
    };
  }
}
