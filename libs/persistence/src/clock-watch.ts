import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Clock, Metrics } from '@hostboard/core';

/** Past this much between this process's clock and the database's, the watch warns. */
export const CLOCK_SKEW_WARN_MS = 2000;
/** How often the watch looks again after start-up. */
export const CLOCK_CHECK_INTERVAL_MS = 5 * 60_000;

/**
 * Holds expire by the clock of the process that decides (the api sets a hold's deadline, the worker
 * and every command's sweep compare it with their own now): a worker whose clock runs a minute ahead
 * ends a five-minute hold after four, and an NTP step on one host moves every decision made there.
 * So each process compares its clock with PostgreSQL's (the one clock every process reads) at start
 * and every five minutes: one warning line when they are more than 2 s apart, naming by how much and
 * which way, one line when they agree again, and the gap as `hostboard_clock_skew_seconds`.
 */
@Injectable()
export class ClockWatch implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Clock');
  private timer: NodeJS.Timeout | undefined;
  private skewed = false;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly metrics: Metrics,
  ) {}

  onApplicationBootstrap(): void {
    void this.check();
    this.timer = setInterval(() => void this.check(), CLOCK_CHECK_INTERVAL_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /** This process's clock minus the database's, in ms (the database read at the request's midpoint); null when it cannot be read. */
  async check(): Promise<number | null> {
    let skew: number;
    try {
      const before = this.clock.now().getTime();
      const rows: Array<{ now: Date | string }> = await this.dataSource.query('SELECT clock_timestamp() AS now');
      const after = this.clock.now().getTime();
      const theirs = new Date(rows[0]?.now ?? NaN).getTime();
      if (!Number.isFinite(theirs)) return null;
      skew = (before + after) / 2 - theirs;
    } catch {
      return null; // the database watch says when it is unreachable
    }
    this.metrics.clockSkew.set(skew / 1000);
    const off = Math.abs(skew) > CLOCK_SKEW_WARN_MS;
    if (off && !this.skewed) {
      this.logger.warn(
        `this process's clock is ${(Math.abs(skew) / 1000).toFixed(1)} s ${skew > 0 ? 'ahead of' : 'behind'} the database's: ` +
          'holds expire early or late by as much on this host; set the host to synchronise its clock (NTP)',
      );
    } else if (!off && this.skewed) {
      this.logger.log(`this process's clock agrees with the database's again (${(skew / 1000).toFixed(1)} s apart)`);
    }
    this.skewed = off;
    return skew;
  }
}
