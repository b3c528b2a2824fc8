import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  DomainException,
  ErrorCode,
  HistoryWriter,
  sqlState,
  SQLSTATE,
  TransactionRunner,
  violatedConstraint,
} from '@hostboard/core';
import { BoardEventWriter } from '@hostboard/board';
import { VenueClock } from '../venues/venue-clock.js';
import type { Venue } from '../venues/venue.entity.js';
import { VenueRepository } from '../venues/venue.repository.js';
import { TablesRepository } from './tables.repository.js';
import { toCombinationView, toTableView, type CombinationView, type TableView } from './tables.view.js';

export interface NewTable {
  label: string;
  capacity: number;
}

export interface NewCombination {
  tableIds: string[];
  capacity: number;
}

/** A venue's tables and approved combinations: managers change them, the floor reads them. */
@Injectable()
export class TablesService {
  constructor(
    private readonly tx: TransactionRunner,
    private readonly venues: VenueRepository,
    private readonly clock: VenueClock,
    private readonly tables: TablesRepository,
    private readonly history: HistoryWriter,
    private readonly board: BoardEventWriter,
  ) {}

  async createTable(venueId: string, input: NewTable): Promise<TableView> {
    return this.tx.command({ translate: alreadyThere }, async (tx) => {
      const venue = await this.venues.lock(tx.manager, venueId);
      assertTableVenue(venue);
      const now = this.clock.now(venue);
      const table = { id: randomUUID(), venueId, label: input.label.trim(), capacity: input.capacity, createdAt: now };
      if (table.label === '') throw DomainException.validation('label must not be blank', { field: 'label' });
      await this.tables.insertTable(tx.manager, table);
      await this.history.append(tx.manager, {
        venueId,
        subjectType: 'table',
        subjectId: table.id,
        from: null,
        to: 'created',
        at: now,
        operationId: `table-create-${table.id}`,
      });
      await this.board.append(
        tx,
        venueId,
        'table.created',
        { tableId: table.id, label: table.label, capacity: table.capacity },
        now,
      );
      return toTableView(table);
    });
  }

  /** 2–4 distinct tables of this venue; the same set of tables is approved once. */
  async createCombination(venueId: string, input: NewCombination): Promise<CombinationView> {
    const tableIds = [...new Set(input.tableIds.map((id) => id.toLowerCase()))].sort();
    if (tableIds.length !== input.tableIds.length) {
      throw DomainException.validation('tableIds must name each table once.', { field: 'tableIds' });
    }
    return this.tx.command({ translate: alreadyThere }, async (tx) => {
      const venue = await this.venues.lock(tx.manager, venueId);
      assertTableVenue(venue);
      const found = await this.tables.findTables(tx.manager, venueId, tableIds);
      if (found.length !== tableIds.length) {
        throw DomainException.validation('tableIds must name tables of this venue.', {
          field: 'tableIds',
          unknown: tableIds.filter((id) => !found.some((t) => t.id === id)),
        });
      }
      const now = this.clock.now(venue);
      const combination = { id: randomUUID(), venueId, capacity: input.capacity, tableKey: tableIds.join(','), createdAt: now };
      await this.tables.insertCombination(tx.manager, combination, tableIds);
      await this.history.append(tx.manager, {
        venueId,
        subjectType: 'combination',
        subjectId: combination.id,
        from: null,
        to: 'created',
        at: now,
        operationId: `combination-create-${combination.id}`,
      });
      await this.board.append(
        tx,
        venueId,
        'combination.created',
        { combinationId: combination.id, tableIds, capacity: combination.capacity },
        now,
      );
      return toCombinationView({ ...combination, tableIds });
    });
  }

  async listTables(venueId: string): Promise<TableView[]> {
    return this.tx.run(async ({ manager }) => (await this.tables.listTables(manager, venueId)).map(toTableView));
  }

  async listCombinations(venueId: string): Promise<CombinationView[]> {
    return this.tx.run(async ({ manager }) => (await this.tables.listCombinations(manager, venueId)).map(toCombinationView));
  }
}

function assertTableVenue(venue: Venue): void {
  if (venue.seating !== 'tables') {
    throw new DomainException(ErrorCode.RULE_VIOLATION, 'Tables belong to table venues; this venue seats one shared pool.');
  }
}

function alreadyThere(err: unknown): DomainException | undefined {
  if (sqlState(err) !== SQLSTATE.uniqueViolation) return undefined;
  const constraint = violatedConstraint(err);
  if (constraint === 'venue_tables_label_key') {
    return new DomainException(ErrorCode.CONFLICT, 'A table with this label already exists at this venue.', { field: 'label' });
  }
  if (constraint === 'table_combinations_tables_key') {
    return new DomainException(ErrorCode.CONFLICT, 'These tables are already an approved combination.', { field: 'tableIds' });
  }
  return undefined;
}
