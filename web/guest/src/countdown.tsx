import { useEffect, useRef, useState } from 'preact/hooks';
import { readWallClock } from './wall-clock';

/** English as written where each zone's own abbreviations are in use, as the venue's messages name a zone. */
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

/**
 * "6:05 PM" in the venue's own time zone; in the hour the clocks go back, which happens twice, with
 * its zone as the table-ready message gives it ("11:25 PM GMT-3"), so the page and the message agree.
 */
export function localTime(iso: string, timeZone: string): string {
  const at = new Date(iso);
  const time = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', timeZone }).format(at);
  const f = new Intl.DateTimeFormat('en-GB', { dateStyle: 'short', timeStyle: 'short', timeZone });
  const wall = f.format(at);
  const twice = [-60, -30, 30, 60].some((m) => f.format(new Date(at.getTime() + m * 60_000)) === wall);
  return twice ? `${time} ${zoneName(at, timeZone)}` : time;
}

/**
 * Minutes and seconds left until `until` on the venue's clock: the answer's `now` plus the wall time
 * since the page read it. A practice venue's clock stands still until a manager moves it, so there
 * the countdown stands still too (it ran on the wall clock and jumped back at every read). Calls
 * `onZero` once when it runs out.
 */
export function Countdown({
  until,
  serverNow,
  readAt,
  stopped,
  onZero,
}: {
  until: string;
  serverNow: string;
  readAt: number;
  stopped: boolean;
  onZero: () => void;
}) {
  const [wall, setWall] = useState(readWallClock());
  const fired = useRef(false);
  useEffect(() => {
    const timer = window.setInterval(() => setWall(readWallClock()), 250);
    return () => window.clearInterval(timer);
  }, []);
  const left = Math.max(0, Date.parse(until) - (Date.parse(serverNow) + (stopped ? 0 : wall - readAt)));
  useEffect(() => {
    if (left === 0 && !fired.current) {
      fired.current = true;
      onZero();
    }
  }, [left, onZero]);
  const s = Math.ceil(left / 1000);
  return (
    <strong class="countdown" data-testid="countdown" data-left-ms={left}>
      {Math.floor(s / 60)}:{String(s % 60).padStart(2, '0')}
      {stopped && <span class="muted"> (practice clock)</span>}
    </strong>
  );
}
