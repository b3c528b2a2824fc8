import { Injectable, Logger } from '@nestjs/common';
import { Queue, Worker, type ConnectionOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import {
  Clock,
  databaseUnreachable,
  type ReadinessCheck,
  disconnectRedis,
  failFastRedis,
  redisRetry,
  reported,
  withTimeout,
  type Metrics,
} from '@hostboard/core';
import { counted, JobScheduler, type ScheduledJob, type ScheduleOptions } from '../job-scheduler.js';
import { FailureLog } from '../failure-log.js';
import { RefusedJobsLog } from '../refused-jobs-log.js';
import type { SweepHealth } from '../sweep-health.js';
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
  /** Where each run's outcome is counted. */
  metrics?: Metrics;
  /** Where each safety sweep's outcome is recorded (the worker's heartbeat reads it). */
  health?: SweepHealth;
}

/** How long scheduling or cancelling a job may hold up the answer to a committed command. */
export const SCHEDULE_TIMEOUT_MS = 750;
/**
 * Job slots of one worker. Jobs mostly wait: on the database, or on a venue's coalesced sweep (offer
 * expiry), where a whole burst of one venue's jobs shares one sweep. A slot costs a promise, not a
 * connection (the sweeps per venue are capped at one running and one waiting, so the database pool
 * bounds the work). With 32 slots, a burst of 500 expiries over 20 venues filled every slot with jobs
 * waiting for their venue's next sweep once the sweeps slowed down (after a join load, on a busy
 * machine), and the due jobs behind them were taken up seconds late (BullMQ's processedOn − due: p50
 * 4.0 s, against 85 ms with 256 slots in the same run): a venue with no job in a slot got no sweep.
 */
export const WORKER_CONCURRENCY = 256;
/** How often Redis is probed while it refuses jobs, to report when it takes them again. */
const REFUSAL_PROBE_MS = 5000;
/** Jobs per round trip of scheduleMany, and how long each may take. */
const BULK_ADD = 500;
const BULK_ADD_TIMEOUT_MS = 5000;
/** How long a shutdown waits for BullMQ to close gracefully before forcing it (Redis may be away). */
const STOP_TIMEOUT_MS = 3000;

/**
 * Jobs on BullMQ: delayed jobs keyed by id, repeating jobs as job schedulers, a worker where consuming.
 * Redis may be away at any moment: producing fails within SCHEDULE_TIMEOUT_MS (the safety-net sweep
 * expires what a lost job would have), the worker waits and reconnects by itself, and the job
 * schedulers, which a restarted Redis has forgotten, are upserted again at every reconnect; when Redis
 * returns after a loss, the domain modules' re-arms (onStoreReturned) re-queue their delayed jobs.
 */
@Injectable()
export class BullmqScheduler extends JobScheduler {
  private readonly logger = new Logger(BullmqScheduler.name);
  private readonly handlers = new Map<JobName, JobHandler<JobName>>();
  private readonly connection: ConnectionOptions;
  /** The producer's own client: fail-fast, so an add never waits for Redis; ours to watch and close. */
  private readonly queueRedis: Redis;
  /** Opened again when its start fails (openQueue): every use reads this field. */
  private queue: Queue;
  private redisLost = false;
  /** Set by start() in a consuming process: what to do again once a reopened queue works. */
  private queueReopened?: () => void;
  /** Failed queue starts in a row (openQueue), for one log line per run of them. */
  private queueReopens = 0;
  private worker?: Worker;
  private readonly localTimers: NodeJS.Timeout[] = [];
  private stopped = false;
  /** Jobs Redis refused: one line when an outage starts, one with the count when it ends. */
  private readonly refusals = new RefusedJobsLog(this.logger);
  private roomProbe?: NodeJS.Timeout;
  /** Counts resume() calls: a newer one takes over the retries of the one before. */
  private resumes = 0;

  constructor(
    private readonly clock: Clock,
    private readonly options: BullmqSchedulerOptions,
  ) {
    super();
    // The worker's blocking connection must wait for Redis (BullMQ requires no retry limit there).
    this.connection = { url: options.redisUrl, maxRetriesPerRequest: null, retryStrategy: redisRetry };
    this.queueRedis = failFastRedis(options.redisUrl, 'job queue');
    this.queue = this.openQueue();
    // Lost after an error or a close, found again at 'ready'; a first connection still in progress is not "lost".
    this.queueRedis.on('error', () => (this.redisLost = true));
    this.queueRedis.on('close', () => (this.redisLost = true));
    this.queueRedis.on('ready', () => (this.redisLost = false));
  }

