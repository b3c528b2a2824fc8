import { useEffect, useRef, useState } from 'preact/hooks';
import { countdown } from '../../board/src/format';
import { readWallClock } from './wall-clock';

/**
 * Minutes and seconds left until `until` on the venue's clock: the answer's `now` plus the wall time
 * since the page read it. A practice venue's clock stands still until a manager moves it, so there
 * the countdown stands still too (it ran on the wall clock and jumped back at every read). Calls
 * `onZero` once when it runs out. Past an hour it reads hours too ("2:03:00", as the board's row
 * does): a workshop's hold may last up to a day, which read "1440:00" in minutes alone.
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
  return (
    <strong class="countdown" data-testid="countdown" data-left-ms={left}>
      {countdown(left)}
      {stopped && <span class="muted"> (practice clock)</span>}
    </strong>
  );
}
