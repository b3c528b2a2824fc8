import { DateTime } from 'luxon';

/** Parts of a venue-local day: turn lengths are learned, and the report is split, per daypart. */
export type Daypart = 'breakfast' | 'lunch' | 'afternoon' | 'dinner' | 'late';

export const DAYPARTS: Daypart[] = ['breakfast', 'lunch', 'afternoon', 'dinner', 'late'];

/**
 * The daypart of an instant, venue-local: breakfast 05:00–11:00, lunch 11:00–15:00, afternoon
 * 15:00–17:00, dinner 17:00–22:00, late 22:00–05:00 (a service past midnight stays "late").
 */
export function daypartOf(at: Date, timeZone: string): Daypart {
  const hour = DateTime.fromJSDate(at, { zone: timeZone }).hour;
  if (hour >= 5 && hour < 11) return 'breakfast';
  if (hour >= 11 && hour < 15) return 'lunch';
  if (hour >= 15 && hour < 17) return 'afternoon';
  if (hour >= 17 && hour < 22) return 'dinner';
  return 'late';
}