  /**
   * BullMQ starts a queue by asking Redis its version, once, and keeps the answer for good. On our
   * fail-fast client that question times out after REDIS_COMMAND_TIMEOUT_MS like any command, and a
   * process whose event loop was held up that long just then (its boot on a loaded machine) got a
   * queue that refused every later command with "Command timed out", for as long as it ran: no job
   * scheduled, no job scheduler created, not even after Redis restarted (CI saw both Redis drills
   * fail so: "schedulers missing"). So a queue whose start failed is opened again a second later.
   */
  private openQueue(): Queue {
    const queue = new Queue(QUEUE_NAME, {
      connection: this.queueRedis,
      prefix: this.options.prefix,
      defaultJobOptions: JOB_OPTIONS,
    });
    // Without a listener an 'error' event would be thrown; the client's watcher already logs it.
    queue.on('error', () => undefined);
    queue.waitUntilReady().then(
      () => {
        if (this.queueReopens === 0 || this.queue !== queue) return;
        this.logger.log(`job queue started (opened ${this.queueReopens + 1} times)`);
        this.queueReopens = 0;
        // What the start or a return could not do on the failed queue is done on this one, now that it works.
        this.queueReopened?.();
      },
      (err: Error) => {
        if (this.stopped || this.queue !== queue) return;
        // One line for a run of failed starts (a Redis frozen while this process starts fails each one).
        if (this.queueReopens++ === 0) this.logger.warn(`job queue did not start (${err.message}); opening it again each second`);
        setTimeout(() => {
          if (this.stopped || this.queue !== queue) return;
          this.queue = this.openQueue();
          // Shares our client: closing it only detaches its listeners.
          queue.close().catch(() => undefined);
        }, 1000).unref();
      },
    );
    return queue;
  }

  async schedule<N extends JobName>(name: N, payload: JobPayloads[N], options: ScheduleOptions): Promise<void> {
    const now = this.clock.now().getTime();
    const delay = Math.max(0, options.runAt.getTime() - now);
    const jobId = assertJobId(options.jobId);
    await this.counted('schedule', () =>
      withTimeout(this.queue.add(name, payload, { jobId, delay, ...this.stamp(now) }), SCHEDULE_TIMEOUT_MS, 'scheduling a job'),
    );
  }

  /** In batches of BULK_ADD, each one round trip (ids already there are left as they are). */
  override async scheduleMany(jobs: ScheduledJob[]): Promise<void> {
    for (let i = 0; i < jobs.length; i += BULK_ADD) {
      const now = this.clock.now().getTime();
      const batch = jobs.slice(i, i + BULK_ADD).map(({ name, payload, options }) => ({
        name,
        data: payload,
        opts: { jobId: assertJobId(options.jobId), delay: Math.max(0, options.runAt.getTime() - now), ...this.stamp(now) },
      }));
      await withTimeout(this.queue.addBulk(batch), BULK_ADD_TIMEOUT_MS, `adding ${batch.length} jobs`);
    }
  }

  /**
   * BullMQ makes a job due at its `timestamp` (the adding host's own Date.now() by default) plus its
   * delay, and a worker fires it once its own host's clock passes that. A worker's own jobs (a recheck,
   * a re-queue) keep its host's stamp: fired by that worker, one clock times both ends. An api
   * adds them for a worker it cannot read: stamped with `now`, the database's time (the clock follows
   * it), which workers follow and NTP-synced hosts agree with. Stamped by the api's host instead, a
   * host 30 s ahead made every expiry job fire 30 s late: the safety sweep ended those holds, up to
   * 15 s after their deadlines.
   */
  private stamp(now: number): { timestamp?: number } {
    return this.options.consume ? {} : { timestamp: now };
  }

  async cancel(jobId: string): Promise<boolean> {
    return this.counted('cancel', () => withTimeout(this.cancelPending(jobId), SCHEDULE_TIMEOUT_MS, 'cancelling a job'));
  }

  /**
   * A write to the queue, its refusal counted in the outage's one line (RefusedJobsLog) and the
   * error marked as logged, so the after-commit step that awaited it adds no line per offer.
   */
  private async counted<T>(what: 'schedule' | 'cancel', write: () => Promise<T>): Promise<T> {
    try {
      this.assertConnected();
      const result = await write();
      this.refusals.accepted();
      return result;
    } catch (err) {
      this.refusals.refused(what, err);
      this.watchForRoom();
      throw reported(err);
    }
  }

