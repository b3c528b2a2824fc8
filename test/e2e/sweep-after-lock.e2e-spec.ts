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

/**
 * Issue 18: an offer and an acceptance ask the sweep's question (a hold past its deadline, an ended
 * day, tables held from one) after their venue lock, in the lock's own write; when anything is due
 * the sweep commits in a transaction of its own and the decision runs in a new one: no decision is
 * taken on a hold past its deadline, and a refusal keeps what the sweep did. On a live venue with a manual clock, so a hold lapses with nobody sweeping.
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
});
