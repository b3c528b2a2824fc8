import type { TablePlacement } from './table-placement.js';

/**
 * The time conditions of TableAllocator's placement queries, applied in code to a wider set read
 * before the venue's now was known (`placementsOnTablesRead`: every seated party, and every active
 * held or confirmed placement, on the tables). Each keeps the read's label order, so the check after
 * it names the same table and party as the query's own answer would.
 */

/**
 * Whether `[start, end)` and a placement's slot overlap, as tstzrange's `&&` (half-open). Written as
 * "not clearly apart", as `checkFree` is, so a slot that did not parse counts as overlapping: the
 * query it replaces judged the real range, and dropping the row would let a move through.
 */
function overlaps(p: TablePlacement, start: Date, end: Date): boolean {
  return !(new Date(p.slot.start).getTime() >= end.getTime() || start.getTime() >= new Date(p.slot.end).getTime());
}

/** Whether a placement's slot started by `now` (a slot that did not parse counts as started). */
function startedBy(p: TablePlacement, now: Date): boolean {
  return !(new Date(p.slot.start).getTime() > now.getTime());
}

/** `checkNotOccupied`'s rows for a party at its tables now: the seated parties. */
export function seatedNow(placements: TablePlacement[]): TablePlacement[] {
  return placements.filter((p) => p.state === 'SEATED');
}

/**
 * `assertNotOccupiedDuring`'s rows: for a slot starting by `now`, every seated party; for a later
 * one, the seated parties whose turn it overlaps.
 */
export function seatedDuring(placements: TablePlacement[], start: Date, end: Date, now: Date): TablePlacement[] {
  const later = start.getTime() > now.getTime();
  return placements.filter((p) => p.state === 'SEATED' && (!later || overlaps(p, start, end)));
}

/**
 * `assertFree`'s rows: held or confirmed placements overlapping `[start, end)`, and confirmed ones
 * whose slot started by `now` (the party is still expected).
 */
export function plannedFor(placements: TablePlacement[], start: Date, end: Date, now: Date): TablePlacement[] {
  return placements.filter(
    (p) =>
      (p.state === 'HELD' || p.state === 'CONFIRMED') &&
      (overlaps(p, start, end) || (p.state === 'CONFIRMED' && startedBy(p, now))),
  );
}
