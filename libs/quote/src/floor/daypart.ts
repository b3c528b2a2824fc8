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
  return DAYPARTS.find((d) => inDaypart(d, hour)) ?? 'late';
}

/** Venue-local hours of each daypart, [from, to): `late` wraps past midnight. */
export const DAYPART_HOURS: Record<Daypart, [number, number]> = {
  breakfast: [5, 11],
  lunch: [11, 15],
  afternoon: [15, 17],
  dinner: [17, 22],
  late: [22, 5],
};

function inDaypart(d: Daypart, hour: number): boolean {
  const [from, to] = DAYPART_HOURS[d];
  return from < to ? hour >= from && hour < to : hour >= from || hour < to;
}
