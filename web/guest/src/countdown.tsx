import { useEffect, useRef, useState } from 'preact/hooks';
import { countdown } from '../../board/src/format';
import { readWallClock } from './wall-clock';

/**
 * Milliseconds left until `until` on the venue's clock (null without one): the answer's `now` plus
 * the wall time since the page read it. A practice venue's clock stands still until a manager moves
 * it, so there the time left stands still too (it ran on the wall clock and jumped back at every read).
 */
export function useTimeLeft(until: string | null, serverNow: string, readAt: number, stopped: boolean): number | null {
  const [wall, setWall] = useState(readWallClock());
  useEffect(() => {
    if (until === null) return;
    const timer = window.setInterval(() => setWall(readWallClock()), 250);
    return () => window.clearInterval(timer);
  }, [until]);
  if (until === null) return null;
  // The wall time last ticked may be older than the read (the page showed no hold until this one).
  return Math.max(0, Date.parse(until) - (Date.parse(serverNow) + (stopped ? 0 : Math.max(0, wall - readAt))));
}

/**
 * Minutes and seconds `left` (useTimeLeft). Calls `onZero` once when it runs out. Past an hour it
 * reads hours too ("2:03:00", as the board's row does): a workshop's hold may last up to a day, which
 * read "1440:00" in minutes alone.
 */
export function Countdown({ left, stopped, onZero }: { left: number; stopped: boolean; onZero: () => void }) {
  const fired = useRef(false);
  useEffect(() => {
    if (left === 0 && !fired.current) {
      fired.current = true;
      onZero();
    }
  }, [left, onZero]);
  return (
    <strong class="countdown" data-testid="countdown" data-left-ms={left}>
      {countdown(left)}
      {stopped && <span class="muted"> (practice clock)</span>}
    </strong>
  );
}