  /**
   * While Redis refuses jobs, probes it every few seconds with the readiness write, so the count is
   * reported when it takes writes again even if no offer is made then.
   */
  private watchForRoom(): void {
    if (this.roomProbe || this.stopped) return;
    this.roomProbe = setInterval(() => {
      if (!this.refusals.refusing) return this.stopRoomProbe();
      this.redisState().catch(() => undefined);
    }, REFUSAL_PROBE_MS);
    this.roomProbe.unref();
  }

  private stopRoomProbe(): void {
    clearInterval(this.roomProbe);
    this.roomProbe = undefined;
  }

  /**
   * BullMQ waits for a connection before any command: once Redis is lost, refuse at once instead of
   * spending the after-commit budget on a wait that cannot succeed.
   */
  private assertConnected(): void {
    if (this.redisLost) throw new Error(`Redis is not connected (${this.queueRedis.status})`);
  }

  private async cancelPending(jobId: string): Promise<boolean> {
    // queue.remove answers 1 even for unknown or finished ids: check the state first (one round
    // trip, without reading the job's hash as getJob would: every accept and withdrawal cancels).
    const state = await this.queue.getJobState(jobId);
    if (state !== 'delayed' && state !== 'waiting' && state !== 'prioritized') return false;
    return (await this.queue.remove(jobId)) === 1;
  }

  handle<N extends JobName>(name: N, handler: JobHandler<N>): void {
    const run = counted(name, handler, this.options.metrics);
    const health = this.options.health;
    this.handlers.set(name, (name === 'safety-sweep' && health ? health.watch(run) : run) as JobHandler<JobName>);
  }

  async start(): Promise<void> {
    if (!this.options.consume) return;
    // Created now if Redis is there (so they exist once start-up ends); if not, at the first 'ready' below, so a
    // worker started during an outage starts at once and serves the database sweeps meanwhile.
    if (this.queueRedis.status === 'ready') {
      await this.upsertSchedulers().catch(() => undefined);
      // Redis may have restarted while no worker ran (a machine's reboot): this worker cannot tell, so
      // the domain modules re-arm their jobs as after a return (a job that survived is left as it is);
      // the schedulers are upserted again there, and both are retried each second while they fail.
      this.resume('at the worker’s start', false);
    }
    // A Redis that restarted has forgotten the schedulers and every delayed job: at each return (a
    // 'ready' after an error or a close; a worker started during an outage counts too), create the
    // schedulers again and run the domain modules' re-arms (onStoreReturned), each tried again each
    // second while it fails (a Redis just back may refuse or time out the first writes; CI once saw
    // the schedulers missing after a restart, with no later reconnect to retry).
    let lost = this.redisLost;
    // Not connected yet at start: the first 'ready' re-arms as the start would have (below).
    let atStart = this.queueRedis.status !== 'ready';
    this.queueRedis.on('error', () => (lost = true));
    this.queueRedis.on('close', () => (lost = true));
    this.queueRedis.on('ready', () => {
      const returned = lost;
      const why = returned ? 'after Redis returned' : atStart ? 'at the worker’s start' : null;
      lost = false;
      atStart = false;
      this.resume(why, returned);
    });
    // A queue reopened after a failed start (openQueue), once it works: what the start or a return
    // could not do on the failed one (create the schedulers, re-queue the jobs) is done on it.
    this.queueReopened = () => this.resume('after the job queue reopened', false);
    this.worker = new Worker(
      QUEUE_NAME,
      async (job) => {
        const handler = this.handlers.get(job.name as JobName);
        if (!handler) return 'skipped';
        return handler(job.data as never);
      },
      { connection: this.connection, prefix: this.options.prefix, concurrency: WORKER_CONCURRENCY },
    );
    const failures = new FailureLog((line) => this.logger.warn(line));
    this.worker.on('failed', (job, err) => {
      // A database outage is logged once by the database watch ("database unreachable", then
      // "reachable again"), not by each job it fails: every due job and each retry (five attempts)
      // would add its own, and the 10 s summaries of FailureLog still wrote a line every 10 s for as
      // long as it lasted. The failures are counted in hostboard_jobs_total{outcome="failed"}.
      if (databaseUnreachable(err)) return;
      failures.failed(`job ${job?.name} ${job?.id} failed: ${err.message}`, err.message);
    });
    // Connection errors while Redis is away: the worker retries by itself; the watcher logs the outage once.
    this.worker.on('error', () => undefined);
    // The job schedulers live in Redis, which here keeps nothing on disk: after a Redis restart they
    // are gone with every delayed job. So each consuming process also runs the repeating jobs on its
    // own timer; they are idempotent sweeps, and running them from several workers is harmless.
    for (const { name, everyMs } of this.options.repeating === false ? [] : REPEATING) {
      const timer = setInterval(() => {
        const handler = this.handlers.get(name);
        handler?.({}).catch((err: Error) => {
          // A database outage is logged once by the database watch, not by each sweep it fails.
          if (!databaseUnreachable(err)) this.logger.warn(`local ${name} failed: ${err.message}`);
        });
      }, everyMs);
      timer.unref();
      this.localTimers.push(timer);
    }
  }

