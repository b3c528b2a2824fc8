import { databaseUnreachable } from '@hostboard/core';
import { SAFETY_SWEEP_MS, type JobHandler, type JobName } from './job.registry.js';

/**
 * Whether the worker's database work succeeds lately, from its safety sweep (every SAFETY_SWEEP_MS,
 * on a local timer whatever Redis does): the worker's heartbeat file is touched only while it does.
 * A sweep that ended (done, nothing to do, or refused for one venue while the database answered)
 * counts as good; one that could not reach the database counts as bad until a later one is good; one
 * that never ends (a database that stopped answering) leaves the last good one to age.
 */
export class SweepHealth {
  /** The worker has just connected and migrated when this is made: that counts as a good start. */
  private lastGoodAt: number;
  private databaseLost = false;

  constructor(
    private readonly now: () => number = () => performance.now(),
    /** Two sweeps and some: one late or slow sweep is not an outage. */
    private readonly staleAfterMs = 2 * SAFETY_SWEEP_MS + 5_000,
  ) {
    this.lastGoodAt = now();
  }

  /** Whether the latest sweep reached the database, and the last good one is recent. */
  healthy(): boolean {
    return !this.databaseLost && this.now() - this.lastGoodAt <= this.staleAfterMs;
  }

  /** The handler, each run recorded. */
  watch<N extends JobName>(handler: JobHandler<N>): JobHandler<N> {
    return async (payload) => {
      try {
        const outcome = await handler(payload);
        this.good();
        return outcome;
      } catch (err) {
        if (databaseUnreachable(err)) this.databaseLost = true;
        else this.good();
        throw err;
      }
    };
  }

  private good(): void {
    this.databaseLost = false;
    this.lastGoodAt = this.now();
  }
}
