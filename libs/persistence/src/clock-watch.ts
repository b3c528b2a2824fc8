import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import {
  ABSURD_SKEW_MS,
  bestSample,
  Clock,
  Metrics,
  offsetToFollow,
  skewOf,
  SystemClock,
  type ClockSample,
} from '@hostboard/core';

/** Past this much between this process's clock and the database's, the watch warns. */
export const CLOCK_SKEW_WARN_MS = 2000;
/** How often the watch looks again after start-up: an NTP step on the host is followed within this. */
export const CLOCK_CHECK_INTERVAL_MS = 60_000;
/** Readings per check, the one with the shortest round trip kept (a pool connection busy elsewhere, a pause). */
const SAMPLES = 3;

/**
 * Holds expired by the clock of the process that decided (the api set a hold's deadline, the worker
 * and every command's sweep compared it with their own now): a worker whose clock ran a minute ahead
 * ended a five-minute hold after four. So every process follows PostgreSQL's clock, the one they all
 * read: at start-up, before anything is served or consumed, and every minute, it reads the database's
 * clock and moves the system clock (SystemClock.follow) by the host's skew when that is past 250 ms
 * (or the round trip), so hosts that NTP keeps in time see no change. `hostboard_clock_skew_seconds`
 * stays the host's own skew, and past 2 s one warning line says by how much and which way, and one
 * line when they agree again. The embedded database runs in this process and reads its clock: the
 * skew there is about 0, and nothing moves. A clock a test injects (not the system's) is measured
 * and reported, never moved: the test decides its time.
 */
@Injectable()
export class ClockWatch implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Clock');
  private timer: NodeJS.Timeout | undefined;
  private skewed = false;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly metrics: Metrics,
  ) {}

  /**
   * Awaited, and at module init: every other start-up step that reads the clock (the job scheduler's
   * start, the owner's bootstrap, the demo seed) runs at application bootstrap, after this, and the
   * api listens after both.
   */
  async onModuleInit(): Promise<void> {
    // The host's clock stepped while followed: read the database's again now, not at the next minute.
    if (this.clock instanceof SystemClock) this.clock.onStep(() => void this.check());
    await this.check();
    this.timer = setInterval(() => void this.check(), CLOCK_CHECK_INTERVAL_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
    if (this.clock instanceof SystemClock) this.clock.onStep(() => undefined);
  }

  /** The host's clock minus the database's, in ms; null when it cannot be read (the offset is kept). */
  async check(): Promise<number | null> {
    const sample = await this.measure();
    if (!sample) return null;
    const skew = skewOf(sample);
    this.metrics.clockSkew.set(skew / 1000);
    const system = this.clock instanceof SystemClock ? this.clock : undefined;
    system?.follow(offsetToFollow(sample));
    this.report(skew, system !== undefined);
    return skew;
  }

  private async measure(): Promise<ClockSample | undefined> {
    // The host's own reading: the system clock's before any offset, or the injected clock as it is.
    const host = (): number => (this.clock instanceof SystemClock ? this.clock.hostNow() : this.clock.now()).getTime();
    const samples: ClockSample[] = [];
    try {
      for (let i = 0; i < SAMPLES; i++) {
        const sentAt = host();
        const rows: Array<{ now: Date | string }> = await this.dataSource.query('SELECT clock_timestamp() AS now');
        const answeredAt = host();
        const theirs = new Date(rows[0]?.now ?? NaN).getTime();
        if (Number.isFinite(theirs)) samples.push({ sentAt, answeredAt, theirs });
      }
    } catch {
      // The database watch says when it is unreachable; what was read before is still good.
    }
    return bestSample(samples);
  }

  private report(skew: number, followed: boolean): void {
    const off = Math.abs(skew) > CLOCK_SKEW_WARN_MS;
    if (off && !this.skewed) {
      const gap = `this process's clock is ${(Math.abs(skew) / 1000).toFixed(1)} s ${skew > 0 ? 'ahead of' : 'behind'} the database's: `;
      if (!followed) {
        this.logger.warn(`${gap}holds expire early or late by as much on this host; set the host to synchronise its clock (NTP)`);
      } else if (Math.abs(skew) > ABSURD_SKEW_MS) {
        // Following keeps every process agreeing on each deadline; the venue's dates are as right as the database's clock.
        this.logger.error(
          `${gap}this process follows the database's clock, but one of the two is badly wrong: check the host's and the database server's clocks (NTP)`,
        );
      } else {
        this.logger.warn(
          `${gap}this process follows the database's clock for every deadline; set the host to synchronise its clock (NTP)`,
        );
      }
    } else if (!off && this.skewed) {
      this.logger.log(`this process's clock agrees with the database's again (${(skew / 1000).toFixed(1)} s apart)`);
    }
    this.skewed = off;
  }
}
