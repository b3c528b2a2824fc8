import { Injectable, Logger } from '@nestjs/common';
import { Queue, Worker, type ConnectionOptions } from 'bullmq';
import { Clock } from '@hostboard/core';
import { JobScheduler, type ScheduleOptions } from '../job-scheduler.js';
import {
  assertJobId,
  JOB_OPTIONS,
  QUEUE_NAME,
  REPEATING,
  type JobHandler,
  type JobName,
  type JobPayloads,
} from '../job.registry.js';

export interface BullmqSchedulerOptions {
  redisUrl: string;
  /** True in the worker process: it consumes jobs. API processes only produce. */
  consume: boolean;
  /** Redis key prefix (BullMQ's default `bull`); tests use their own. */
  prefix?: string;
  /** Start the repeating jobs (default true); tests of single jobs turn them off. */
  repeating?: boolean;
}

/** Jobs on BullMQ: delayed jobs keyed by id, repeating jobs as job schedulers, a worker where consuming. */
@Injectable()
export class BullmqScheduler extends JobScheduler {
  private readonly logger = new Logger(BullmqScheduler.name);
  private readonly handlers = new Map<JobName, JobHandler<JobName>>();
  private readonly connection: ConnectionOptions;
  private readonly queue: Queue;
  private worker?: Worker;
  private readonly localTimers: NodeJS.Timeout[] = [];

  constructor(
    private readonly clock: Clock,
    private readonly options: BullmqSchedulerOptions,
  ) {
    super();
    this.connection = { url: options.redisUrl, maxRetriesPerRequest: null };
    this.queue = new Queue(QUEUE_NAME, { connection: this.connection, prefix: options.prefix, defaultJobOptions: JOB_OPTIONS });
  }

  async schedule<N extends JobName>(name: N, payload: JobPayloads[N], options: ScheduleOptions): Promise<void> {
    const delay = Math.max(0, options.runAt.getTime() - this.clock.now().getTime());
    await this.queue.add(name, payload, { jobId: assertJobId(options.jobId), delay });
  }

  async cancel(jobId: string): Promise<boolean> {
    // queue.remove answers 1 even for unknown or finished ids: check the state first.
    const job = await this.queue.getJob(jobId);
    if (!job) return false;
    const state = await job.getState();
    if (state !== 'delayed' && state !== 'waiting' && state !== 'prioritized') return false;
    await job.remove();
    return true;
  }

  handle<N extends JobName>(name: N, handler: JobHandler<N>): void {
    this.handlers.set(name, handler as JobHandler<JobName>);
  }

  async start(): Promise<void> {
    if (!this.options.consume) return;
    for (const { name, everyMs } of this.options.repeating === false ? [] : REPEATING) {
      await this.queue.upsertJobScheduler(name, { every: everyMs }, { name, data: {} });
    }
    this.worker = new Worker(
      QUEUE_NAME,
      async (job) => {
        const handler = this.handlers.get(job.name as JobName);
        if (!handler) return 'skipped';
        return handler(job.data as never);
      },
      // Jobs mostly wait: on the database, or on a venue's coalesced sweep (offer expiry). A slot
      // waiting for venue A must not hold back venue B, so the slots outnumber the database pool.
      { connection: this.connection, prefix: this.options.prefix, concurrency: 32 },
    );
    this.worker.on('failed', (job, err) => this.logger.warn(`job ${job?.name} ${job?.id} failed: ${err.message}`));
    // The job schedulers live in Redis, which here keeps nothing on disk: after a Redis restart they
    // are gone with every delayed job. So each consuming process also runs the repeating jobs on its
    // own timer; they are idempotent sweeps, and running them from several workers is harmless.
    for (const { name, everyMs } of this.options.repeating === false ? [] : REPEATING) {
      const timer = setInterval(() => {
        const handler = this.handlers.get(name);
        handler?.({}).catch((err: Error) => this.logger.warn(`local ${name} failed: ${err.message}`));
      }, everyMs);
      timer.unref();
      this.localTimers.push(timer);
    }
  }

  async stop(): Promise<void> {
    for (const t of this.localTimers.splice(0)) clearInterval(t);
    await this.worker?.close();
    await this.queue.close();
  }

  /** For readiness: a round trip to the queue's Redis. */
  async ping(): Promise<void> {
    await this.queue.getJobCounts('delayed');
  }
}
