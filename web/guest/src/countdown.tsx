import { useEffect, useRef, useState } from 'preact/hooks';
import { readWallClock } from './wall-clock';

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
