import request from 'supertest';
import { DataSource } from 'typeorm';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { QUEUE_NAME } from '@hostboard/jobs';
import { OfferExpiryScheduler } from '@hostboard/offer';
import { startApp, type TestApp } from '../support/test-app.js';
import { describeWithServerAndRedis } from '../support/test-database.js';
import { signUp, type Staff } from '../support/staff.js';
import { joined, liveVenue, party, uniq, type Sandbox } from '../support/restaurant.js';

/** How late a hold may expire after its deadline here: its job's own latency, far from the 15 s safety sweep. */
const ON_TIME_MS = 2500;
const HOLD_SECONDS = 2;

type OfferAnswer = { offer: { id: string; entryId: string; expiresAt: string } };

async function offered(t: TestApp, owner: Staff, v: Sandbox, label: string): Promise<OfferAnswer['offer']> {
  const p = await joined(t, owner, v.id, party(2, `P ${label}`));
  const res = await request(t.baseUrl)
    .post(`/v1/venues/${v.id}/offers`)
    .set(owner.auth)
    .send({ entryId: p.entry.id, entryVersion: p.entry.version, tableIds: [v.tableIds[label]] })
    .expect(201);
  return (res.body as OfferAnswer).offer;
}

async function venueWithHold(t: TestApp, owner: Staff, holdSeconds: number): Promise<Sandbox> {
  const v = await liveVenue(t, owner, {
    tables: ['T1', 'T2', 'T3'].map((label) => ({ label, capacity: 4 })),
  });
  await request(t.baseUrl).patch(`/v1/venues/${v.id}`).set(owner.auth).send({ policy: { holdSeconds } }).expect(200);
  return v;
}

/**
 * Issue 18: every offer added a delayed expiry job (BullMQ: a script in Redis, and the worker woken
 * to re-arm its wait) and every acceptance removed it (two more scripts), about 2 ms of CPU per offer
 * over the api, Redis and the worker. An offer made while an earlier hold of the same venue is live
 * adds none: that hold's job comes first, and its run schedules the job of the venue's next live
 * hold (the earliest deadline), so each hold still expires at its deadline. A hold ended before its
 * deadline keeps its job while a later hold of the venue is live (the job may be theirs).
 */