  /**
   * Creates the job schedulers again and, when `why` is given, runs the domain modules' re-arms; each
   * tried again each second while it fails (a Redis just back may refuse or time out the first
   * writes), until a later resume takes over.
   */
  private resume(why: string | null, returned: boolean): void {
    const turn = ++this.resumes;
    const retried = (what: string, work: () => Promise<void>, tries = 1): void => {
      if (turn !== this.resumes || this.stopped || this.queueRedis.status !== 'ready') return;
      work().catch((err: Error) => {
        // A database outage meanwhile is logged once by the database watch, not at each try.
        if (!databaseUnreachable(err)) this.logger.warn(`${what} (${tries} tries): ${err.message}`);
        if (tries < 30) setTimeout(() => retried(what, work, tries + 1), 1000).unref();
      });
    };
    retried('job schedulers not re-created', async () => {
      await this.upsertSchedulers();
      if (returned) this.logger.log('job schedulers re-created after Redis returned');
    });
    if (why !== null) for (const rearm of this.rearms) retried(`jobs not re-queued ${why}`, () => rearm(why));
  }

  private async upsertSchedulers(): Promise<void> {
    for (const { name, everyMs } of this.options.repeating === false ? [] : REPEATING) {
      await withTimeout(this.queue.upsertJobScheduler(name, { every: everyMs }, { name, data: {} }), 5000, `upserting ${name}`);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopRoomProbe();
    for (const t of this.localTimers.splice(0)) clearInterval(t);
    try {
      // A graceful close waits for Redis; while it is away, give up after a few seconds and force it.
      if (this.worker) {
        const worker = this.worker;
        await withTimeout(worker.close(), STOP_TIMEOUT_MS, 'closing the worker').catch(() =>
          withTimeout(worker.close(true), STOP_TIMEOUT_MS, 'forcing the worker closed').catch(() => undefined),
        );
      }
      await withTimeout(this.queue.close(), STOP_TIMEOUT_MS, 'closing the queue').catch(() => undefined);
    } finally {
      // Ours (the queue only borrows it); without this a process waiting on a dead Redis never exits.
      disconnectRedis(this.queueRedis);
    }
  }

  /** Not required: every command commits without Redis (docs/operations.md), so its outage makes /ready "degraded", not 503. */
  override readiness(): ReadinessCheck[] {
    return [{ name: 'redis', required: false, check: () => this.redisState() }];
  }

  /**
   * For readiness: a write to the queue's Redis (a key that expires by itself), rejected at once
   * while Redis is away. A PING answers even when Redis refuses every write: at its maxmemory with
   * `noeviction` it refuses each job added, each rate count and each job a worker takes with "OOM
   * command not allowed", so that answer reads `full`.
   */
  async redisState(): Promise<'ok' | 'full'> {
    this.assertConnected();
    try {
      await withTimeout(
        this.queueRedis.set(`${this.options.prefix ?? 'bull'}:ready-probe`, '1', 'PX', 10_000),
        SCHEDULE_TIMEOUT_MS,
        'Redis write probe',
      );
      this.refusals.accepted();
      return 'ok';
    } catch (err) {
      if (isOutOfMemory(err)) return 'full';
      throw err;
    }
  }
}

/** Redis's refusal of a write at its maxmemory (policy `noeviction`, or nothing left it may evict). */
export const isOutOfMemory = (err: unknown): boolean => /^OOM\b/.test((err as Error | undefined)?.message ?? '');
