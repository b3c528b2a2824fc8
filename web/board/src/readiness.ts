import type { Combination, ServiceWindow, TableDef, Venue } from './api/types';

/** Venue-local ISO weekday (1 = Monday) and minute of the day at an instant. */
export function localDayMinute(at: number, timeZone: string): { day: number; minute: number } {
  const parts = new Intl.DateTimeFormat('en-GB', {
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone,
  }).formatToParts(new Date(at));
  const get = (t: string): string => parts.find((p) => p.type === t)?.value ?? '';
  const day = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(get('weekday')) + 1;
  return { day, minute: Number(get('hour')) * 60 + Number(get('minute')) };
}

const minuteOf = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** The service window running at an instant (one that runs past midnight belongs to the day it starts). */
export function runningWindow(windows: ServiceWindow[], at: number, timeZone: string): ServiceWindow | null {
  const { day, minute } = localDayMinute(at, timeZone);
  const yesterday = day === 1 ? 7 : day - 1;
  for (const w of windows) {
    const start = minuteOf(w.start);
    const end = minuteOf(w.end);
    if (end > start) {
      if (w.days.includes(day) && minute >= start && minute < end) return w;
    } else {
      if (w.days.includes(day) && minute >= start) return w;
      if (w.days.includes(yesterday) && minute < end) return w;
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
