import request from 'supertest';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { violations } from '../support/invariants.js';
import { deskJoin, EVERY_DAY, exchange, joined, party, queueSession, type JoinBody } from '../support/restaurant.js';
import { ManualClock, startApp, type TestApp } from '../support/test-app.js';
import { createVenue, signIn, signUp, type Staff } from '../support/staff.js';

/**
 * The spec's position counts "earlier same-day parties still active in the queue (waiting or holding
 * an offer)", and one contact holds one *active* entry a day. On a live venue a hold can lapse with
 * nothing swept yet (the expiry job is late, or its worker is down): a party whose offer has run out
 * holds nothing, and under a leave-queue policy is out of the queue. A join, and the party's own
 * read of where it stands, must not count it, nor refuse its contact as "already in the queue".
 * The app's clock is a manual one here, so the hold lapses with nobody sweeping.
 */

const SATURDAY_NOON_SYDNEY = new Date('2026-11-14T01:00:00.000Z'); // 12:00 AEDT

interface OfferBody {
  offer: { id: string; expiresAt: string };
}

describe('a join after a hold lapsed, before anything swept it', () => {
  let t: TestApp;
  let owner: Staff;
  const clock = new ManualClock(SATURDAY_NOON_SYDNEY);
  const ds = (): DataSource => t.app.get<DataSource>(getDataSourceToken());

  beforeAll(async () => {
    t = await startApp({ clock });
    owner = await signUp(t, 'owner');
  });
  afterEach(async () => expect(await violations(ds())).toEqual([]));
  afterAll(() => t.close());

  /** A live restaurant in Sydney, 11:00–15:00 with a 26-minute turn, two 3-tops, 7-minute holds. */
  const liveRestaurant = async (policy: Record<string, unknown>): Promise<{ id: string; tables: string[] }> => {
    const v = await createVenue(t, owner, { timeZone: 'Australia/Sydney' });
    await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/service-windows`)
      .set(owner.auth)
      .send({ days: EVERY_DAY, start: '11:00', end: '15:00', turnMinutes: 26 })
      .expect(201);
    const tables: string[] = [];
    for (const label of ['T1', 'T2']) {
      const r = await request(t.baseUrl)
        .post(`/v1/venues/${v.id}/tables`)
        .set(owner.auth)
        .send({ label, capacity: 3 })
        .expect(201);
      tables.push((r.body as { id: string }).id);
    }
    await request(t.baseUrl)
      .patch(`/v1/venues/${v.id}`)
      .set(owner.auth)
      .send({ policy: { holdSeconds: 420, ...policy } })
      .expect(200);
    return { id: v.id, tables };
  };

  const offer = async (venueId: string, entry: JoinBody['entry'], tableId: string): Promise<OfferBody> =>
    (
      await request(t.baseUrl)
        .post(`/v1/venues/${venueId}/offers`)
        .set(owner.auth)
        .send({ entryId: entry.id, entryVersion: entry.version, tableIds: [tableId] })
        .expect(201)
    ).body as OfferBody;

  it('leave-queue: the lapsed party is not counted ahead, and its contact may join again at the end', async () => {
    clock.set(SATURDAY_NOON_SYDNEY);
    owner = await signIn(t, owner.email, owner.password);
    const v = await liveRestaurant({ onOfferExpired: 'leave-queue' });
    const first = party(3);
    const a = await joined(t, owner, v.id, first);
    const o = await offer(v.id, a.entry, v.tables[0] as string);
    // At the very instant of expiry the offer is over (acceptance is valid strictly before it).
    clock.set(new Date(o.offer.expiresAt));

    // A join refused after it ended the lapsed hold keeps that end: the hold is not live again.
    const refused = await deskJoin(t, owner, v.id, party(9));
    expect(refused.status).toBe(400);
    const history = await request(t.baseUrl)
      .get(`/v1/venues/${v.id}/history?subjectId=${o.offer.id}`)
      .set(owner.auth)
      .expect(200);
    expect((history.body as Array<{ to: string; actor: string }>).map((h) => [h.to, h.actor])).toEqual([
      ['expired', 'system'],
      ['live', `staff:${owner.userId}`],
    ]);

    const b = await joined(t, owner, v.id, party(2));
    expect(b.quote).toBe('position 1 (0 ahead), quoted ~26 min (approx)');
    const again = await deskJoin(t, owner, v.id, { ...first, name: 'A again' });
    expect(again.status).toBe(201);
    expect((again.body as JoinBody).quote).toBe('position 2 (1 ahead), quoted ~52 min (approx)');
    // The refused join gave its queue number back: the two joins after it are numbered on from A's.
    expect([b.entry.queueSequence, (again.body as JoinBody).entry.queueSequence]).toEqual([
      a.entry.queueSequence + 1,
      a.entry.queueSequence + 2,
    ]);
  });

  it('keep-place: a party reading its page after its hold lapsed is told it waits, with no live offer', async () => {
    clock.set(SATURDAY_NOON_SYDNEY);
    owner = await signIn(t, owner.email, owner.password);
    const v = await liveRestaurant({ onOfferExpired: 'keep-place' });
    const a = await joined(t, owner, v.id, party(3));
    const o = await offer(v.id, a.entry, v.tables[0] as string);
    clock.set(new Date(Date.parse(o.offer.expiresAt) + 1000));

    const status = await request(t.baseUrl).post('/v1/queue-status').send({ token: a.queueToken }).expect(200);
    const view = status.body as {
      entry: { status: string };
      offer: unknown;
      lastOffer: { state: string } | null;
      position: number;
    };
    expect([view.entry.status, view.offer, view.lastOffer?.state, view.position]).toEqual(['waiting', null, 'expired', 1]);
  });

  it('leave-queue: the party behind reads its place without the lapsed party in front of it', async () => {
    clock.set(SATURDAY_NOON_SYDNEY);
    owner = await signIn(t, owner.email, owner.password);
    const v = await liveRestaurant({ onOfferExpired: 'leave-queue' });
    const a = await joined(t, owner, v.id, party(3));
    const b = await joined(t, owner, v.id, party(3));
    const session = (await exchange(t, b.queueToken as string).expect(201)).body as { sessionToken: string };
    const o = await offer(v.id, a.entry, v.tables[0] as string);
    clock.set(new Date(o.offer.expiresAt));

    const read = await request(t.baseUrl).get('/v1/queue-session').set(queueSession(session.sessionToken)).expect(200);
    expect((read.body as { position: number; ahead: number }).position).toBe(1);
    expect((read.body as { position: number; ahead: number }).ahead).toBe(0);
  });

  it('a workshop: a group joining after a hold lapsed is told its place without the expired group', async () => {
    clock.set(SATURDAY_NOON_SYDNEY);
    owner = await signIn(t, owner.email, owner.password);
    const v = await createVenue(t, owner, { preset: 'workshop', poolCapacity: 7, timeZone: 'Australia/Sydney' });
    await request(t.baseUrl)
      .patch(`/v1/venues/${v.id}`)
      .set(owner.auth)
      .send({ policy: { holdSeconds: 1500 } })
      .expect(200);
    await joined(t, owner, v.id, { name: 'G1', partySize: 5 });
    const promoted = await request(t.baseUrl).post(`/v1/venues/${v.id}/promotions`).set(owner.auth).expect(201);
    clock.set(new Date((promoted.body as OfferBody).offer.expiresAt));

    const g2 = await joined(t, owner, v.id, { name: 'G2', partySize: 2 });
    expect([g2.position, g2.quote]).toEqual([1, 'position 1 (0 ahead)']);
  });

  it('keep-place: the desk reads and corrects a party whose hold lapsed as waiting, not as holding an offer', async () => {
    clock.set(SATURDAY_NOON_SYDNEY);
    owner = await signIn(t, owner.email, owner.password);
    const v = await liveRestaurant({ onOfferExpired: 'keep-place' });
    const a = await joined(t, owner, v.id, party(2));
    const o = await offer(v.id, a.entry, v.tables[0] as string);
    const read = async (): Promise<{ status: string; version: number }> =>
      (
        (await request(t.baseUrl).get(`/v1/venues/${v.id}/queue/${a.entry.id}`).set(owner.auth).expect(200)).body as {
          entry: { status: string; version: number };
        }
      ).entry;
    const offered = await read();
    expect(offered.status).toBe('offered');
    clock.set(new Date(o.offer.expiresAt));

    // The host's sheet was read while the offer was live: the party changed since (its hold lapsed).
    // It was refused "Withdraw the live offer before changing the party size." for an offer that had ended.
    const stale = await request(t.baseUrl)
      .patch(`/v1/venues/${v.id}/queue/${a.entry.id}`)
      .set(owner.auth)
      .send({ entryVersion: offered.version, partySize: 3 });
    expect([stale.status, (stale.body as { error: { code: string } }).error.code]).toEqual([409, 'WAITLIST_STALE']);
    const now = await read();
    expect(now.status).toBe('waiting');
    await request(t.baseUrl)
      .patch(`/v1/venues/${v.id}/queue/${a.entry.id}`)
      .set(owner.auth)
      .send({ entryVersion: now.version, partySize: 3 })
      .expect(200);
  });

  it('leave-queue: a party out of the queue with its lapsed hold gets no new queue code', async () => {
    clock.set(SATURDAY_NOON_SYDNEY);
    owner = await signIn(t, owner.email, owner.password);
    const v = await liveRestaurant({ onOfferExpired: 'leave-queue' });
    const a = await joined(t, owner, v.id, party(2));
    const o = await offer(v.id, a.entry, v.tables[0] as string);
    clock.set(new Date(o.offer.expiresAt));

    const replaced = await request(t.baseUrl).post(`/v1/venues/${v.id}/queue/${a.entry.id}/token`).set(owner.auth);
    expect([replaced.status, (replaced.body as { error?: { code: string } }).error?.code]).toEqual([
      409,
      'WAITLIST_OFFER_CONFLICT',
    ]);
  });

  it('a workshop: the reservation list reads a lapsed hold as expired, and its seats as free', async () => {
    clock.set(SATURDAY_NOON_SYDNEY);
    owner = await signIn(t, owner.email, owner.password);
    const v = await createVenue(t, owner, { preset: 'workshop', poolCapacity: 9, timeZone: 'Australia/Sydney' });
    await request(t.baseUrl)
      .patch(`/v1/venues/${v.id}`)
      .set(owner.auth)
      .send({ policy: { holdSeconds: 1330 } })
      .expect(200);
    await joined(t, owner, v.id, { name: 'G1', partySize: 4 });
    const promoted = (await request(t.baseUrl).post(`/v1/venues/${v.id}/promotions`).set(owner.auth).expect(201))
      .body as OfferBody & {
      reservation: { id: string };
    };
    clock.set(new Date(Date.parse(promoted.offer.expiresAt) - 1000));
    const before = await request(t.baseUrl).get(`/v1/venues/${v.id}/reservations`).set(owner.auth).expect(200);
    expect((before.body as Array<{ id: string; state: string }>).map((r) => [r.id, r.state])).toEqual([
      [promoted.reservation.id, 'HELD'],
    ]);
    clock.set(new Date(promoted.offer.expiresAt));
    const after = await request(t.baseUrl).get(`/v1/venues/${v.id}/reservations`).set(owner.auth).expect(200);
    expect((after.body as Array<{ id: string; state: string }>).map((r) => [r.id, r.state])).toEqual([
      [promoted.reservation.id, 'EXPIRED'],
    ]);
    const counts = await request(t.baseUrl).get(`/v1/venues/${v.id}/counts`).set(owner.auth).expect(200);
    expect(counts.body).toEqual({ capacity: 9, confirmed: 0, held: 0, available: 9 });
  });
});
