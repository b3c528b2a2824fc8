import { DateTime } from 'luxon';
import { DomainException, ErrorCode } from '@hostboard/core';

/** The longest range one report reads, so a typo cannot ask for decades. */
export const MAX_REPORT_DAYS = 366;

/**
 * Refuses a range no report reads: a date the pattern lets through but the calendar has not
 * (2026-02-30, year 0000; the database would refuse it less clearly), `from` after `to`, or more
 * than MAX_REPORT_DAYS days.
 */
export function checkReportRange(from: string, to: string): void {
  for (const [field, value] of [
    ['from', from],
    ['to', to],
  ] as const) {
    const d = DateTime.fromISO(value);
    if (!d.isValid || d.year < 1) throw DomainException.validation(`${field} is not a calendar date: ${value}.`, { field });
  }
  const days = DateTime.fromISO(to).diff(DateTime.fromISO(from), 'days').days;
  if (days < 0) throw DomainException.validation('from must not be after to.', { field: 'from' });
  if (days >= MAX_REPORT_DAYS)
    throw DomainException.validation(`A report covers at most ${MAX_REPORT_DAYS} days.`, { field: 'to' });
}

/**
 * The reports (quotes, day by day) measure a table venue's nights: waits quoted by its turns, parties
 * seated at tables, no-shows. A seat-pool venue (a workshop) quotes no wait and seats nobody at a
 * table: its groups are held seats and confirmed, expire or cancel (the workshop guide's states). A
 * report in table categories would read its confirmed groups as "still waiting" and its seats as
 * nobody seated, so both reports refuse a pool venue in words, as the board shows it no Reports tab.
 */
export const POOL_VENUE_REPORTS =
  "Reports are for table venues: a seat-pool venue's groups are never quoted a wait nor seated at a table. Its confirmed, held and available seats are on the board.";

export function checkReportVenue(venue: { seating: string }): void {
  if (venue.seating === 'pool') throw new DomainException(ErrorCode.RULE_VIOLATION, POOL_VENUE_REPORTS, { seating: 'pool' });
}
