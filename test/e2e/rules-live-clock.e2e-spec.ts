import request from 'supertest';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { AppConfig, Clock, TransactionRunner } from '@hostboard/core';
import { JobScheduler, type JobHandler, type JobName } from '@hostboard/jobs';
import { OfferExpiryHandlers, SweepService } from '@hostboard/offer';
import { violations } from '../support/invariants.js';
import { activeEntries, EVERY_DAY, joined, moveClock, party, refusal, sandboxVenue } from '../support/restaurant.js';
import { growth, scrape } from '../support/metrics-scrape.js';
import { ManualClock, startApp, type TestApp } from '../support/test-app.js';
import { createVenue, signIn, signUp, type Staff } from '../support/staff.js';

/**
 * Issue 14 on a live venue (not a sandbox: moving a sandbox clock sweeps, which would hide what is
 * tested here). The app's clock is a manual one, so a hold can lapse with nobody sweeping, and a
 * business day can end with nobody at the board.
 */

interface OfferBody {
  offer: { id: string; reservationId: string };
}

interface HistoryRow {
  subjectId: string;
  from: string | null;
  to: string;
  reason: string | null;
  actor: string;
}

const FRIDAY_6PM = new Date('2026-10-09T23:00:00.000Z'); // Chicago
const METRICS_TOKEN = 'metrics-token-for-the-live-clock-test';

