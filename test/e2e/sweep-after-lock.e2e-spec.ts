import request from 'supertest';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { violations } from '../support/invariants.js';
import { EVERY_DAY, joined, party, refusal } from '../support/restaurant.js';
import { ManualClock, startApp, type TestApp } from '../support/test-app.js';
import { createVenue, signIn, signUp, type Staff } from '../support/staff.js';

interface OfferBody {
  offer: { id: string; reservationId: string; state: string };
}

const FRIDAY_6PM = new Date('2026-10-09T23:00:00.000Z'); // Chicago
const HOLD_MS = 300_000;

const WORKSHOP_HOLD_MS = 1_800_000;

/**
 * Issue 18: an offer, an acceptance, a promotion, a withdrawal, a cancellation and a booking ask the
 * sweep's question (a hold past its deadline, an ended day, tables held from one) after their venue
 * lock, in the lock's own write; when anything is due the sweep commits in a transaction of its own
 * and the command runs again in a new one: no decision is taken on a hold past its deadline, and a
 * refusal keeps what the sweep did. On a live venue with a manual clock, so a hold lapses with nobody
 * sweeping.
 */
describe('the sweep asked after the venue lock', () => {
  let t: TestApp;
  let owner: Staff;
  const clock = new ManualClock(FRIDAY_6PM);
  const ds = (): DataSource => t.app.get<DataSource>(getDataSourceToken());

  beforeAll(async () => {
    t = await startApp({ clock });
    owner = await signUp(t, 'owner');
  });
  afterEach(async () => expect(await violations(ds())).toEqual([]));
  afterAll(() => t.close());

  /** A live restaurant with a 17:00–23:00 service every day and one 2-top. */
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
  const offer = (v: { id: string; tableId: string }, entry: { id: string; version: number }): request.Test =>
    request(t.baseUrl)
      .post(`/v1/venues/${v.id}/offers`)
      .set(owner.auth)
      .send({ entryId: entry.id, entryVersion: entry.version, tableIds: [v.tableId] });
  const accept = (v: { id: string }, offerId: string): request.Test =>
    request(t.baseUrl).post(`/v1/venues/${v.id}/offers/${offerId}/accept`).set(owner.auth).send({});
  const offerState = async (id: string): Promise<string | undefined> =>
    ((await ds().query('SELECT state FROM offers WHERE id = $1', [id])) as Array<{ state: string }>)[0]?.state;
  const expiries = async (offerId: string): Promise<Array<{ actor: string }>> =>
    (await ds().query(`SELECT actor FROM history WHERE subject_id = $1 AND to_state = 'expired'`, [offerId])) as Array<{
      actor: string;
    }>;

  /** A live workshop (strict order, holds of 30 minutes) with `seats` seats and `onOfferExpired`. */
  const liveWorkshop = async (seats: number, onOfferExpired: 'keep-place' | 'leave-queue'): Promise<{ id: string }> => {
    const v = await createVenue(t, owner, { preset: 'workshop', poolCapacity: seats });
    await request(t.baseUrl).patch(`/v1/venues/${v.id}`).set(owner.auth).send({ policy: { onOfferExpired } }).expect(200);
    return v;
  };
  const promote = (v: { id: string }): request.Test =>
    request(t.baseUrl).post(`/v1/venues/${v.id}/promotions`).set(owner.auth).send({});
  const groupJoins = async (v: { id: string }, partySize: number): Promise<string> =>
    (
      (await request(t.baseUrl).post(`/v1/venues/${v.id}/queue`).set(owner.auth).send({ name: 'Group', partySize }).expect(201))
        .body as { entry: { id: string } }
    ).entry.id;
  const withdraw = (v: { id: string }, offerId: string): request.Test =>
    request(t.baseUrl).post(`/v1/venues/${v.id}/offers/${offerId}/withdraw`).set(owner.auth).send({});
  const cancelEntry = (v: { id: string }, entryId: string): request.Test =>
    request(t.baseUrl).post(`/v1/venues/${v.id}/queue/${entryId}/cancel`).set(owner.auth).send({});
  const cancelReservation = (v: { id: string }, reservationId: string): request.Test =>
    request(t.baseUrl).post(`/v1/venues/${v.id}/reservations/${reservationId}/cancel`).set(owner.auth).send({});
  const book = (v: { id: string }, partySize: number): request.Test =>
    request(t.baseUrl).post(`/v1/venues/${v.id}/reservations`).set(owner.auth).send({ name: 'Walk-up', partySize });
  const UNKNOWN = '00000000-0000-4000-8000-000000000000';

  beforeEach(async () => {
    clock.set(FRIDAY_6PM);
    owner = await signIn(t, owner.email, owner.password);
  });

  it('accepts a millisecond before the deadline, and at the deadline expires the hold once and refuses', async () => {
    const v = await liveRestaurant();
    const a = await joined(t, owner, v.id, party(2));
    const made = (await offer(v, a.entry).expect(201)).body as OfferBody;
    clock.advance(HOLD_MS - 1);
    await accept(v, made.offer.id).expect(200);

    const w = await liveRestaurant();
    const c = await joined(t, owner, w.id, party(2));
    const lapsing = (await offer(w, c.entry).expect(201)).body as OfferBody;
    clock.advance(HOLD_MS); // exactly at its deadline; nothing has swept
    expect(await offerState(lapsing.offer.id)).toBe('live');
    const res = await accept(w, lapsing.offer.id);
    expect(refusal(res)).toEqual({ status: 409, code: 'WAITLIST_OFFER_EXPIRED' });
    // The refusal kept the sweep's expiry: recorded once, by the system.
    expect(await offerState(lapsing.offer.id)).toBe('expired');
    expect(await expiries(lapsing.offer.id)).toEqual([{ actor: 'system' }]);
    expect(refusal(await accept(w, lapsing.offer.id))).toEqual({ status: 409, code: 'WAITLIST_OFFER_EXPIRED' });
    expect(await expiries(lapsing.offer.id)).toHaveLength(1);
  });

  /** The transaction that last wrote the offer's row (PostgreSQL's xmin). */
  const writtenBy = async (offerId: string): Promise<string> =>
    ((await ds().query('SELECT xmin::text AS x FROM offers WHERE id = $1', [offerId])) as Array<{ x: string }>)[0]!.x;

  it('offers a table whose hold has lapsed: the lapsed offer expires first, in a transaction of its own', async () => {
    const v = await liveRestaurant();
    const a = await joined(t, owner, v.id, party(2));
    const b = await joined(t, owner, v.id, party(2));
    const first = (await offer(v, a.entry).expect(201)).body as OfferBody;
    // B's offer of the same table is refused while A holds it...
    expect(refusal(await offer(v, b.entry))).toMatchObject({ status: 409 });
    clock.advance(HOLD_MS);
    // ...and made once A's hold has lapsed, with nobody having swept in between.
    expect(await offerState(first.offer.id)).toBe('live');
    const second = (await offer(v, b.entry).expect(201)).body as OfferBody;
    expect(second.offer.state).toBe('live');
    expect(await offerState(first.offer.id)).toBe('expired');
    expect(await expiries(first.offer.id)).toEqual([{ actor: 'system' }]);
    // The spec: the sweep before an offer runs "in its own committed transaction".
    expect(await writtenBy(first.offer.id)).not.toBe(await writtenBy(second.offer.id));
  });

  it('a refused offer keeps the expiry its sweep recorded', async () => {
    const v = await liveRestaurant();
    const a = await joined(t, owner, v.id, party(2));
    const b = await joined(t, owner, v.id, party(2));
    const first = (await offer(v, a.entry).expect(201)).body as OfferBody;
    clock.advance(HOLD_MS + 1);
    const stale = await offer(v, { id: b.entry.id, version: b.entry.version + 7 });
    expect(refusal(stale)).toEqual({ status: 409, code: 'WAITLIST_STALE' });
    expect(await offerState(first.offer.id)).toBe('expired');
    expect(await expiries(first.offer.id)).toEqual([{ actor: 'system' }]);
  });
  it('promotes after a hold that lapsed at its now: the hold expires first, once, and its seats go to the next group', async () => {
    const v = await liveWorkshop(2, 'leave-queue');
    const a = await groupJoins(v, 2);
    const b = await groupJoins(v, 2);
    const first = (await promote(v).expect(201)).body as OfferBody & { offer: { entryId: string } };
    expect(first.offer.entryId).toBe(a);
    // No seat is left while A holds both...
    expect(((await promote(v).expect(200)).body as { offer: null }).offer).toBeNull();
    clock.advance(WORKSHOP_HOLD_MS); // exactly at its deadline; nothing has swept
    expect(await offerState(first.offer.id)).toBe('live');
    const next = (await promote(v).expect(201)).body as { offer: { id: string; entryId: string } };
    expect(next.offer.entryId).toBe(b);
    expect(await offerState(first.offer.id)).toBe('expired');
    expect(await expiries(first.offer.id)).toEqual([{ actor: 'system' }]);
    // ARCHITECTURE.md: before a promotion the sweep runs "in its own committed transaction".
    expect(await writtenBy(first.offer.id)).not.toBe(await writtenBy(next.offer.id));
  });

  it('a promotion that finds nobody to promote keeps the expiry its sweep recorded', async () => {
    const v = await liveWorkshop(2, 'leave-queue');
    await groupJoins(v, 2);
    const first = (await promote(v).expect(201)).body as OfferBody;
    clock.advance(WORKSHOP_HOLD_MS + 1);
    const none = (await promote(v).expect(200)).body as { offer: null; reason: string };
    expect(none).toEqual({ offer: null, reason: 'The queue is empty.' });
    expect(await offerState(first.offer.id)).toBe('expired');
    expect(await expiries(first.offer.id)).toEqual([{ actor: 'system' }]);
  });

  it('a withdrawal of a hold that lapsed at its now is refused as expired, and the expiry is kept once', async () => {
    const v = await liveRestaurant();
    const a = await joined(t, owner, v.id, party(2));
    const made = (await offer(v, a.entry).expect(201)).body as OfferBody;
    clock.advance(HOLD_MS);
    expect(await offerState(made.offer.id)).toBe('live');
    expect(refusal(await withdraw(v, made.offer.id))).toEqual({ status: 409, code: 'WAITLIST_OFFER_EXPIRED' });
    expect(await offerState(made.offer.id)).toBe('expired');
    expect(await expiries(made.offer.id)).toEqual([{ actor: 'system' }]);
    // Another venue's hold: the withdrawal of an unknown offer is refused and still keeps the sweep.
    const w = await liveRestaurant();
    const c = await joined(t, owner, w.id, party(2));
    const lapsing = (await offer(w, c.entry).expect(201)).body as OfferBody;
    clock.advance(HOLD_MS);
    expect(refusal(await withdraw(w, UNKNOWN))).toMatchObject({ status: 404 });
    expect(await offerState(lapsing.offer.id)).toBe('expired');
    expect(await expiries(lapsing.offer.id)).toEqual([{ actor: 'system' }]);
  });

  it('cancels an entry whose hold lapsed at its now: the offer is recorded as expired, not cancelled', async () => {
    const v = await liveRestaurant();
    const a = await joined(t, owner, v.id, party(2));
    const made = (await offer(v, a.entry).expect(201)).body as OfferBody;
    clock.advance(HOLD_MS);
    const res = await cancelEntry(v, a.entry.id).expect(200);
    // keep-place: the lapsed hold put A back to waiting, and A then left the queue.
    expect((res.body as { entry: { status: string } }).entry.status).toBe('cancelled');
    expect(await offerState(made.offer.id)).toBe('expired');
    expect(await expiries(made.offer.id)).toEqual([{ actor: 'system' }]);
    // A refused cancellation (no such entry) keeps its sweep's expiry.
    const b = await joined(t, owner, v.id, party(2));
    const second = (await offer(v, b.entry).expect(201)).body as OfferBody;
    clock.advance(HOLD_MS + 1);
    expect(refusal(await cancelEntry(v, UNKNOWN))).toMatchObject({ status: 404 });
    expect(await offerState(second.offer.id)).toBe('expired');
    expect(await expiries(second.offer.id)).toEqual([{ actor: 'system' }]);
  });

  it('cancels a reservation whose hold lapsed at its now: it reads EXPIRED, and a refused cancellation keeps the expiry', async () => {
    const v = await liveRestaurant();
    const a = await joined(t, owner, v.id, party(2));
    const made = (await offer(v, a.entry).expect(201)).body as OfferBody;
    clock.advance(HOLD_MS);
    const res = await cancelReservation(v, made.offer.reservationId).expect(200);
    expect((res.body as { reservation: { state: string } }).reservation.state).toBe('EXPIRED');
    expect(await offerState(made.offer.id)).toBe('expired');
    expect(await expiries(made.offer.id)).toEqual([{ actor: 'system' }]);
    const b = await joined(t, owner, v.id, party(2));
    const second = (await offer(v, b.entry).expect(201)).body as OfferBody;
    clock.advance(HOLD_MS);
    expect(refusal(await cancelReservation(v, UNKNOWN))).toMatchObject({ status: 404 });
    expect(await offerState(second.offer.id)).toBe('expired');
    expect(await expiries(second.offer.id)).toEqual([{ actor: 'system' }]);
  });

  it('books seats a hold that lapsed at its now kept; a booking refused after the sweep keeps the expiry', async () => {
    const v = await liveWorkshop(2, 'leave-queue');
    await groupJoins(v, 2);
    const held = (await promote(v).expect(201)).body as OfferBody;
    expect(refusal(await book(v, 2))).toMatchObject({ status: 409 });
    clock.advance(WORKSHOP_HOLD_MS);
    await book(v, 2).expect(201);
    expect(await offerState(held.offer.id)).toBe('expired');
    expect(await expiries(held.offer.id)).toEqual([{ actor: 'system' }]);
    // keep-place: the lapsed group goes back to waiting, so a desk booking is refused (groups wait)
    // and the expiry that put it there is kept.
    const w = await liveWorkshop(2, 'keep-place');
    await groupJoins(w, 2);
    const kept = (await promote(w).expect(201)).body as OfferBody;
    clock.advance(WORKSHOP_HOLD_MS);
    expect(refusal(await book(w, 2))).toEqual({ status: 422, code: 'RULE_VIOLATION' });
    expect(await offerState(kept.offer.id)).toBe('expired');
    expect(await expiries(kept.offer.id)).toEqual([{ actor: 'system' }]);
  });
});
