export { waitShort } from '../../../libs/outbox/src/guest/wait-words';
export { holdLengthWords } from '../../../libs/offer/src/lifecycle/table-ready.email';
export { localTime } from './local-time';

/** The API's words starting with a capital: "email must be…" reads as a sentence at a glance. */
export const sentence = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** "4:05" for a countdown (rounded up, so it reads 0:00 only at the deadline). */
export function countdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/**
 * A length of time in words a host reads at a glance: "45 min", past an hour "2 h 5 min" ("2 h" on
 * the hour). A quote of 1350 minutes (the spec's formula on a long queue) reads "22 h 30 min".
 */
export function duration(totalMinutes: number): string {
  const total = Math.max(0, Math.floor(totalMinutes));
  if (total < 60) return `${total} min`;
  const rest = total % 60;
  return rest === 0 ? `${Math.floor(total / 60)} h` : `${Math.floor(total / 60)} h ${rest} min`;
}

/** A venue-local date and time for message lists. */
export function localDateTime(iso: string, timeZone: string | undefined): string {
  try {
    return new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(new Date(iso));
  } catch {
    return iso;
  }
}

/** A venue-local day and time a few days off, read at a glance: "Fri, Nov 6, 3:00 PM". */
export function localDayTime(iso: string, timeZone: string | undefined): string {
  try {
    return new Intl.DateTimeFormat('en-US', {
      weekday: 'short',
      month: 'short',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZone,
    }).format(new Date(iso));
  } catch {
    return iso;
  }
}

/** A calendar date "2026-09-12" as a manager reads it: "Sep 12, 2026" (the date as given, no zone). */
export function calendarDate(ymd: string): string {
  const [y, m, d] = ymd.split('-').map(Number);
  if (!y || !m || !d) return ymd;
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(Date.UTC(y, m - 1, d)));
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
