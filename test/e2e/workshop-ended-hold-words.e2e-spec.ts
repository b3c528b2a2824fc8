import request from 'supertest';
import { errorOf, exchange, joined, queueSession, sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';

/**
 * A group taps "Accept the hold" on its phone just after the organizer took the hold back (its page
 * had not read the change yet), or taps it twice; the organizer taps "Take back" on a hold the group
 * had just accepted. The answer, which the guest page and the board show as they get it, said "This
 * offer is no longer open." at a seat pool, whose page and board speak only of holds ("The hold
 * expired and its seats were released." for a lapse). A restaurant keeps the spec's words.
 * A 13-seat workshop with 7-minute holds, in Kolkata time.
 */
describe('an ended hold refused in a workshop’s words', () => {
  let t: TestApp;
  let owner: Staff;
  let pool: Sandbox;

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'organizer');
    pool = await sandboxVenue(t, owner, {
      name: 'Quandong Studio',
      timeZone: 'Asia/Kolkata',
      clock: '2026-12-11T09:40:00+05:30',
      preset: 'workshop',
      poolCapacity: 13,
      patch: { policy: { holdSeconds: 420 } },
    });
  });
  afterAll(() => t.close());

  const api = () => request(t.baseUrl);
  const promote = async (venueId: string): Promise<string> =>
    (
      (await api().post(`/v1/venues/${venueId}/promotions`).set(owner.auth).send({}).expect(201)).body as {
        offer: { id: string };
      }
    ).offer.id;
  const sessionOf = async (token: string | null): Promise<{ Authorization: string }> =>
    queueSession(((await exchange(t, token ?? '').expect(201)).body as { sessionToken: string }).sessionToken);

  it('an accept after the organizer took the hold back, and a second accept, say the hold is no longer open', async () => {
    const taken = await joined(t, owner, pool.id, { name: 'Aroha Group', partySize: 5, email: 'aroha@example.test' });
    const takenSession = await sessionOf(taken.queueToken);
    const takenHold = await promote(pool.id);
    await api().post(`/v1/venues/${pool.id}/offers/${takenHold}/withdraw`).set(owner.auth).send({}).expect(200);
    const late = await api().post('/v1/queue-session/accept').set(takenSession).send({ offerId: takenHold }).expect(409);
    expect(errorOf(late)).toMatchObject({ code: 'WAITLIST_OFFER_CONFLICT', message: 'This hold is no longer open.' });

    const twice = await joined(t, owner, pool.id, { name: 'Hine Group', partySize: 3, email: 'hine@example.test' });
    const twiceSession = await sessionOf(twice.queueToken);
    const hold = await promote(pool.id);
    await api().post('/v1/queue-session/accept').set(twiceSession).send({ offerId: hold }).expect(200);
    const again = await api().post('/v1/queue-session/accept').set(twiceSession).send({ offerId: hold }).expect(409);
    expect(errorOf(again)).toMatchObject({ code: 'WAITLIST_OFFER_CONFLICT', message: 'This hold is no longer open.' });

    // The organizer's "Take back" of the hold the group has just accepted.
    const back = await api().post(`/v1/venues/${pool.id}/offers/${hold}/withdraw`).set(owner.auth).send({}).expect(409);
    expect(errorOf(back)).toMatchObject({ code: 'WAITLIST_OFFER_CONFLICT', message: 'This hold is no longer open.' });
  });

  it('at a restaurant the same refusals keep the spec’s “This offer is no longer open.”', async () => {
    const v = await sandboxVenue(t, owner, {
      name: 'Kererū Kitchen',
      timeZone: 'Asia/Kolkata',
      clock: '2026-12-11T19:40:00+05:30',
      tables: [{ label: 'Patio 7', capacity: 4 }],
    });
    const p = await joined(t, owner, v.id, { name: 'Hemi Party', partySize: 3, email: 'hemi@example.test' });
    const session = await sessionOf(p.queueToken);
    const made = await api()
      .post(`/v1/venues/${v.id}/offers`)
      .set(owner.auth)
      .send({ entryId: p.entry.id, entryVersion: p.entry.version, tableIds: [v.tableIds['Patio 7']] })
      .expect(201);
    const offerId = (made.body as { offer: { id: string } }).offer.id;
    await api().post('/v1/queue-session/accept').set(session).send({ offerId }).expect(200);
    const again = await api().post('/v1/queue-session/accept').set(session).send({ offerId }).expect(409);
    expect(errorOf(again)).toMatchObject({ code: 'WAITLIST_OFFER_CONFLICT', message: 'This offer is no longer open.' });
    const back = await api().post(`/v1/venues/${v.id}/offers/${offerId}/withdraw`).set(owner.auth).send({}).expect(409);
    expect(errorOf(back)).toMatchObject({ code: 'WAITLIST_OFFER_CONFLICT', message: 'This offer is no longer open.' });
  });
});