describeWithServerAndRedis('BullMQ needs PostgreSQL and Redis')('expiry jobs of a venue with several live holds', () => {
  let t: TestApp;
  let queue: Queue;
  let direct: Redis;
  let owner: Staff;
  const prefix = `offer-chain-${uniq()}`;

  beforeAll(async () => {
    t = await startApp({ env: { JOBS_PREFIX: prefix } });
    direct = new Redis(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
    queue = new Queue(QUEUE_NAME, { connection: direct, prefix });
    owner = await signUp(t, 'owner');
  });
  afterAll(async () => {
    await t.close();
    await queue.obliterate({ force: true }).catch(() => undefined);
    await queue.close();
    direct.disconnect();
  });

  /** Every job-store write the api has started, done (they run after the answers, in the background). */
  const written = (): Promise<void> => t.app.get(OfferExpiryScheduler).beforeApplicationShutdown();

  it('adds no job for an offer made while an earlier hold of the venue is live, and keeps the earlier one’s while the later is live', async () => {
    const v = await venueWithHold(t, owner, 300);
    const first = await offered(t, owner, v, 'T1');
    const second = await offered(t, owner, v, 'T2');
    await written();
    expect(await queue.getJobState(first.id)).toBe('delayed');
    expect(await queue.getJobState(second.id)).toBe('unknown');
    // Accepting the first leaves its job: it is the second hold's trigger.
    await request(t.baseUrl).post(`/v1/venues/${v.id}/offers/${first.id}/accept`).set(owner.auth).send({}).expect(200);
    await written();
    expect(await queue.getJobState(first.id)).toBe('delayed');
  });

  /** Where a host withdraws the offer, or its party leaves the queue holding it. */
  const ending = {
    withdrawn: (o: OfferAnswer['offer']) => `offers/${o.id}/withdraw`,
    'given up (its party left the queue)': (o: OfferAnswer['offer']) => `queue/${o.entryId}/cancel`,
  };

  it.each(Object.entries(ending))(
    'keeps the job of a hold %s while a later hold of the venue is live, and removes the job of the only one',
    async (_how, path) => {
      const v = await venueWithHold(t, owner, 300);
      const first = await offered(t, owner, v, 'T1');
      await offered(t, owner, v, 'T2');
      await request(t.baseUrl)
        .post(`/v1/venues/${v.id}/${path(first)}`)
        .set(owner.auth)
        .send({})
        .expect(200);
      await written();
      expect(await queue.getJobState(first.id)).toBe('delayed');
      const w = await venueWithHold(t, owner, 300);
      const only = await offered(t, owner, w, 'T1');
      await written();
      expect(await queue.getJobState(only.id)).toBe('delayed');
      await request(t.baseUrl)
        .post(`/v1/venues/${w.id}/${path(only)}`)
        .set(owner.auth)
        .send({})
        .expect(200);
      await written();
      expect(await queue.getJobState(only.id)).toBe('unknown');
    },
  );

  it('removes the job of the venue’s only live hold when it is accepted', async () => {
    const v = await venueWithHold(t, owner, 300);
    const only = await offered(t, owner, v, 'T1');
    await written();
    expect(await queue.getJobState(only.id)).toBe('delayed');
    await request(t.baseUrl).post(`/v1/venues/${v.id}/offers/${only.id}/accept`).set(owner.auth).send({}).expect(200);
    await written();
    expect(await queue.getJobState(only.id)).toBe('unknown');
  });
});

/**
 * The same on in-process jobs (no REDIS_URL: this process runs them), on the real clock with a
 * two-second hold: each hold expires at its deadline, never before, whether the earlier hold whose
 * job triggers it was accepted, withdrawn or lapsed itself.
 */
describe('expiry on time of the later holds of a venue (in-process jobs, real clock)', () => {
  let t: TestApp;
  let owner: Staff;

  beforeAll(async () => {
    t = await startApp({ env: { REDIS_URL: undefined as unknown as string } });
    owner = await signUp(t, 'owner');
  });
  afterAll(async () => {
    await t.close();
  });

  /** Waits for the offer to be expired; answers how long after its deadline that was seen (ms). */
  async function expiredAfter(offer: OfferAnswer['offer']): Promise<number> {
    const deadline = Date.parse(offer.expiresAt);
    for (;;) {
      const rows = (await t.app.get(DataSource).query('SELECT state FROM offers WHERE id = $1', [offer.id])) as Array<{
        state: string;
      }>;
      const state = rows[0]?.state;
      if (state === 'expired') return Date.now() - deadline;
      // Not yet expired: no later than ON_TIME_MS after its deadline (the safety sweep is 15 s).
      if (Date.now() > deadline + ON_TIME_MS) return Date.now() - deadline;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it.each([
    ['accepted', 'accept'],
    ['withdrawn', 'withdraw'],
    ['given up (its party left the queue)', 'cancel'],
  ])('expires the later hold at its deadline after the earlier one was %s', async (_ended, action) => {
    const v = await venueWithHold(t, owner, HOLD_SECONDS);
    const first = await offered(t, owner, v, 'T1');
    const second = await offered(t, owner, v, 'T2');
    const path = action === 'cancel' ? `queue/${first.entryId}/cancel` : `offers/${first.id}/${action}`;
    await request(t.baseUrl).post(`/v1/venues/${v.id}/${path}`).set(owner.auth).send({}).expect(200);
    const late = await expiredAfter(second);
    expect(late).toBeGreaterThanOrEqual(0);
    expect(late).toBeLessThan(ON_TIME_MS);
  });

  it('expires every hold of the venue at its own deadline when none is accepted', async () => {
    const v = await venueWithHold(t, owner, HOLD_SECONDS);
    const offers = [await offered(t, owner, v, 'T1'), await offered(t, owner, v, 'T2'), await offered(t, owner, v, 'T3')];
    for (const o of offers) {
      const late = await expiredAfter(o);
      expect(late).toBeGreaterThanOrEqual(0);
      expect(late).toBeLessThan(ON_TIME_MS);
    }
  });
});