describe('rules audit on a live clock (issue 14, items 11 and 12)', () => {
  let t: TestApp;
  let owner: Staff;
  const clock = new ManualClock(FRIDAY_6PM);
  const ds = (): DataSource => t.app.get<DataSource>(getDataSourceToken());

  beforeAll(async () => {
    t = await startApp({ clock, env: { METRICS_TOKEN } });
    owner = await signUp(t, 'owner');
  });
  afterEach(async () => expect(await violations(ds())).toEqual([]));
  afterAll(() => t.close());

  /** A live restaurant (no simulated clock) with a 17:00–23:00 service every day and one 2-top. */
  const liveRestaurant = async (): Promise<{ id: string; tableId: string }> => {
    const v = await createVenue(t, owner, { timeZone: 'America/Chicago' });
    await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/service-windows`)
      .set(owner.auth)
      .send({ days: EVERY_DAY, start: '17:00', end: '23:00', turnMinutes: 20 })
      .expect(201);
    const table = await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/tables`)
      .set(owner.auth)
      .send({ label: 'T1', capacity: 2 })
      .expect(201);
    return { id: v.id, tableId: (table.body as { id: string }).id };
  };

  const historyOf = async (venueId: string, subjectId: string): Promise<HistoryRow[]> =>
    // The list is newest first; these tests read a subject's story in the order it happened.
    (
      (await request(t.baseUrl).get(`/v1/venues/${venueId}/history?subjectId=${subjectId}`).set(owner.auth).expect(200))
        .body as HistoryRow[]
    ).reverse();

  const offerTo = async (v: { id: string; tableId: string }, entry: { id: string; version: number }): Promise<OfferBody> =>
    (
      await request(t.baseUrl)
        .post(`/v1/venues/${v.id}/offers`)
        .set(owner.auth)
        .send({ entryId: entry.id, entryVersion: entry.version, tableIds: [v.tableId] })
        .expect(201)
    ).body as OfferBody;

  /** A live workshop (no simulated clock) of `capacity` seats, with this policy. */
  const liveWorkshop = async (capacity: number, policy: Record<string, unknown> = {}): Promise<{ id: string }> => {
    const v = await createVenue(t, owner, { preset: 'workshop', poolCapacity: capacity });
    if (Object.keys(policy).length > 0)
      await request(t.baseUrl).patch(`/v1/venues/${v.id}`).set(owner.auth).send({ policy }).expect(200);
    return v;
  };
  const countsOf = async (venueId: string): Promise<unknown> =>
    (await request(t.baseUrl).get(`/v1/venues/${venueId}/counts`).set(owner.auth).expect(200)).body;

  it('12: withdraw and cancel sweep first, so a hold that lapsed is recorded as expired, not withdrawn or cancelled', async () => {
    clock.set(FRIDAY_6PM);
    owner = await signIn(t, owner.email, owner.password);
    const v = await liveRestaurant();
    const p = await joined(t, owner, v.id, party(2));
    const first = await offerTo(v, p.entry);
    clock.advance(300_000); // the five minutes have passed; nothing has swept yet
    const withdraw = await request(t.baseUrl).post(`/v1/venues/${v.id}/offers/${first.offer.id}/withdraw`).set(owner.auth);
    expect(refusal(withdraw)).toEqual({ status: 409, code: 'WAITLIST_OFFER_EXPIRED' });
    expect((await historyOf(v.id, first.offer.id)).map((h) => [h.from, h.to, h.reason])).toEqual([
      [null, 'live', null],
      ['live', 'expired', 'WAITLIST_OFFER_EXPIRED'],
    ]);
    // The clock ended it, not the host whose withdrawal happened to sweep first: a manager reading the
    // history must not see "the host expired it".
    expect((await historyOf(v.id, first.offer.id)).map((h) => h.actor)).toEqual([`staff:${owner.userId}`, 'system']);

    // The place was kept: offered again, the hold lapses again, and this time the host cancels the entry.
    const [again] = await activeEntries(t, owner, v.id);
    const second = await offerTo(v, again as { id: string; version: number });
    clock.advance(300_001);
    await request(t.baseUrl).post(`/v1/venues/${v.id}/queue/${p.entry.id}/cancel`).set(owner.auth).expect(200);
    expect((await historyOf(v.id, second.offer.id)).map((h) => h.to)).toEqual(['live', 'expired']);
    expect((await historyOf(v.id, p.entry.id)).slice(-2).map((h) => [h.from, h.to, h.reason])).toEqual([
      ['offered', 'waiting', 'WAITLIST_OFFER_EXPIRED'],
      ['waiting', 'cancelled', null],
    ]);
    expect((await historyOf(v.id, p.entry.id)).slice(-2).map((h) => h.actor)).toEqual(['system', `staff:${owner.userId}`]);
  });

  it('an operator reads how late each lapsed hold was released, from live venues only', async () => {
    clock.set(FRIDAY_6PM);
    owner = await signIn(t, owner.email, owner.password);
    const lag = (): Promise<Record<string, number>> => scrape(t, METRICS_TOKEN);
    const bucket = (le: string): string => `hostboard_hold_expiry_lag_seconds_bucket{le="${le}"}`;
    const before = await lag();
    const v = await liveRestaurant();
    const p = await joined(t, owner, v.id, party(2));
    await offerTo(v, p.entry);
    // Nobody sweeps until 7 s after the five minutes: the hold is released then, 7 s late.
    clock.advance(307_000);
    await request(t.baseUrl).post(`/v1/venues/${v.id}/sweeps`).set(owner.auth).send({}).expect(200);
    const after = await lag();
    const grew = growth(after, before);
    expect(grew['hostboard_hold_expiry_lag_seconds_count']).toBe(1);
    expect(grew['hostboard_hold_expiry_lag_seconds_sum']).toBeCloseTo(7, 3);
    expect(grew[bucket('5')]).toBe(0);
    expect(grew[bucket('15')]).toBe(1);

    // A practice venue's clock is its manager's to move: its lapsed holds say nothing of the system.
    const practice = await sandboxVenue(t, owner, { clock: '2026-10-09T18:00:00-05:00', tables: [{ label: 'P1', capacity: 2 }] });
    const q = await joined(t, owner, practice.id, party(2));
    await request(t.baseUrl)
      .post(`/v1/venues/${practice.id}/offers`)
      .set(owner.auth)
      .send({ entryId: q.entry.id, entryVersion: q.entry.version, tableIds: [practice.tableIds['P1']] })
      .expect(201);
    await moveClock(t, owner, practice.id, '2026-10-09T19:00:00-05:00');
    expect((await historyOf(practice.id, q.entry.id)).map((h) => h.to)).toContain('waiting');
    expect((await lag())['hostboard_hold_expiry_lag_seconds_count']).toBe(after['hostboard_hold_expiry_lag_seconds_count']);
  });

  it('a seat count read after a hold lapsed, with nobody sweeping, no longer counts the held seats', async () => {
    // What a restart leaves: the hold's job has not run, and the first read is a count.
    clock.set(FRIDAY_6PM);
    owner = await signIn(t, owner.email, owner.password);
    const v = await liveWorkshop(9, { holdSeconds: 1200 });
    await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/queue`)
      .set(owner.auth)
      .send({ name: 'Group of four', partySize: 4 })
      .expect(201);
    await request(t.baseUrl).post(`/v1/venues/${v.id}/promotions`).set(owner.auth).send({}).expect(201);
    const counts = (): Promise<unknown> => countsOf(v.id);
    expect(await counts()).toMatchObject({ confirmed: 0, held: 4, available: 5 });
    clock.advance(1_199_999);
    expect(await counts()).toMatchObject({ confirmed: 0, held: 4, available: 5 });
    clock.advance(1); // the hold's expiry: too late to accept, so its seats are no longer held
    expect(await counts()).toMatchObject({ confirmed: 0, held: 0, available: 9 });
  });

  it('a registration at the desk waits for the groups in the queue, and is not refused for seats a lapsed hold no longer keeps', async () => {
    clock.set(FRIDAY_6PM);
    owner = await signIn(t, owner.email, owner.password);
    const v = await liveWorkshop(9, { holdSeconds: 900, onOfferExpired: 'leave-queue' });
    const register = (name: string, partySize: number): request.Test =>
      request(t.baseUrl).post(`/v1/venues/${v.id}/reservations`).set(owner.auth).send({ name, partySize });
    const counts = (): Promise<unknown> => countsOf(v.id);
    await register('A', 4).expect(201);
    await register('B', 3).expect(201);
    // W-1 (three) waits for seats; two are free. A newcomer of two registered at the desk would take them.
    const w1 = (
      await request(t.baseUrl).post(`/v1/venues/${v.id}/queue`).set(owner.auth).send({ name: 'W-1', partySize: 3 }).expect(201)
    ).body as { entry: { id: string } };
    const skipped = await register('Newcomer', 2);
    expect(refusal(skipped)).toEqual({ status: 422, code: 'RULE_VIOLATION' });
    expect((skipped.body as { error: { message: string } }).error.message).toBe(
      'Groups are waiting for seats: add this group to the queue. Seats go to the oldest waiting group first.',
    );
    expect(await counts()).toMatchObject({ confirmed: 7, held: 0, available: 2 });

    // B cancels: W-1 is held its three seats; its hold lapses with nobody sweeping (it leaves the queue).
    const bookings = (await request(t.baseUrl).get(`/v1/venues/${v.id}/reservations`).set(owner.auth).expect(200)).body as Array<{
      id: string;
      name: string;
    }>;
    const b = bookings.find((r) => r.name === 'B')?.id ?? '';
    await request(t.baseUrl).post(`/v1/venues/${v.id}/reservations/${b}/cancel`).set(owner.auth).send({}).expect(200);
    await request(t.baseUrl).post(`/v1/venues/${v.id}/promotions`).set(owner.auth).send({}).expect(201);
    clock.advance(900_000);
    // Nobody waits now, and the lapsed hold keeps nothing: all five free seats can be registered.
    await register('Newcomer', 5).expect(201);
    expect(await counts()).toMatchObject({ confirmed: 9, held: 0, available: 0 });
    expect((await activeEntries(t, owner, v.id)).map((e) => e.id)).not.toContain(w1.entry.id);
  });

  it('a workshop says plainly why seats cannot be taken: one seat "is" left, a held group keeps its size', async () => {
    clock.set(FRIDAY_6PM);
    owner = await signIn(t, owner.email, owner.password);
    const v = await liveWorkshop(5);
    const message = (res: request.Response): string => (res.body as { error: { message: string } }).error.message;
    await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/reservations`)
      .set(owner.auth)
      .send({ name: 'A', partySize: 4 })
      .expect(201);
    const two = await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/reservations`)
      .set(owner.auth)
      .send({ name: 'B', partySize: 2 });
    expect(message(two)).toBe('Only 1 of 5 seats is available.');
    const w = (
      await request(t.baseUrl).post(`/v1/venues/${v.id}/queue`).set(owner.auth).send({ name: 'W', partySize: 1 }).expect(201)
    ).body as { entry: { id: string } };
    await request(t.baseUrl).post(`/v1/venues/${v.id}/promotions`).set(owner.auth).send({}).expect(201);
    const [held] = await activeEntries(t, owner, v.id);
    const resize = await request(t.baseUrl)
      .patch(`/v1/venues/${v.id}/queue/${w.entry.id}`)
      .set(owner.auth)
      .send({ entryVersion: held?.version, partySize: 2 });
    expect(refusal(resize)).toEqual({ status: 422, code: 'RULE_VIOLATION' });
    expect(message(resize)).toBe('This group holds seats for its current size; its size can change only while it waits.');
    // The last seat held: no seat left reads as such, not "Only 0 of 5 seats are available."
    const full = await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/reservations`)
      .set(owner.auth)
      .send({ name: 'C', partySize: 1 });
    expect(message(full)).toBe('All 5 seats are taken.');
  });

  it('11: a hold that lapsed after its business day ended returns its party to a queue that closes in the same sweep', async () => {
    clock.set(FRIDAY_6PM);
    owner = await signIn(t, owner.email, owner.password);
    const v = await liveRestaurant();
    const p = await joined(t, owner, v.id, party(2));
    clock.set(new Date('2026-10-10T03:58:00.000Z')); // 22:58 on Friday, the last minutes of service
    const made = await offerTo(v, p.entry);
    // 00:30 on Saturday: the hold lapsed at 23:03 and nobody swept. The sweep's lock-free read finds
    // a due offer but no waiting party of Friday (the party is still offered); the expiry returns it
    // to waiting, and the same sweep must close it with its day.
    clock.set(new Date('2026-10-10T05:30:00.000Z'));
    owner = await signIn(t, owner.email, owner.password);
    expect(await activeEntries(t, owner, v.id)).toEqual([]);
    expect((await historyOf(v.id, made.offer.id)).map((h) => h.to)).toEqual(['live', 'expired']);
    expect((await historyOf(v.id, p.entry.id)).slice(-2).map((h) => [h.from, h.to, h.reason])).toEqual([
      ['offered', 'waiting', 'WAITLIST_OFFER_EXPIRED'],
      ['waiting', 'expired', 'business day ended'],
    ]);
  });

  it('11: a business day that ended with nobody at the board is closed by the next read, or the next join', async () => {
    clock.set(FRIDAY_6PM);
    owner = await signIn(t, owner.email, owner.password);
    const read = await liveRestaurant();
    const join = await liveRestaurant();
    const fridayRead = await joined(t, owner, read.id, party(2));
    const fridayJoin = await joined(t, owner, join.id, party(2));
    const statusOf = async (id: string): Promise<string | undefined> =>
      ((await ds().query('SELECT status FROM queue_entries WHERE id = $1', [id])) as Array<{ status: string }>)[0]?.status;

    // 00:30 on Saturday: Friday's service ended at 23:00 and its date has passed.
    clock.set(new Date('2026-10-10T05:30:00.000Z'));
    owner = await signIn(t, owner.email, owner.password); // the Friday session has lapsed
    expect(await statusOf(fridayRead.entry.id)).toBe('waiting'); // nothing has looked yet
    expect(await activeEntries(t, owner, read.id)).toEqual([]);
    expect(await statusOf(fridayRead.entry.id)).toBe('expired');

    // Saturday evening, the other venue's first act is a join: Friday's party is closed before it.
    clock.set(new Date('2026-10-10T22:30:00.000Z'));
    owner = await signIn(t, owner.email, owner.password);
    expect(await statusOf(fridayJoin.entry.id)).toBe('waiting');
    const saturday = await joined(t, owner, join.id, party(2));
    expect(saturday.position).toBe(1);
    expect(await statusOf(fridayJoin.entry.id)).toBe('expired');
    expect((await historyOf(join.id, fridayJoin.entry.id)).at(-1)).toMatchObject({
      from: 'waiting',
      to: 'expired',
      reason: 'business day ended',
    });
  });

  it('11: a join refused after it closed an ended day keeps the close and gives its queue number back', async () => {
    clock.set(FRIDAY_6PM);
    owner = await signIn(t, owner.email, owner.password);
    const v = await liveRestaurant();
    const friday = await joined(t, owner, v.id, party(2));
    // 00:30 on Saturday: Friday's day has ended and no window runs, so the join is refused...
    clock.set(new Date('2026-10-10T05:30:00.000Z'));
    owner = await signIn(t, owner.email, owner.password);
    const refused = await request(t.baseUrl).post(`/v1/venues/${v.id}/queue`).set(owner.auth).send(party(2));
    expect(refusal(refused)).toEqual({ status: 422, code: 'RULE_VIOLATION' });
    // ...but the close it ran first stays, and the number the refused join took is not lost.
    expect((await historyOf(v.id, friday.entry.id)).at(-1)).toMatchObject({ to: 'expired', reason: 'business day ended' });
    clock.set(new Date('2026-10-10T22:30:00.000Z'));
    owner = await signIn(t, owner.email, owner.password);
    const saturday = await joined(t, owner, v.id, party(2));
    expect(Number(saturday.entry.queueSequence)).toBe(Number(friday.entry.queueSequence) + 1);
  });

  it('11: the safety-net job closes an ended business day at a venue nobody looks at', async () => {
    clock.set(FRIDAY_6PM);
    owner = await signIn(t, owner.email, owner.password);
    const v = await liveRestaurant();
    const friday = await joined(t, owner, v.id, party(2));
    // The app's own handlers, registered on a scheduler that only keeps them, run by hand: the job's
    // interval is 15 s of real time, which a test should not wait for.
    const handlers = new Map<JobName, JobHandler<JobName>>();
    class Keeper extends JobScheduler {
      async schedule(): Promise<void> {}
      async cancel(): Promise<boolean> {
        return false;
      }
      handle<N extends JobName>(name: N, handler: JobHandler<N>): void {
        handlers.set(name, handler as JobHandler<JobName>);
      }
      async start(): Promise<void> {}
      async stop(): Promise<void> {}
    }
    new OfferExpiryHandlers(
      new Keeper(),
      t.app.get(SweepService),
      t.app.get(TransactionRunner),
      t.app.get(Clock),
      t.app.get(AppConfig),
    ).onModuleInit();
    const safetySweep = handlers.get('safety-sweep');
    const status = async (): Promise<string | undefined> =>
      ((await ds().query('SELECT status FROM queue_entries WHERE id = $1', [friday.entry.id])) as Array<{ status: string }>)[0]
        ?.status;

    clock.set(new Date('2026-10-10T03:30:00.000Z')); // 10:30 PM Friday: the day has not ended
    await safetySweep?.({});
    expect(await status()).toBe('waiting');
    clock.set(new Date('2026-10-10T05:30:00.000Z')); // 00:30 on Saturday
    expect(await safetySweep?.({})).toBe('done');
    expect(await status()).toBe('expired');
  });
});
