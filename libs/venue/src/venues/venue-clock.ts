import { Injectable } from '@nestjs/common';
import { DateTime } from 'luxon';
import { BoundedMemo, Clock } from '@hostboard/core';
import type { Venue } from './venue.entity.js';

/** Stamps kept: an evening's offers fall within a few hundred minutes of a few zones. */
const STAMP_CACHE_LIMIT = 1024;

/**
 * English as written where each zone's own abbreviations are in use: Intl names a zone only in the
 * locales of its country ("CDT" in en-US, "BST" and "CET" in en-GB, "AEST" in en-AU, "IST" in en-IN
 * or en-IE, "NZST" in en-NZ), and an offset ("GMT+1") elsewhere. A guest in London read "GMT+1".
 */
const ZONE_NAME_LOCALES = ['en-US', 'en-GB', 'en-AU', 'en-IN', 'en-NZ', 'en-IE'];
const OFFSET_NAME = /^GMT[+-]/;

/** "6:05 PM BST": the first of the locales above that names the zone; its offset where none does. */
export function venueStamp(at: Date, timeZone: string): string {
  const local = DateTime.fromJSDate(at, { zone: timeZone });
  const time = local.setLocale('en-US').toFormat('h:mm a');
  let offset = '';
  for (const locale of ZONE_NAME_LOCALES) {
    const name = local.setLocale(locale).toFormat('ZZZZ');
    if (!OFFSET_NAME.test(name)) return `${time} ${name}`;
    offset ||= name;
  }
  return `${time} ${offset}`;
}

/**
 * Time as a venue sees it: a sandbox venue's simulated clock (moved only by a manager), or the
 * injected clock for live venues. Every rule of a venue reads this, never the wall clock.
 */
@Injectable()
export class VenueClock {
  /** `localStamp`'s answers by zone and minute, oldest dropped first. */
  private readonly stamps = new BoundedMemo<string>(STAMP_CACHE_LIMIT);

  constructor(private readonly clock: Clock) {}

  now(venue: Pick<Venue, 'sandbox' | 'clockNow'>): Date {
    if (venue.sandbox && venue.clockNow) return new Date(venue.clockNow.getTime());
    return this.clock.now();
  }

  /** The venue-local calendar date (YYYY-MM-DD) of an instant, through the IANA zone. */
  localDate(venue: Pick<Venue, 'timeZone'>, at: Date): string {
    return DateTime.fromJSDate(at, { zone: venue.timeZone }).toISODate() ?? '';
  }

  /**
   * A venue-local stamp with its zone, e.g. "1:35 AM CDT": on the night clocks fall back, 1:35 AM
   * happens twice, and only the zone abbreviation (CDT, then CST) tells the two apart. Where a zone
   * has no abbreviation in English, the offset is named instead ("GMT+9").
   */
  localStamp(venue: Pick<Venue, 'timeZone'>, at: Date): string {
    // The stamp names a minute: every instant of one UTC minute has the same one in a zone (no zone's
    // offset in use today has seconds), so it is formatted once per zone and minute (the zone name costs an Intl call).
    return this.stamps.get(`${venue.timeZone}|${Math.floor(at.getTime() / 60_000)}`, () => venueStamp(at, venue.timeZone));
  }
}
