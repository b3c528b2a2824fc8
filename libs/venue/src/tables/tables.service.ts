import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  CommitThenRetry,
  DomainException,
  ErrorCode,
  HistoryWriter,
  sqlState,
  SQLSTATE,
  TransactionRunner,
  violatedConstraint,
  type Tx,
} from '@hostboard/core';
import { BoardEventWriter } from '@hostboard/board';
import { LapsedHolds } from '../holds/lapsed-holds.js';
import { VenueClock } from '../venues/venue-clock.js';
import type { Venue } from '../venues/venue.entity.js';
import { VenueRepository } from '../venues/venue.repository.js';
import { TablesRepository } from './tables.repository.js';
import type { VenueTable } from './venue-table.entity.js';
import { toCombinationView, toTableView, type CombinationView, type TableView } from './tables.view.js';

export interface NewTable {
  label: string;
  capacity: number;
}

/** A manager's change to a table: any of its label, capacity and place on the plan. */
export interface TableChange {
  label?: string;
  capacity?: number;
  x?: number | null;
  y?: number | null;
}

export const TABLE_IN_USE = 'This table is held, booked or occupied; retire it once it is free.';

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
    private readonly lapsed: LapsedHolds,
  ) {}

  async createTable(venueId: string, input: NewTable): Promise<TableView> {
    return this.tx.command({ venueId, translate: alreadyThere }, async (tx) => {
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

  /**
   * Removes a combination approved by mistake (wrong tables, or a seat count mistyped): a typo is
   * fixed by removing it and approving the right one. Bookings already on those tables keep them;
   * offers from now on cannot use it.
   */
  async removeCombination(venueId: string, combinationId: string): Promise<CombinationView> {
    return this.tx.command({ venueId }, async (tx) => {
      const venue = await this.venues.lock(tx.manager, venueId);
      const removed = await this.tables.removeCombination(tx.manager, venueId, combinationId);
      if (!removed) throw DomainException.notFound('The combination was not found.');
      const now = this.clock.now(venue);
      await this.history.append(tx.manager, {
        venueId,
        subjectType: 'combination',
        subjectId: removed.id,
        from: 'created',
        to: 'removed',
        at: now,
        operationId: `combination-remove-${removed.id}`,
      });
      const view = toCombinationView(removed);
      await this.board.append(tx, venueId, 'combination.removed', { combinationId: removed.id, tableIds: view.tableIds }, now);
      return view;
    });
  }

  /** 2–4 distinct tables of this venue; the same set of tables is approved once. */
  async createCombination(venueId: string, input: NewCombination): Promise<CombinationView> {
    const tableIds = [...new Set(input.tableIds.map((id) => id.toLowerCase()))].sort();
    if (tableIds.length !== input.tableIds.length) {
      throw DomainException.validation('tableIds must name each table once.', { field: 'tableIds' });
    }
    return this.tx.command({ venueId, translate: alreadyThere }, async (tx) => {
      const venue = await this.venues.lock(tx.manager, venueId);
      assertTableVenue(venue);
      const found = await this.tables.findTables(tx.manager, venueId, tableIds);
      if (found.length !== tableIds.length) {
        throw DomainException.validation('tableIds must name tables of this venue.', {
          field: 'tableIds',
          unknown: tableIds.filter((id) => !found.some((t) => t.id === id)),
        });
      }
      assertCombinationSeats(
        input.tableIds.map((id) => found.find((t) => t.id === id.toLowerCase())).filter((t) => t !== undefined),
        input.capacity,
      );
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

  /**
   * A table resized leaves each approved combination with it seating from the largest of its tables up
   * to their seats together (as a new combination is checked). Smaller: Janela 3 + Canto 5 approved for
   * 8, Canto 5 made a 2-top, stayed offered to parties of 8. Larger: Bar 2 + Janela 3 approved for 4,
   * Janela 3 made a 6-top, was a combination seating fewer than one of its tables. Refused, naming the
   * combination, until it is removed.
   */
  private async assertCombinationsStillSeat(tx: Tx, venueId: string, table: VenueTable, capacity: number): Promise<void> {
    const combinations = (await this.tables.listCombinations(tx.manager, venueId)).filter((c) => c.tableIds.includes(table.id));
    if (combinations.length === 0) return;
    const tables = await this.tables.findTables(tx.manager, venueId, [...new Set(combinations.flatMap((c) => c.tableIds))]);
    for (const c of combinations) {
      // In label order, as Set up lists a combination's tables (its rows come back in no set order).
      const members = tables.filter((t) => c.tableIds.includes(t.id)).sort((a, b) => a.label.localeCompare(b.label));
      const together = members.reduce((sum, t) => sum + (t.id === table.id ? capacity : t.capacity), 0);
      const labels = members.map((t) => t.label).join(' + ');
      if (capacity > c.capacity) {
        throw new DomainException(
          ErrorCode.CONFLICT,
          `${labels} is approved to seat ${c.capacity}; with ${table.label} at ${capacity} they seat fewer than it alone. Remove that combination first, then approve it again for at least ${capacity}.`,
          { field: 'capacity', combinationId: c.id, largest: capacity },
        );
      }
      if (c.capacity <= together) continue;
      throw new DomainException(
        ErrorCode.CONFLICT,
        `${labels} is approved to seat ${c.capacity}; with ${table.label} at ${capacity} they seat ${together} together. Remove that combination first, then approve it again for at most ${together}.`,
        { field: 'capacity', combinationId: c.id, together },
      );
    }
  }

  /** Rename, resize or place a table; the floor hears of it at once. */
  async updateTable(venueId: string, tableId: string, change: TableChange): Promise<TableView> {
    return this.tx.command({ venueId, translate: alreadyThere }, async (tx) => {
      const { venue, now } = await this.lockedPastLapsedHolds(tx, venueId);
      assertTableVenue(venue);
      const table = await this.tables.lockTable(tx.manager, venueId, tableId);
      if (!table || table.retiredAt) throw DomainException.notFound('The table was not found.');
      const label = change.label?.trim();
      if (label === '') throw DomainException.validation('label must not be blank', { field: 'label' });
      // A table made smaller than a party offered, booked or seated at it would leave that party
      // without seats (an offer stayed live for a party of 4 at a table now of 2): refused until they are done.
      if (change.capacity !== undefined && change.capacity < table.capacity) {
        const party = await this.tables.largestPartyOn(tx.manager, tableId, now);
        if (party && party.partySize > change.capacity) {
          const how = { HELD: 'offered to', CONFIRMED: 'booked for', SEATED: 'occupied by' }[party.state];
          throw new DomainException(
            ErrorCode.CONFLICT,
            `Table ${table.label} is ${how} ${party.name}, a party of ${party.partySize}: it keeps at least ${party.partySize} seats until they are done.`,
            { field: 'capacity', partySize: party.partySize },
          );
        }
      }
      if (change.capacity !== undefined && change.capacity !== table.capacity) {
        await this.assertCombinationsStillSeat(tx, venueId, table, change.capacity);
      }
      const patch = {
        ...(label !== undefined ? { label } : {}),
        ...(change.capacity !== undefined ? { capacity: change.capacity } : {}),
        ...(change.x !== undefined ? { posX: change.x } : {}),
        ...(change.y !== undefined ? { posY: change.y } : {}),
      };
      if (Object.keys(patch).length > 0) await this.tables.updateTable(tx.manager, tableId, patch);
      const updated = { ...table, ...patch };
      await this.board.append(
        tx,
        venueId,
        'table.updated',
        { tableId, label: updated.label, capacity: updated.capacity, x: updated.posX ?? null, y: updated.posY ?? null },
        now,
      );
      return toTableView(updated);
    });
  }

  /** A retired table is no longer offered, booked or drawn; one in use now or later is refused. */
  async retireTable(venueId: string, tableId: string): Promise<TableView> {
    return this.tx.command({ venueId }, async (tx) => {
      const { venue, now } = await this.lockedPastLapsedHolds(tx, venueId);
      assertTableVenue(venue);
      const table = await this.tables.lockTable(tx.manager, venueId, tableId);
      if (!table) throw DomainException.notFound('The table was not found.');
      if (table.retiredAt) return toTableView(table);
      if (await this.tables.inUse(tx.manager, tableId, now)) throw new DomainException(ErrorCode.CONFLICT, TABLE_IN_USE);
      await this.tables.updateTable(tx.manager, tableId, { retiredAt: now });
      await this.history.append(tx.manager, {
        venueId,
        subjectType: 'table',
        subjectId: tableId,
        from: 'created',
        to: 'retired',
        at: now,
        operationId: `table-retire-${tableId}`,
      });
      await this.board.append(tx, venueId, 'table.retired', { tableId }, now);
      return toTableView({ ...table, retiredAt: now });
    });
  }

  /**
   * The venue locked, its holds past their deadline ended first. A party whose hold has lapsed holds
   * nothing, even before the expiry job or a request has swept it, so it must not keep a table from
   * being resized or retired ("Table D6 is offered to …" about an offer that ran out). The earliest
   * deadline is read in the lock's own write; when a hold has lapsed at the venue's now, the sweep
   * commits on its own and the command runs again (CommitThenRetry), as an offer's does: the sweep
   * stands even when the change is then refused for another party.
   */
  private async lockedPastLapsedHolds(tx: Tx, venueId: string): Promise<{ venue: Venue; now: Date }> {
    const { venue, found } = await this.venues.lockThenRead(tx.manager, venueId, undefined, {
      deadline: this.lapsed.deadlineRead(venueId),
    });
    const now = this.clock.now(venue);
    if (found.deadline && found.deadline.getTime() <= now.getTime()) {
      const expired = await this.lapsed.resolveLocked(tx, venue, now);
      if (expired.length > 0) throw new CommitThenRetry('the sweep of lapsed holds');
    }
    return { venue, now };
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
    return new DomainException(ErrorCode.CONFLICT, 'A table with this label already exists at this venue.', {
      field: 'label',
      reason: 'label-taken',
    });
  }
  if (constraint === 'table_combinations_tables_key') {
    return new DomainException(ErrorCode.CONFLICT, 'These tables are already an approved combination.', { field: 'tableIds' });
  }
  return undefined;
}

/**
 * Tables pushed together seat at most their seats together and at least the largest of them alone
 * (else the combination is no larger than one of its tables): tables of 3 and 5 approved as seating
 * 31 had a party of 31 offered two small tables.
 */
function assertCombinationSeats(tables: Array<{ label: string; capacity: number }>, capacity: number): void {
  const max = tables.reduce((sum, t) => sum + t.capacity, 0);
  const largest = tables.reduce((a, b) => (b.capacity > a.capacity ? b : a));
  const details = { field: 'capacity', min: largest.capacity, max };
  if (capacity > max) {
    throw DomainException.validation(
      `${tables.map((t) => t.label).join(' + ')} seat ${max} together (${tables.map((t) => t.capacity).join(' + ')}); a combination of them cannot seat ${capacity}.`,
      details,
    );
  }
  if (capacity < largest.capacity) {
    throw DomainException.validation(
      `${largest.label} alone seats ${largest.capacity}; a combination with it seats at least ${largest.capacity}, not ${capacity}.`,
      details,
    );
  }
}
