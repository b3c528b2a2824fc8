import type { Metrics, ReadinessCheck } from '@hostboard/core';
import type { JobHandler, JobName, JobPayloads } from './job.registry.js';

export interface ScheduleOptions {
  /** Idempotent: scheduling an id that is already pending changes nothing. */
  jobId: string;
  /** When the job is due, by the producer's clock. */
  runAt: Date;
}

/** One job of a batch for `scheduleMany`. */
export type ScheduledJob = { [N in JobName]: { name: N; payload: JobPayloads[N]; options: ScheduleOptions } }[JobName];

/**
 * The jobs interface. BullMQ on Redis when REDIS_URL is set; an in-process runner on timers
 * otherwise. Domain modules schedule through it and register handlers with it; neither knows which.
 */
export abstract class JobScheduler {
  abstract schedule<N extends JobName>(name: N, payload: JobPayloads[N], options: ScheduleOptions): Promise<void>;

  /**
   * Schedules a batch (BullMQ: a few round trips for thousands, not one each); ids already pending are
   * left as they are. Unlike `schedule`, it waits for the store: it is for background work.
   */
  async scheduleMany(jobs: ScheduledJob[]): Promise<void> {
    for (const job of jobs) await this.schedule(job.name, job.payload, job.options);
  }

  /**
   * Registers work to run when the job store may have lost jobs: when Redis comes back after it was
   * lost (a Redis restarted here keeps nothing, so every delayed job may be gone), and when a process
   * that consumes jobs starts (Redis may have restarted while no worker ran; an in-process runner's
   * timers died with the last process). A domain module re-schedules its pending jobs from the
   * database under the same ids (idempotent where a job survived). `why` says which, for its log line.
   */
  onStoreReturned(rearm: (why: string) => Promise<void>): void {
    this.rearms.push(rearm);
  }

  protected readonly rearms: Array<(why: string) => Promise<void>> = [];

  /** Removes a pending job; true if one was pending. */
  abstract cancel(jobId: string): Promise<boolean>;

  abstract handle<N extends JobName>(name: N, handler: JobHandler<N>): void;

  /** Starts the repeating jobs and, where this process runs jobs, processing. */
  abstract start(): Promise<void>;

  abstract stop(): Promise<void>;

  /** What `/ready` checks for this runner: nothing for in-process timers. */
  readiness(): ReadinessCheck[] {
    return [];
  }
}

/** The handler as a scheduler runs it: each run counted by its outcome, when the process keeps metrics. */
export function counted<N extends JobName>(name: N, handler: JobHandler<N>, metrics: Metrics | undefined): JobHandler<N> {
  if (!metrics) return handler;
  return async (payload) => {
    try {
      const outcome = await handler(payload);
      metrics.jobs.inc({ job: name, outcome });
      return outcome;
    } catch (err) {
      metrics.jobs.inc({ job: name, outcome: 'failed' });
      throw err;
    }
  };
}
