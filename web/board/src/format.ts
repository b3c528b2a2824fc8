/** "4:05" for a countdown (rounded up, so it reads 0:00 only at the deadline). */
export function countdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** Whole minutes waited, "0 min" for under one. */
export function minutes(ms: number): string {
  return `${Math.max(0, Math.floor(ms / 60_000))} min`;
}

/** A venue-local clock time, e.g. "9:35 PM". */
export function localTime(iso: string | number, timeZone: string): string {
  try {
    return new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', timeZone }).format(new Date(iso));
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

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
