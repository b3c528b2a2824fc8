// A venue-local clock time, with its zone in the hour the clocks go back. The board and the guest
// page (which imports it from here, as it does the api client) say it the same way, and as the
// guest's messages do.

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
