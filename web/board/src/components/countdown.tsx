import { wallNow } from '../state/clock';
import { countdown } from '../format';

interface Props {
  /** The deadline on the venue's clock. */
  until: string;
  /** The venue's clock now, given the wall clock. */
  venueNow: (wall: number) => number;
  stopped: boolean;
  label?: string;
}

/** A live countdown to a deadline on the venue's clock (a sandbox's clock stands still until moved). */
export function Countdown({ until, venueNow, stopped, label = 'left' }: Props) {
  const left = Date.parse(until) - venueNow(wallNow.value);
  const urgent = left <= 60_000;
  return (
    <span
      class={`countdown${urgent ? ' urgent' : ''}`}
      data-testid="countdown"
      title={stopped ? 'Practice clock: it moves only when a manager moves it' : undefined}
    >
      {left > 0 ? (
        <>
          {countdown(left)}
          <span class="countdown-label"> {label}</span>
        </>
      ) : (
        'time is up'
      )}
      {stopped && <span class="muted"> (practice clock)</span>}
    </span>
  );
}
