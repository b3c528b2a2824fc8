import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { ManualClock, SystemClock } from '@hostboard/core';
import { InProcessScheduler, QUEUE_NAME, type JobScheduler } from '@hostboard/jobs';
import { BullmqScheduler, WORKER_CONCURRENCY } from '@hostboard/jobs/bullmq/bullmq.scheduler.js';
import { describeWithRedis } from '../support/test-database.js';

const waitFor = async (cond: () => boolean, ms = 5000): Promise<void> => {
  const until = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** The same contract, checked on both implementations of the jobs interface. */
function schedulerContract(make: () => Promise<JobScheduler>): void {
  let scheduler: JobScheduler;
  const runs: number[] = [];

  beforeAll(async () => {
    scheduler = await make();
    scheduler.handle('idempotency-purge', async () => {
      runs.push(Date.now());
      return 'done';
    });
    await scheduler.start();
  });
  afterAll(() => scheduler.stop());

  it('runs a delayed job once, never before it is due', async () => {
    runs.length = 0;
    const due = Date.now() + 300;
    await scheduler.schedule('idempotency-purge', {}, { jobId: randomUUID(), runAt: new Date(due) });
    await waitFor(() => runs.length > 0);
    expect(runs[0]).toBeGreaterThanOrEqual(due - 5);
    await new Promise((r) => setTimeout(r, 300));
    expect(runs).toHaveLength(1);
  });

  it('schedules an id only once, and cancel stops a pending job', async () => {
    runs.length = 0;
    const id = randomUUID();
    const runAt = new Date(Date.now() + 400);
    await scheduler.schedule('idempotency-purge', {}, { jobId: id, runAt });
    await scheduler.schedule('idempotency-purge', {}, { jobId: id, runAt });
    const cancelled = randomUUID();
    await scheduler.schedule('idempotency-purge', {}, { jobId: cancelled, runAt });
    expect(await scheduler.cancel(cancelled)).toBe(true);
    expect(await scheduler.cancel(cancelled)).toBe(false);
    expect(await scheduler.cancel(randomUUID())).toBe(false);
    await new Promise((r) => setTimeout(r, 900));
    expect(runs).toHaveLength(1);
  });

  it('scheduleMany adds a batch, each job once at its time, leaving an id already pending as it is', async () => {
    runs.length = 0;
    const pending = randomUUID();
    await scheduler.schedule('idempotency-purge', {}, { jobId: pending, runAt: new Date(Date.now() + 300) });
    const due = Date.now() + 300;
    await scheduler.scheduleMany([
      { name: 'idempotency-purge', payload: {}, options: { jobId: pending, runAt: new Date(due) } },
      { name: 'idempotency-purge', payload: {}, options: { jobId: randomUUID(), runAt: new Date(due) } },
      { name: 'idempotency-purge', payload: {}, options: { jobId: randomUUID(), runAt: new Date(Date.now() - 1000) } },
    ]);
    await waitFor(() => runs.length >= 3);
    await new Promise((r) => setTimeout(r, 500));
    expect(runs).toHaveLength(3);
    expect(runs.filter((t) => t >= due - 5)).toHaveLength(2);
  });

  it('refuses a job id BullMQ cannot store', async () => {
    await expect(scheduler.schedule('idempotency-purge', {}, { jobId: 'a:b', runAt: new Date() })).rejects.toThrow(
      /invalid job id/,
    );
  });
}

describe('in-process jobs (no Redis)', () => {
  schedulerContract(async () => new InProcessScheduler(new SystemClock(), { repeating: false }));

  it('takes the due time from the injected clock', async () => {
    const clock = new ManualClock(new Date('2026-10-09T14:00:00Z'));
    const s = new InProcessScheduler(clock);
    let ran = 0;
    s.handle('idempotency-purge', async () => {
      ran++;
      return 'done';
    });
    // Due 10 minutes from the clock's now, which is long past by the wall clock: it still waits 10 minutes.
    await s.schedule('idempotency-purge', {}, { jobId: randomUUID(), runAt: new Date('2026-10-09T14:10:00Z') });
    await new Promise((r) => setTimeout(r, 200));
    expect(ran).toBe(0);
    await s.stop();
  });

  it('runs the re-arms at start: a restarted process lost its timers with the last one', async () => {
    const s = new InProcessScheduler(new SystemClock(), { repeating: false });
    const ran: string[] = [];
    s.handle('idempotency-purge', async () => {
      ran.push('job');
      return 'done';
    });
    const whys: string[] = [];
    // As the offer module does: its pending jobs again, from the database, when the store may have lost them.
    s.onStoreReturned(async (why) => {
      whys.push(why);
      await s.schedule('idempotency-purge', {}, { jobId: randomUUID(), runAt: new Date() });
    });
    await s.start();
    expect(whys).toEqual(['at start']);
    await waitFor(() => ran.length === 1);
    await s.stop();
  });
});

describeWithRedis('BullMQ needs a Redis server')('BullMQ jobs on Redis', () => {
  const prefix = `t${process.pid}`;
  schedulerContract(async () => {
    // A queue of this test file's own on the real Redis, so parallel files never share jobs.
    const s = new BullmqScheduler(new SystemClock(), {
      redisUrl: process.env['REDIS_URL'] ?? '',
      consume: true,
      prefix,
      repeating: false,
    });
    return s;
  });

  it("takes up due jobs while earlier ones still wait (a burst of expiries sharing their venues' sweeps)", async () => {
    // 100 jobs due at once whose handlers all wait on one gate, as expiry jobs wait on their venue's
    // next sweep: every one is taken up before any finishes. With 32 slots, 68 sat in the queue.
    const s = new BullmqScheduler(new SystemClock(), {
      redisUrl: process.env['REDIS_URL'] ?? '',
      consume: true,
      prefix: `${prefix}w`,
      repeating: false,
    });
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    let started = 0;
    s.handle('idempotency-purge', async () => {
      started++;
      await gate;
      return 'done';
    });
    await s.start();
    try {
      const runAt = new Date(Date.now() + 200);
      await Promise.all(Array.from({ length: 100 }, () => s.schedule('idempotency-purge', {}, { jobId: randomUUID(), runAt })));
      await waitFor(() => started === 100);
      expect(WORKER_CONCURRENCY).toBeGreaterThanOrEqual(100);
    } finally {
      open();
      await s.stop();
      const q = new Queue(QUEUE_NAME, { connection: { url: process.env['REDIS_URL'] ?? '' }, prefix: `${prefix}w` });
      await q.obliterate({ force: true });
      await q.close();
    }
  });

  it('a worker held up while its queue starts still schedules jobs and creates its job schedulers', async () => {
    // BullMQ asks Redis its version once when a queue starts; a boot that holds the event loop past
    // the fail-fast client's command timeout just then left the queue refusing every command for good.
    const url = process.env['REDIS_URL'] ?? '';
    const s = new BullmqScheduler(new SystemClock(), { redisUrl: url, consume: true, prefix: `${prefix}h` });
    const client = (s as unknown as { queueRedis: Redis }).queueRedis;
    await new Promise<void>((resolve) =>
      client.once('ready', () =>
        // After BullMQ's own 'ready' listener has sent its version question: hold the loop 1.3 s.
        setImmediate(() => {
          const until = performance.now() + 1300;
          while (performance.now() < until);
          resolve();
        }),
      ),
    );
    let runs = 0;
    s.handle('idempotency-purge', async () => {
      runs++;
      return 'done';
    });
    const q = new Queue(QUEUE_NAME, { connection: { url }, prefix: `${prefix}h` });
    try {
      await s.start();
      const scheduled = async (): Promise<boolean> =>
        s.schedule('idempotency-purge', {}, { jobId: randomUUID(), runAt: new Date(Date.now() + 50) }).then(
          () => true,
          () => false,
        );
      const until = Date.now() + 8000;
      while (!(await scheduled()) && Date.now() < until) await new Promise((r) => setTimeout(r, 250));
      await waitFor(() => runs >= 1, 5000);
      let names: string[] = [];
      while (Date.now() < until + 4000) {
        names = (await q.getJobSchedulers()).map((j) => j.key).sort();
        if (names.length === 3) break;
        await new Promise((r) => setTimeout(r, 250));
      }
      expect(names).toEqual(['idempotency-purge', 'outbox-relay', 'safety-sweep']);
    } finally {
      await s.stop();
      await q.obliterate({ force: true });
      await q.close();
    }
  });

  afterAll(async () => {
    const q = new Queue(QUEUE_NAME, { connection: { url: process.env['REDIS_URL'] ?? '' }, prefix });
    await q.obliterate({ force: true });
    await q.close();
  });
});
