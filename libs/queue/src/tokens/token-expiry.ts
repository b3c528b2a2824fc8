import { DateTime } from 'luxon';
import { BoundedMemo } from '@hostboard/core';
import { localDayStart } from '@hostboard/venue';

/** However late a token is issued, it is good for at least this long. */
export const MIN_TOKEN_VALIDITY_MS = 60_000;

/**
 * The first instant of the venue-local day after `businessDate`, through the IANA zone: usually
 * 00:00 the next day; where a clock change skips midnight (America/Santiago) the first wall time
 * that exists, e.g. 01:00; where it repeats midnight (America/Havana, back from 01:00 to 00:00) the
 * first 00:00, when the date has ended. Never "start of the business date + 24 hours", which is an
 * hour off on the nights a clock changes.
 */
export function midnightAfter(businessDate: string, timeZone: string): Date {
  return new Date(midnights.get(`${timeZone}|${businessDate}`, () => computeMidnightAfter(businessDate, timeZone)));
}

/**
 * Each answer computed once per zone and date (a venue asks for one date a day, so a few hundred
 * serve every venue): the Luxon arithmetic through the IANA zone was 2 % of a desk join's api CPU
 * (issue 18, a profile of sequential joins), asked for every token issued.
 */
const midnights = new BoundedMemo<number>(512);

function computeMidnightAfter(businessDate: string, timeZone: string): number {
  const date = DateTime.fromISO(businessDate, { zone: timeZone });
  if (!date.isValid) throw new Error(`cannot read business date ${businessDate} in ${timeZone}`);
  // Luxon alone reads a repeated 00:00 as either occurrence, depending on the zone (Havana: the second).
  return localDayStart(date.plus({ days: 1 }).toISODate() ?? '', timeZone).getTime();
}

/**
 * A queue token dies at the venue-local midnight after the business date, and never has less than a
 * minute of validity from its issue (a token issued at 23:59:30, or after midnight inside a service
 * window that runs past it, still gets its minute).
 */
export function queueTokenExpiry(businessDate: string, timeZone: string, issuedAt: Date): Date {
  return new Date(Math.max(midnightAfter(businessDate, timeZone).getTime(), issuedAt.getTime() + MIN_TOKEN_VALIDITY_MS));
}
