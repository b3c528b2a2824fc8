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
 * a host that agrees with the database, it is 0.
 */
export class SystemClock extends Clock {
  private offsetMs = 0;

  now(): Date {
    return new Date(this.hostNow().getTime() - this.offsetMs);
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
  }
}

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
