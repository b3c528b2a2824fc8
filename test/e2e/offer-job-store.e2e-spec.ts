import request from 'supertest';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { QUEUE_NAME } from '@hostboard/jobs';
import { startApp, type TestApp } from '../support/test-app.js';
import { describeWithServerAndRedis } from '../support/test-database.js';
import { slowRedis } from '../support/slow-redis.js';
import { signUp, type Staff } from '../support/staff.js';
import { joined, liveVenue, party, uniq, type Sandbox } from '../support/restaurant.js';

/** How long the job store takes to answer once it turns slow: every Redis reply is held back this long. */
const SLOW_MS = 600;

/**
 * Issue 18: an offer's answer waited for its expiry job to be written to Redis (BullMQ's add), and an
 * acceptance's for the job's removal (two round trips): the slowest steps of an offer on a busy
 * machine. The job only makes the expiry show on the board on time (the sweeps expire an offer without
 * it), so the answer no longer waits for the job store; the job is still written, and removed.
 */
describeWithServerAndRedis('BullMQ needs PostgreSQL and Redis')('an offer and its acceptance while the job store is slow', () => {
  let t: TestApp;
  let proxy: Awaited<ReturnType<typeof slowRedis>>;
  let queue: Queue;
  let direct: Redis;
  let owner: Staff;
  let v: Sandbox;
  const prefix = `offer-jobs-${uniq()}`;

  beforeAll(async () => {
    const redisUrl = new URL(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379');
    proxy = await slowRedis(redisUrl, 0);
    // The same database number through the proxy.
    t = await startApp({ env: { REDIS_URL: `${proxy.url}${redisUrl.pathname}`, JOBS_PREFIX: prefix } });
    // Straight to Redis, not through the proxy: what Redis holds, at once.
    direct = new Redis(redisUrl.href, { maxRetriesPerRequest: null });
    queue = new Queue(QUEUE_NAME, { connection: direct, prefix });
    owner = await signUp(t, 'owner');
    v = await liveVenue(t, owner, {
      tables: [
        { label: 'T1', capacity: 4 },
        { label: 'T2', capacity: 4 },
      ],
    });
  });
  afterAll(async () => {
    proxy.setDelay(0);
    await t.close();
    await queue.obliterate({ force: true }).catch(() => undefined);
    await queue.close();
    direct.disconnect();
    await proxy.close();
  });

  /** Waits (up to 10 s) for the job's state in the queue to be `state`, read directly from Redis. */
  async function jobState(jobId: string, state: string): Promise<string> {
    let seen = '';
    for (const until = performance.now() + 10_000; performance.now() < until;) {
      seen = await queue.getJobState(jobId);
      if (seen === state) return seen;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return seen;
  }

  it('answers an offer and an acceptance without waiting for the job store, and still writes and removes the job', async () => {
    const ana = await joined(t, owner, v.id, party(2, 'Ana'));
    proxy.setDelay(SLOW_MS);
    const started = performance.now();
    const res = await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/offers`)
      .set(owner.auth)
      .send({ entryId: ana.entry.id, entryVersion: ana.entry.version, tableIds: [v.tableIds['T1']] })
      .expect(201);
    const offerMs = performance.now() - started;
    const offerId = (res.body as { offer: { id: string } }).offer.id;
    // Before: at least one slow reply (BullMQ's add) before the answer.
    expect(offerMs).toBeLessThan(SLOW_MS);
    // The job is written all the same, once Redis answers.
    expect(await jobState(offerId, 'delayed')).toBe('delayed');

    const acceptStarted = performance.now();
    await request(t.baseUrl).post(`/v1/venues/${v.id}/offers/${offerId}/accept`).set(owner.auth).send({}).expect(200);
    // Before: two slow replies (the job's state, then its removal) before the answer.
    expect(performance.now() - acceptStarted).toBeLessThan(SLOW_MS);
    expect(await jobState(offerId, 'unknown')).toBe('unknown');
  });

  it('removes the job of an offer accepted while its job is still being written', async () => {
    const bo = await joined(t, owner, v.id, party(2, 'Bo'));
    proxy.setDelay(SLOW_MS);
    const res = await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/offers`)
      .set(owner.auth)
      .send({ entryId: bo.entry.id, entryVersion: bo.entry.version, tableIds: [v.tableIds['T2']] })
      .expect(201);
    const offerId = (res.body as { offer: { id: string } }).offer.id;
    // Accepted at once, while the job's write is still waiting for Redis's reply: its removal goes
    // after it (the proxy holds back replies only, so Redis runs each command when it arrives).
    await request(t.baseUrl).post(`/v1/venues/${v.id}/offers/${offerId}/accept`).set(owner.auth).send({}).expect(200);
    expect(await jobState(offerId, 'delayed')).toBe('delayed');
    expect(await jobState(offerId, 'unknown')).toBe('unknown');
  });
});
