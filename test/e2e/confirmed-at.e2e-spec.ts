import request from 'supertest';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';
import { joined, moveClock, sandboxVenue } from '../support/restaurant.js';

type Row = { id: string; state: string; updatedAt: string; confirmedAt?: string | null };

/**
 * When a booking was confirmed was read from the reservation's `updated_at`, which every later
 * change moves (a cancellation, a seating): the board's "Confirmed …" and the API's reservation then
 * said the time of that later change. The reservation now keeps `confirmedAt`, written once, when it
 * became CONFIRMED (an acceptance, or a booking made confirmed). An 11-seat pool in Montevideo and a
 * two-table room in Tallinn, on practice clocks.
 */
describe('a reservation keeps the instant it was confirmed', () => {
  let t: TestApp;
  let owner: Staff;
  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'organizer');
  });
  afterAll(() => t.close());

  const rows = async (venueId: string): Promise<Row[]> =>
    (await request(t.baseUrl).get(`/v1/venues/${venueId}/reservations`).set(owner.auth).expect(200)).body as Row[];

  it('a workshop group: accepted at 10:41, cancelled at 11:26, still confirmed at 10:41', async () => {
    const v = await sandboxVenue(t, owner, {
      name: 'Candombe Drums',
      timeZone: 'America/Montevideo',
      clock: '2026-11-19T10:33:00-03:00',
      preset: 'workshop',
      poolCapacity: 11,
      patch: { policy: { holdSeconds: 1320 } },
    });
    await joined(t, owner, v.id, { name: 'Tambor Four', partySize: 4, email: 'tambor@example.test' });
    const promoted = await request(t.baseUrl).post(`/v1/venues/${v.id}/promotions`).set(owner.auth).expect(201);
    const offer = (promoted.body as { offer: { id: string; reservationId: string } }).offer;
    await moveClock(t, owner, v.id, '2026-11-19T10:41:17-03:00');
    const accepted = await request(t.baseUrl).post(`/v1/venues/${v.id}/offers/${offer.id}/accept`).set(owner.auth).expect(200);
    const confirmedAt = '2026-11-19T13:41:17.000Z';
    expect((accepted.body as { reservation: Row }).reservation.confirmedAt).toBe(confirmedAt);
    expect((await rows(v.id)).find((r) => r.id === offer.reservationId)?.confirmedAt).toBe(confirmedAt);

    await moveClock(t, owner, v.id, '2026-11-19T11:26:00-03:00');
    await request(t.baseUrl).post(`/v1/venues/${v.id}/reservations/${offer.reservationId}/cancel`).set(owner.auth).expect(200);
    const after = (await rows(v.id)).find((r) => r.id === offer.reservationId);
    expect(after).toMatchObject({ state: 'CANCELLED', updatedAt: '2026-11-19T14:26:00.000Z', confirmedAt });
  });

  it('a registration made confirmed is confirmed when made; a hold that lapsed never was', async () => {
    const v = await sandboxVenue(t, owner, {
      name: 'Candombe Strings',
      timeZone: 'America/Montevideo',
      clock: '2026-11-19T16:07:00-03:00',
      preset: 'workshop',
      poolCapacity: 11,
      patch: { policy: { holdSeconds: 1320 } },
    });
    const made = await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/reservations`)
      .set(owner.auth)
      .send({ name: 'Guitarra Pair', partySize: 2 })
      .expect(201);
    expect((made.body as Row).confirmedAt).toBe('2026-11-19T19:07:00.000Z');
    await joined(t, owner, v.id, { name: 'Bandoneón Trio', partySize: 3, email: 'bandoneon@example.test' });
    const promoted = await request(t.baseUrl).post(`/v1/venues/${v.id}/promotions`).set(owner.auth).expect(201);
    const held = (promoted.body as { reservation: Row }).reservation;
    expect(held.confirmedAt).toBeNull();
    await moveClock(t, owner, v.id, '2026-11-19T16:40:00-03:00');
    expect((await rows(v.id)).find((r) => r.id === held.id)).toMatchObject({ state: 'EXPIRED', confirmedAt: null });
  });

  it('a restaurant party seated at 20:52 was confirmed at 20:14, its acceptance', async () => {
    const v = await sandboxVenue(t, owner, {
      name: 'Vana Tallinn Room',
      timeZone: 'Europe/Tallinn',
      clock: '2026-11-20T20:11:00+02:00',
      tables: [{ label: 'Aken 2', capacity: 4 }],
    });
    const kai = await joined(t, owner, v.id, { name: 'Kai Tamm', partySize: 3, email: 'kai@example.test' });
    const made = await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/offers`)
      .set(owner.auth)
      .send({ entryId: kai.entry.id, entryVersion: kai.entry.version, tableIds: [v.tableIds['Aken 2']] })
      .expect(201);
    const offer = (made.body as { offer: { id: string; reservationId: string } }).offer;
    await moveClock(t, owner, v.id, '2026-11-20T20:14:00+02:00');
    await request(t.baseUrl).post(`/v1/venues/${v.id}/offers/${offer.id}/accept`).set(owner.auth).expect(200);
    await moveClock(t, owner, v.id, '2026-11-20T20:52:00+02:00');
    await request(t.baseUrl).post(`/v1/venues/${v.id}/reservations/${offer.reservationId}/seat`).set(owner.auth).expect(201);
    expect((await rows(v.id)).find((r) => r.id === offer.reservationId)).toMatchObject({
      state: 'SEATED',
      updatedAt: '2026-11-20T18:52:00.000Z',
      confirmedAt: '2026-11-20T18:14:00.000Z',
    });
  });
});
