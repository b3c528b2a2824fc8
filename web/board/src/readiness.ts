import type { Combination, ServiceWindow, TableDef, Venue } from './api/types';

const minuteOf = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

const MINUTE = 60_000;
const DAY = 86_400_000;
const wallFormats = new Map<string, Intl.DateTimeFormat>();

/** The venue-local wall time of an instant, read as if it were UTC (to the minute). */
function wallMs(at: number, timeZone: string): number {
  let f = wallFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZone,
    });
    wallFormats.set(timeZone, f);
  }
  const parts = f.formatToParts(new Date(at));
  const n = (t: string): number => Number(parts.find((p) => p.type === t)?.value ?? 0);
  return Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'));
}

/**
 * The instants at which a venue-local wall time (given as if UTC) is read, as the server reads a
 * window's hours: the first and last where the clocks go back and it happens twice, the end of the
 * gap where they go forward and skip it.
 */
function wallInstants(wanted: number, timeZone: string): { first: number; last: number } {
  const offsetAt = (t: number): number => wallMs(t, timeZone) - Math.floor(t / MINUTE) * MINUTE;
  const candidates = [-DAY, 0, DAY].map((k) => wanted - offsetAt(wanted + k));
  const hits = candidates.filter((c) => wallMs(c, timeZone) === wanted);
  if (hits.length > 0) return { first: Math.min(...hits), last: Math.max(...hits) };
  // Skipped: the first minute whose wall time is past it (the clocks jump over it).
  let lo = Math.min(...candidates) - 3 * 3_600_000;
  let hi = Math.max(...candidates) + 3 * 3_600_000;
  while (hi - lo > MINUTE) {
    const mid = lo + Math.floor((hi - lo) / 2 / MINUTE) * MINUTE;
    if (wallMs(mid, timeZone) >= wanted) hi = mid;
    else lo = mid;
  }
  return { first: hi, last: hi };
}

/**
 * The service window running at an instant, by the server's rule (one that runs past midnight belongs
 * to the day it starts; on the nights the clocks change, a window opens the first time its start is
 * read and closes the last time its end is read, and a skipped start or end is the end of the gap).
 * Wall minutes alone said "no service" for the hour the clocks go back, where a window ending at 01:30
 * runs to the second 01:30.
 */
export function runningWindow(windows: ServiceWindow[], at: number, timeZone: string): ServiceWindow | null {
  const wall = wallMs(at, timeZone);
  const today = wall - (((wall % DAY) + DAY) % DAY);
  for (const back of [0, 1]) {
    const date = today - back * DAY;
    const weekday = ((new Date(date).getUTCDay() + 6) % 7) + 1;
    for (const w of windows) {
      if (!w.days.includes(weekday)) continue;
      const start = minuteOf(w.start);
      const end = minuteOf(w.end);
      const opens = wallInstants(date + start * MINUTE, timeZone).first;
      const closes = wallInstants(date + (end <= start ? DAY : 0) + end * MINUTE, timeZone).last;
      if (opens <= at && at < closes) return w;
    }
  }
  return null;
}

/**
 * Why a join would be refused right now, in the words a host reads, before anyone meets the refusal.
 * The server still decides; this only warns.
 */
export function joinWarnings(
  venue: Venue,
  tables: TableDef[],
  combinations: Combination[],
  windows: ServiceWindow[],
  now: number,
): { lines: string[]; heading: string } {
  const out: string[] = [];
  let every = false;
  const all = (line: string): void => {
    every = true;
    out.push(line);
  };
  if (!venue.queueEnabled) all('The queue is switched off: every join is refused.');
  if (!venue.published) out.push('The venue is not published: guests cannot join from their phones.');
  if (venue.policy.requireServiceWindow && !runningWindow(windows, now, venue.timeZone)) {
    all(
      windows.length === 0
        ? 'No service hours are set: joins are refused.'
        : 'No service is running now: joins are refused until the next service starts.',
    );
  }
  if (venue.policy.seating === 'tables') {
    const biggest = Math.max(0, ...tables.map((t) => t.capacity), ...combinations.map((c) => c.capacity));
    if (tables.length === 0) all('No tables are set up yet.');
    else if (biggest < venue.queuePartyCap)
      out.push(
        `The largest party allowed is ${venue.queuePartyCap}, but no table or combination seats more than ${biggest}: larger parties are refused.`,
      );
  }
  // "Joins would be refused" only when one of them refuses every join: a venue that only turns away
  // guests' phones or larger parties still takes the rest.
  return { lines: out, heading: every ? 'Joins would be refused now:' : 'Some joins would be refused now:' };
}
