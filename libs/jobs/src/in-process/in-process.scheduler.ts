import { Injectable, Logger } from '@nestjs/common';
import { Clock, type Metrics } from '@hostboard/core';
import { counted, JobScheduler, type ScheduleOptions } from '../job-scheduler.js';
import { assertJobId, REPEATING, type JobHandler, type JobName, type JobPayloads } from '../job.registry.js';

/** Setting a Node timer beyond this overflows; longer delays are re-armed. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Jobs on timers inside this process (no Redis). Timers do not survive a restart; that is fine
 * because correctness never rests on jobs: the sweep before every decision is the guarantee, and
 * the repeating safety net catches anything a restart lost.
 */
@Injectable()
export class InProcessScheduler extends JobScheduler {
  private readonly logger = new Logger(InProcessScheduler.name);
  private readonly handlers = new Map<JobName, JobHandler<JobName>>();
  private readonly pending = new Map<string, NodeJS.Timeout>();
  private readonly repeating: NodeJS.Timeout[] = [];
  private started = false;

  constructor(
    private readonly clock: Clock,
    private readonly options: { repeating?: boolean; metrics?: Metrics } = {},
  ) {
    super();
  }

  async schedule<N extends JobName>(name: N, payload: JobPayloads[N], options: ScheduleOptions): Promise<void> {
    const id = assertJobId(options.jobId);
    if (this.pending.has(id)) return;
    this.arm(id, name, payload, options.runAt);
  }

  async cancel(jobId: string): Promise<boolean> {
    const timer = this.pending.get(jobId);
    if (!timer) return false;
    clearTimeout(timer);
    this.pending.delete(jobId);
    return true;
  }

  handle<N extends JobName>(name: N, handler: JobHandler<N>): void {
    this.handlers.set(name, counted(name, handler, this.options.metrics) as JobHandler<JobName>);
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    // The timers of the last process died with it: the domain modules re-arm their jobs (an offer's
    // expiry at its deadline, not at the next safety sweep up to 15 s later).
    // Awaited: one read of the database, done before the app answers (and before a test closes it).
    for (const rearm of this.rearms)
      await rearm('at start').catch((err: Error) => this.logger.warn(`jobs not re-armed at start: ${err.message}`));
    for (const { name, everyMs } of this.options.repeating === false ? [] : REPEATING) {
      const timer = setInterval(() => void this.run(name, {}), everyMs);
      timer.unref();
      this.repeating.push(timer);
    }
  }

  async stop(): Promise<void> {
    for (const t of this.repeating) clearInterval(t);
    for (const t of this.pending.values()) clearTimeout(t);
    this.pending.clear();
    this.repeating.length = 0;
    this.started = false;
  }

  private arm<N extends JobName>(id: string, name: N, payload: JobPayloads[N], runAt: Date): void {
    const delay = Math.max(0, runAt.getTime() - this.clock.now().getTime());
    const timer = setTimeout(
      () => {
        if (delay > MAX_TIMER_MS) return this.arm(id, name, payload, runAt);
        this.pending.delete(id);
        void this.run(name, payload);
      },
      Math.min(delay, MAX_TIMER_MS),
    );
    timer.unref();
    this.pending.set(id, timer);
  }

  private async run(name: JobName, payload: unknown): Promise<void> {
    const handler = this.handlers.get(name);
    if (!handler) return;
    try {
      await handler(payload as never);
    } catch (err) {
      this.logger.error(`job ${name} failed: ${(err as Error).message}`, (err as Error).stack);
    }
  }
}
