import { DateTime } from 'luxon';
import { DomainException } from '@hostboard/core';

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
