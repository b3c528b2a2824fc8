import { DateTime } from 'luxon';

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

/**
 * A venue-local wall time on a date, through the IANA zone. A wall time that a clock change skips
 * (02:30 on a spring-forward night, midnight in Santiago) resolves to the first instant after the gap.
 */
function wallTime(date: DateTime, minute: number): DateTime {
  return DateTime.fromObject(
    { year: date.year, month: date.month, day: date.day, hour: Math.floor(minute / 60), minute: minute % 60 },
    { zone: date.zone },
  );
}

/**
 * The window running at `now` in `timeZone`, if any: a window that started today (venue-local), or
 * one that started yesterday and runs past midnight. Its business date is the day it started. Should
 * two run at once (creation refuses overlaps, but a clock change can squeeze two together), the one
 * that started first wins, so the answer never depends on list order.
 */
export function runningWindowAt<W extends WindowTimes>(windows: W[], timeZone: string, now: Date): RunningWindow<W> | null {
  const local = DateTime.fromJSDate(now, { zone: timeZone });
  if (!local.isValid) throw new Error(`not a time zone: ${timeZone}`);
  const today = local.startOf('day');
  let best: RunningWindow<W> | null = null;
  for (const day of [today.minus({ days: 1 }), today]) {
    for (const window of windows) {
      if (!window.days.includes(day.weekday)) continue;
      const start = wallTime(day, window.startMinute);
      const end = wallTime(runsPastMidnight(window) ? day.plus({ days: 1 }) : day, window.endMinute);
      if (!(start.toMillis() <= now.getTime() && now.getTime() < end.toMillis())) continue;
      if (best && best.startsAt.getTime() <= start.toMillis()) continue;
      best = { window, businessDate: day.toISODate() ?? '', startsAt: start.toJSDate(), endsAt: end.toJSDate() };
    }
  }
  return best;
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
