export { waitShort } from '../../../libs/outbox/src/guest/wait-words';
export { holdLengthWords } from '../../../libs/offer/src/lifecycle/table-ready.email';

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

/**
 * English as written where each zone's own abbreviations are in use (the server's messages name a
 * zone the same way): "EST" in en-US, "BST" in en-GB, "AEST" in en-AU, else an offset ("GMT-3").
 */
const ZONE_NAME_LOCALES = ['en-US', 'en-GB', 'en-AU', 'en-IN', 'en-NZ', 'en-IE'];

function zoneName(at: Date, timeZone: string): string {
  let offset = '';
  for (const locale of ZONE_NAME_LOCALES) {
    const name =
      new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: 'short' })
        .formatToParts(at)
        .find((p) => p.type === 'timeZoneName')?.value ?? '';
    if (name !== '' && !/^GMT[+-]/.test(name)) return name;
    offset ||= name;
  }
  return offset;
}

/** Whether the venue-local minute of an instant comes round twice: the clocks go back 30 or 60 minutes. */
function happensTwice(at: number, timeZone: string): boolean {
  const f = new Intl.DateTimeFormat('en-GB', { dateStyle: 'short', timeStyle: 'short', timeZone });
  const wall = f.format(new Date(at));
  return [-60, -30, 30, 60].some((m) => f.format(new Date(at + m * 60_000)) === wall);
}

/**
 * A venue-local clock time, e.g. "9:35 PM"; in the hour the clocks go back, which happens twice, with
 * its zone, as the guest's messages give it ("1:30 AM EST", not the "1:30 AM" that was an hour ago too).
 */
export function localTime(iso: string | number, timeZone: string): string {
  try {
    const at = new Date(iso);
    const time = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', timeZone }).format(at);
    return happensTwice(at.getTime(), timeZone) ? `${time} ${zoneName(at, timeZone)}` : time;
  } catch {
    return new Date(iso).toISOString().slice(11, 16);
  }
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
