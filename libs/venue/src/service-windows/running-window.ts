import { DateTime } from 'luxon';
import { BoundedMemo } from '@hostboard/core';

/** The fields of a service window that say when it runs. */
export interface WindowTimes {
  days: number[];
  startMinute: number;
  endMinute: number;
}

export interface RunningWindow<W extends WindowTimes = WindowTimes> {
  window: W;
  /** The venue-local date the window started on (YYYY-MM-DD): the business date of what happens in it. */
  businessDate: string;
  startsAt: Date;
  /** Exclusive: at this instant the window no longer runs. */
  endsAt: Date;
}

const MINUTES_PER_DAY = 1440;
const MINUTES_PER_WEEK = 7 * MINUTES_PER_DAY;

/** "HH:mm" → minutes after midnight. */
export function minuteOfDay(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
}

/** Minutes after midnight → "HH:mm". */
export function hhmm(minute: number): string {
  return `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
}

/** An end at or before the start runs past midnight into the next day. */
export function runsPastMidnight(w: Pick<WindowTimes, 'startMinute' | 'endMinute'>): boolean {
  return w.endMinute <= w.startMinute;
}

/** How a venue-local wall time reads on one date: once, skipped by a clock change, or twice. */
interface WallReading {
  kind: 'once' | 'skipped' | 'twice';
  /** Its first and last instants (the same but where it happens twice; a skipped one: the gap's end). */
  first: DateTime;
  last: DateTime;
}

/**
 * A venue-local wall time on a date, through the IANA zone. A wall time that a clock change skips
 * (02:30 on a spring-forward night, midnight in Santiago) resolves to the first instant after the gap.
 * Where it happens twice (01:15 on a fall-back night) both occurrences are found: which one Luxon
 * gives depends on the zone (the later in New York and London, the earlier in Sydney and Auckland).
 */
function readWall(date: DateTime, minute: number): WallReading {
  const wanted = { year: date.year, month: date.month, day: date.day, hour: Math.floor(minute / 60), minute: minute % 60 };
  const keyOf = (d: { year: number; month: number; day: number; hour: number; minute: number }): number =>
    (((d.year * 100 + d.month) * 100 + d.day) * 100 + d.hour) * 100 + d.minute;
  const key = keyOf(wanted);
  let t = DateTime.fromObject(wanted, { zone: date.zone });
  if (keyOf(t) !== key) {
    // Skipped: Luxon moves it forward by the gap (02:30 becomes 03:30); walk back to the gap's end.
    while (keyOf(t.minus({ minutes: 1 })) >= key) t = t.minus({ minutes: 1 });
    return { kind: 'skipped', first: t, last: t };
  }
  // The same wall time read at the offsets in use a day either side: where a clock change repeats it,
  // one of them is its other occurrence.
  const wallAsUtc = Date.UTC(wanted.year, wanted.month - 1, wanted.day, wanted.hour, wanted.minute);
  let first = t;
  let last = t;
  for (const offset of [t.minus({ days: 1 }).offset, t.plus({ days: 1 }).offset]) {
    const other = DateTime.fromMillis(wallAsUtc - offset * 60_000, { zone: date.zone });
    if (keyOf(other) !== key) continue;
    if (other < first) first = other;
    if (other > last) last = other;
  }
  return { kind: first < last ? 'twice' : 'once', first, last };
}

/**
 * The instant of a wall time: a window opens the first time its start is read (`first`), and closes
 * the last time its end is read.
 */
function wallTime(date: DateTime, minute: number, first = false): DateTime {
  const r = readWall(date, minute);
  return first ? r.first : r.last;
}

/**
 * The first instant of a venue-local date (YYYY-MM-DD): its midnight, or where a clock change skips
 * midnight (Santiago) the first wall time that exists, or where it repeats midnight (Havana, going back
 * from 01:00 to 00:00) the first of the two, when the date before has ended.
 */
export function localDayStart(date: string, timeZone: string): Date {
  const day = DateTime.fromISO(date, { zone: timeZone });
  if (!day.isValid) throw new Error(`cannot read the date ${date} in ${timeZone}`);
  return readWall(day, 0).first.toJSDate();
}

/**
 * What a window does on the nights of the next `days` days (from `from`, venue-local) when the clocks
 * skip or repeat its start or end, in plain words, one line per night, dated by the day the window
 * starts: "Sun, Mar 8, 2026: the clocks go forward and 02:30 does not happen; these hours start at 03:00."
 * Empty for most windows and for zones without clock changes.
 */
export function clockChangeNotes(w: WindowTimes, timeZone: string, from: Date, days = 366): string[] {
  const first = DateTime.fromJSDate(from, { zone: timeZone }).startOf('day');
  if (!first.isValid) return [];
  // Kept by zone, hours and local date: Set up's list asks for every window's on each read, and a
  // year of days through the zone is a few ms of Luxon per window.
  const key = `${timeZone}|${first.toISODate()}|${days}|${w.days.join('.')}/${w.startMinute}/${w.endMinute}`;
  return [...notesCache.get(key, () => computeClockChangeNotes(w, first, days))];
}

const notesCache = new BoundedMemo<string[]>(256);

function computeClockChangeNotes(w: WindowTimes, first: DateTime, days: number): string[] {
  const notes: string[] = [];
  for (let d = 0; d < days; d++) {
    const day = first.plus({ days: d });
    if (!w.days.includes(day.weekday)) continue;
    // Only a date whose offset changes between the day before and the day after next can hold a clock
    // change for this window (its start that day, its end that day or the next).
    if (day.minus({ days: 1 }).offset === day.plus({ days: 2 }).offset) continue;
    const start = readWall(day, w.startMinute);
    const end = readWall(runsPastMidnight(w) ? day.plus({ days: 1 }) : day, w.endMinute);
    if (start.kind === 'once' && end.kind === 'once') continue;
    const forward = start.kind === 'skipped' || end.kind === 'skipped';
    let said: string;
    if (start.first >= end.last) {
      said = `${hhmm(w.startMinute)}–${hhmm(w.endMinute)} does not happen; these hours do not run that night`;
    } else {
      const times = [start.kind !== 'once' && hhmm(w.startMinute), end.kind !== 'once' && hhmm(w.endMinute)].filter(
        (x): x is string => typeof x === 'string',
      );
      const verb = forward
        ? times.length > 1
          ? 'do not happen'
          : 'does not happen'
        : times.length > 1
          ? 'happen twice'
          : 'happens twice';
      const acts = [
        start.kind === 'skipped' && `start at ${start.first.toFormat('HH:mm')}`,
        start.kind === 'twice' && 'start the first time',
        end.kind === 'skipped' && `end at ${end.last.toFormat('HH:mm')}`,
        end.kind === 'twice' && 'end the second time',
      ].filter((x): x is string => typeof x === 'string');
      said = `${times.join(' and ')} ${verb}; these hours ${acts.join(' and ')}`;
    }
    const date = day.setLocale('en-US').toLocaleString({ weekday: 'short', month: 'short', day: 'numeric', year: 'numeric' });
    notes.push(`${date}: the clocks go ${forward ? 'forward' : 'back'} and ${said}.`);
  }
  return notes;
}

/**
 * The window running at `now` in `timeZone`, if any: a window that started today (venue-local), or
 * one that started yesterday and runs past midnight. Its business date is the day it started. Should
 * two run at once (creation refuses overlaps, but a clock change can squeeze two together), the one
 * that started first wins, so the answer never depends on list order.
 */
export function runningWindowAt<W extends WindowTimes>(windows: W[], timeZone: string, now: Date): RunningWindow<W> | null {
  const t = now.getTime();
  let best: Run | null = null;
  // Runs in start order, then list order: the first that holds `now` started first (ties: list order).
  for (const run of runsAround(windows, timeZone, t)) {
    if (run.startMs <= t && t < run.endMs && (!best || run.startMs < best.startMs)) best = run;
  }
  const window = best ? windows[best.index] : undefined;
  if (!best || !window) return null;
  return { window, businessDate: best.businessDate, startsAt: new Date(best.startMs), endsAt: new Date(best.endMs) };
}

/**
 * When the service that `running` belongs to stops: its end, or, where another window of the same
 * business date starts right then (lunch to 15:00, afternoon from 15:00), that one's end, and so on.
 * No offer can be made after it (offers need a running window), and the day's waiting parties leave
 * the queue once its business date has passed, so a wait running past it is no promise of a table.
 */
export function serviceEndAt<W extends WindowTimes>(windows: W[], timeZone: string, running: RunningWindow<W>): Date {
  let end = running.endsAt.getTime();
  for (let extended = true; extended;) {
    extended = false;
    for (const run of runsAround(windows, timeZone, end)) {
      if (run.businessDate === running.businessDate && run.startMs <= end && end < run.endMs) {
        end = run.endMs;
        extended = true;
      }
    }
  }
  return new Date(end);
}

/**
 * The next instant after `now` at which whether a window runs changes, by the rule above: while one
 * runs, the first instant from which none does (a window taking over right as another ends carries the
 * service on); else the next start of a window. Null when nothing changes within `days` days (no
 * windows, hours around the clock, windows whose hours a clock change skips whole).
 */
export function nextServiceChangeAt<W extends WindowTimes>(windows: W[], timeZone: string, now: Date, days = 8): Date | null {
  const t0 = now.getTime();
  const limit = t0 + days * MS_PER_DAY;
  if (runningWindowAt(windows, timeZone, now)) {
    for (let t = t0; t < limit;) {
      const run = runningWindowAt(windows, timeZone, new Date(t));
      if (!run) return new Date(t);
      t = run.endsAt.getTime();
    }
    return null;
  }
  for (let t = t0; t < limit; t += MS_PER_DAY) {
    // Each day's runs take in local dates two days either side: the first batch that holds a start
    // after now holds the earliest.
    let next = Infinity;
    for (const run of runsAround(windows, timeZone, t)) {
      if (run.startMs > t0 && run.startMs < run.endMs && run.startMs < next) next = run.startMs;
    }
    if (next < limit) return new Date(next);
  }
  return null;
}

/**
 * The business date of an instant: the date the window running then started on (a window past
 * midnight still belongs to the day it started), or, with no window running, the venue-local date.
 * The same rule as a join's business date, for any instant (a party's turn, when it was seated).
 */
export function businessDateAt<W extends WindowTimes>(windows: W[], timeZone: string, at: Date): string {
  return runningWindowAt(windows, timeZone, at)?.businessDate ?? DateTime.fromJSDate(at, { zone: timeZone }).toISODate() ?? '';
}

/** One window's run from one venue-local date: the window by its index in the list. */
interface Run {
  index: number;
  businessDate: string;
  startMs: number;
  endMs: number;
}

const MS_PER_DAY = 86_400_000;
/** Venues × window lists × days kept; a venue's list and day change rarely, so a few hundred serve every request. */
const runsCache = new BoundedMemo<Run[]>(512);

/**
 * Every run of the windows that may hold an instant of the UTC day of `t`, computed once per zone,
 * window list and UTC day: the wall-time arithmetic through the IANA zone (several Luxon DateTimes per
 * window and day) was a few per cent of an offer's CPU when done on every request. Local dates within
 * two days either side of that UTC day cover every zone (all within ±14 h) and a window running past
 * midnight from the day before.
 */
function runsAround(windows: WindowTimes[], timeZone: string, t: number): Run[] {
  const utcDay = Math.floor(t / MS_PER_DAY);
  const key = `${timeZone}|${utcDay}|${windows.map((w) => `${w.days.join('.')}/${w.startMinute}/${w.endMinute}`).join(',')}`;
  return runsCache.get(key, () => computeRuns(windows, timeZone, utcDay));
}

function computeRuns(windows: WindowTimes[], timeZone: string, utcDay: number): Run[] {
  const middle = DateTime.fromMillis(utcDay * MS_PER_DAY, { zone: timeZone });
  if (!middle.isValid) throw new Error(`not a time zone: ${timeZone}`);
  const runs: Run[] = [];
  for (let d = -2; d <= 2; d++) {
    const day = middle.startOf('day').plus({ days: d });
    windows.forEach((window, index) => {
      if (!window.days.includes(day.weekday)) return;
      const start = wallTime(day, window.startMinute, true);
      const end = wallTime(runsPastMidnight(window) ? day.plus({ days: 1 }) : day, window.endMinute);
      runs.push({ index, businessDate: day.toISODate() ?? '', startMs: start.toMillis(), endMs: end.toMillis() });
    });
  }
  runs.sort((x, y) => x.startMs - y.startMs || x.index - y.index);
  return runs;
}

/** The window's spans in minutes of a venue-local week (Monday 00:00 = 0), split where they wrap past Sunday. */
function weekSpans(w: WindowTimes): Array<[number, number]> {
  const length = runsPastMidnight(w) ? w.endMinute + MINUTES_PER_DAY - w.startMinute : w.endMinute - w.startMinute;
  return w.days.flatMap((d): Array<[number, number]> => {
    const start = (d - 1) * MINUTES_PER_DAY + w.startMinute;
    const end = start + length;
    return end <= MINUTES_PER_WEEK
      ? [[start, end]]
      : [
          [start, MINUTES_PER_WEEK],
          [0, end - MINUTES_PER_WEEK],
        ];
  });
}

/** Whether two windows share any venue-local minute of the week (a past-midnight window included). */
export function windowsOverlap(a: WindowTimes, b: WindowTimes): boolean {
  const bs = weekSpans(b);
  return weekSpans(a).some(([s1, e1]) => bs.some(([s2, e2]) => s1 < e2 && s2 < e1));
}
