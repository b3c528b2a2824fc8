/**
 * The source of time. Everything asks this, never `Date.now()`: tests replace it, and venue clocks
 * (sandboxes) build on it.
 */
export abstract class Clock {
  abstract now(): Date;
}

/**
 * The host's clock, moved to agree with the database's: every process (the api that sets a hold's
 * deadline, the worker and the sweeps that end it) then decides by the one clock they all read, not
 * by its own host's. The offset is measured and set by persistence's ClockWatch; until then, and on
 * a host that agrees with the database, it is 0 and this is the host's own clock.
 *
 * While it follows, it runs from the instant it was set by the monotonic clock, not by the host's
 * wall clock: NTP stepping the host's clock between two checks (a host found 90 s ahead set right)
 * would otherwise move this clock by the whole step until the next check, a minute on, and a hold
 * made then got a deadline 45 s in the past. When the host's clock is seen to have moved against
 * the monotonic one, `onStep` asks for a new reading at once.
 */
export class SystemClock extends Clock {
  private offsetMs = 0;
  /** The followed clock's reading when it was set, and the monotonic clock's then (ms). */
  private anchor: { at: number; mono: number; host: number } | undefined;
  private stepSeen = false;
  private stepListener: (() => void) | undefined;

  now(): Date {
    const anchor = this.anchor;
    if (!anchor) return this.hostNow();
    const elapsed = performance.now() - anchor.mono;
    if (!this.stepSeen && Math.abs(this.hostNow().getTime() - anchor.host - elapsed) > STEP_SEEN_MS) {
      this.stepSeen = true;
      this.stepListener?.();
    }
    return new Date(anchor.at + elapsed);
  }

  /** The host's own reading, as it is: what the watch compares with the database's. */
  hostNow(): Date {
    return new Date();
  }

  /** How far the host's clock is ahead of the one followed (ms; negative when behind). */
  get offset(): number {
    return this.offsetMs;
  }

  /** Follows a clock `offsetMs` behind the host's from now on (0: the host's own). */
  follow(offsetMs: number): void {
    this.offsetMs = offsetMs;
    const host = this.hostNow().getTime();
    this.anchor = offsetMs === 0 ? undefined : { at: host - offsetMs, mono: performance.now(), host };
    this.stepSeen = false;
  }

  /** Called once when, while following, the host's clock moves against the monotonic one (an NTP step, a resumed VM). */
  onStep(listener: () => void): void {
    this.stepListener = listener;
  }
}

/** A host's clock moving this much against the monotonic one between two checks was stepped (or the host slept). */
const STEP_SEEN_MS = 1000;

/** A clock moved only by hand, for tests of one class. */
export class ManualClock extends Clock {
  constructor(private current: Date) {
    super();
  }

  now(): Date {
    return new Date(this.current.getTime());
  }

  set(instant: Date): void {
    this.current = new Date(instant.getTime());
  }

  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}
