import { Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import { selectEntities } from '@hostboard/core';
import { TableCombinationTable } from './table-combination-table.entity.js';
import { TableCombination } from './table-combination.entity.js';
import { VenueTable } from './venue-table.entity.js';

export interface CombinationRow extends TableCombination {
  tableIds: string[];
}

@Injectable()
export class TablesRepository {
  async insertTable(tx: EntityManager, table: VenueTable): Promise<void> {
    await tx.insert(VenueTable, table);
  }

  listTables(tx: EntityManager, venueId: string): Promise<VenueTable[]> {
    return tx.find(VenueTable, { where: { venueId }, order: { label: 'ASC', id: 'ASC' } });
  }

  /** The venue's tables among `ids` (ids of other venues are simply not found). */
  findTables(tx: EntityManager, venueId: string, ids: string[]): Promise<VenueTable[]> {
    return selectEntities(tx, VenueTable, 'venue_id = $1 AND id = ANY($2::uuid[])', [venueId, ids]);
  }

  async insertCombination(tx: EntityManager, combination: TableCombination, tableIds: string[]): Promise<void> {
    await tx.insert(TableCombination, combination);
    await tx.insert(
      TableCombinationTable,
      tableIds.map((tableId) => ({ combinationId: combination.id, tableId })),
    );
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
    const rows: Array<{ capacity: number }> = await tx.query(
      `SELECT capacity FROM venue_tables WHERE venue_id = $1
       UNION ALL SELECT capacity FROM table_combinations WHERE venue_id = $1`,
      [venueId],
    );
    return rows.map((r) => Number(r.capacity));
  }
}
