import { DomainException, ErrorCode, sqlState, SQLSTATE, violatedConstraint } from '@hostboard/core';
import type { TablePlacement } from './table-placement.js';

/**
 * The table rules as plain checks over facts already read (under the venue lock, or in a combined
 * read): which tables a party may take, who sits at them, who holds or has booked them. TableAllocator
 * reads the facts; these decide, and the exclusion constraint backs them under any race (`tableTaken`).
 */
export const TABLES_DO_NOT_FIT = 'Choose one table that seats the party, or an approved combination that does.';

/** What `checkTarget` needs: the venue's live tables among the ids, and its approved combinations. */
export interface TargetFacts {
  tables: Array<{ capacity: number }>;
  combinations: Array<{ capacity: number; tableIds: string[] }>;
}

/** VALIDATION unless `tableIds` names 1–4 distinct tables. */
export function checkTargetShape(tableIds: string[]): void {
  const unique = new Set(tableIds);
  if (unique.size !== tableIds.length || unique.size < 1 || unique.size > 4)
    throw DomainException.validation(TABLES_DO_NOT_FIT, { tableIds });
}

/** VALIDATION unless `tableIds` is one live table that seats the party or an approved combination that does. */
export function checkTarget(facts: TargetFacts, tableIds: string[], partySize: number): void {
  checkTargetShape(tableIds);
  if (facts.tables.length !== tableIds.length)
    throw DomainException.validation('One of the tables is not a table of this venue.', { tableIds });
  if (tableIds.length === 1) {
    if ((facts.tables[0]?.capacity ?? 0) < partySize)
      throw DomainException.validation(TABLES_DO_NOT_FIT, { tableIds, partySize });
    return;
  }
  const key = [...tableIds].sort().join(',');
  const combination = facts.combinations.find((c) => [...c.tableIds].sort().join(',') === key);
  if (!combination || combination.capacity < partySize)
    throw DomainException.validation(TABLES_DO_NOT_FIT, { tableIds, partySize });
}

/** OCCUPANCY_CONFLICT naming the first seated party among `placements` (ordered by table label). */
export function checkNotOccupied(placements: TablePlacement[]): void {
  const seated = placements.find((p) => p.state === 'SEATED');
  if (seated) {
    throw new DomainException(ErrorCode.OCCUPANCY_CONFLICT, `Table ${seated.label} is occupied by ${seated.name}.`, {
      placement: seated,
    });
  }
}

/**
 * CONFLICT naming the first held or confirmed placement whose slot overlaps `[start, end)`. A
 * confirmed party not seated yet is still expected after its slot has ended, so at the venue's `now`
 * its tables stay booked (docs/api-additions.md): its slot counts as running at least until then.
 * A later slot (a booking for after `now`) is judged by the slots alone.
 */
export function checkFree(placements: TablePlacement[], start: Date, end: Date, now: Date): void {
  const endOf = (p: TablePlacement): number => {
    const slotEnd = new Date(p.slot.end).getTime();
    return p.state === 'CONFIRMED' ? Math.max(slotEnd, now.getTime() + 1) : slotEnd;
  };
  const taken = placements.find(
    (p) =>
      (p.state === 'HELD' || p.state === 'CONFIRMED') &&
      // Written as "not clearly apart", so a slot that did not parse counts as overlapping.
      !(new Date(p.slot.start).getTime() >= end.getTime() || endOf(p) <= start.getTime()),
  );
  if (!taken) return;
  const kept = taken.state === 'CONFIRMED' && new Date(taken.slot.end).getTime() <= start.getTime();
  throw new DomainException(
    ErrorCode.CONFLICT,
    kept
      ? `Table ${taken.label} is kept for ${taken.name}, who confirmed and has not been seated yet. Seat them or mark a no-show first.`
      : `Table ${taken.label} is already planned for ${taken.name} (${taken.state}).`,
    { placement: taken },
  );
}

/** The exclusion constraint refused an overlapping table: a race the check above lost. */
export function tableTaken(err: unknown): DomainException | undefined {
  if (sqlState(err) === SQLSTATE.exclusionViolation && violatedConstraint(err) === 'reservation_tables_no_overlap') {
    return new DomainException(ErrorCode.CONFLICT, 'The table was just taken for that time; reload the floor.', {});
  }
  return undefined;
}
