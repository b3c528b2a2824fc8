import request from 'supertest';
import { errorOf, joined, sandboxVenue } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';

interface Row {
  id: string;
  name: string;
  state: string;
}

/**
 * `GET …/reservations?state=`: a workshop board lists its confirmed groups on every board change, and
 * read them from every hold the pool had ever made (held, expired, cancelled) 500 at a time. The filter
 * answers one state, newest first, its Link to the next page keeping the filter; an unknown state is
 * refused. A 9-seat workshop with 4-minute holds in Santiago time.
 */
describe('the reservations list filtered by state', () => {
  let t: TestApp;
  let owner: Staff;

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'organizer');
  });
  afterAll(() => t.close());

  it('answers only the state asked for, page by page, and refuses a state that does not exist', async () => {
    const api = () => request(t.baseUrl);
    const v = await sandboxVenue(t, owner, {
      name: 'Pehuén Studio',
      timeZone: 'America/Santiago',
      clock: '2026-12-11T09:40:00-03:00',
      preset: 'workshop',
      poolCapacity: 9,
      patch: { policy: { holdSeconds: 240 } },
    });
    const promoteAndAccept = async (name: string, partySize: number, accept: boolean): Promise<string> => {
      await joined(t, owner, v.id, { name, partySize, email: `${name.split(' ')[0]?.toLowerCase()}@example.test` });
      const held = (await api().post(`/v1/venues/${v.id}/promotions`).set(owner.auth).send({}).expect(201)).body as {
        offer: { id: string; reservationId: string };
      };
      if (accept) await api().post(`/v1/venues/${v.id}/offers/${held.offer.id}/accept`).set(owner.auth).send({}).expect(200);
      return held.offer.reservationId;
    };
    const first = await promoteAndAccept('Lautaro Group', 2, true);
    const cancelled = await promoteAndAccept('Millaray Group', 3, true);
    await api().post(`/v1/venues/${v.id}/reservations/${cancelled}/cancel`).set(owner.auth).send({}).expect(200);
    const held = await promoteAndAccept('Rayén Group', 1, false);
    const second = await promoteAndAccept('Ñanco Group', 2, true);

    const all = (await api().get(`/v1/venues/${v.id}/reservations`).set(owner.auth).expect(200)).body as Row[];
    expect(all.map((r) => r.state).sort()).toEqual(['CANCELLED', 'CONFIRMED', 'CONFIRMED', 'HELD']);

    const confirmed = (await api().get(`/v1/venues/${v.id}/reservations?state=CONFIRMED`).set(owner.auth).expect(200))
      .body as Row[];
    // Newest first by (created_at, id): at a sandbox's standing clock they may share created_at.
    expect(confirmed.map((r) => r.id).sort()).toEqual([second, first].sort());
    const heldOnly = (await api().get(`/v1/venues/${v.id}/reservations?state=HELD`).set(owner.auth).expect(200)).body as Row[];
    expect(heldOnly.map((r) => r.id)).toEqual([held]);

    // One at a time: the next page's link keeps the filter, and the last page has none.
    const page1 = await api().get(`/v1/venues/${v.id}/reservations?state=CONFIRMED&limit=1`).set(owner.auth).expect(200);
    expect((page1.body as Row[]).map((r) => r.id)).toEqual([confirmed[0]?.id]);
    const next = /<([^>]+)>; rel="next"/.exec(String(page1.headers['link']))?.[1];
    expect(next).toContain('state=CONFIRMED');
    const page2 = await api()
      .get(next ?? '')
      .set(owner.auth)
      .expect(200);
    expect((page2.body as Row[]).map((r) => r.id)).toEqual([confirmed[1]?.id]);
    expect(page2.headers['link']).toBeUndefined();

    const refused = await api().get(`/v1/venues/${v.id}/reservations?state=confirmed`).set(owner.auth).expect(400);
    expect(errorOf(refused)).toMatchObject({ code: 'VALIDATION' });
    expect(JSON.stringify(refused.body)).toContain('State must be one of HELD, CONFIRMED, SEATED, COMPLETED, CANCELLED, EXPIRED');
  });
});
