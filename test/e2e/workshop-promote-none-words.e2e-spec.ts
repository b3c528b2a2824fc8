import request from 'supertest';
import { startApp, type TestApp } from '../support/test-app.js';
import { createVenue, signUp, type Staff } from '../support/staff.js';

/**
 * A workshop whose every waiting group has been promoted: a further Promote answered "The queue is
 * empty." while the queue still listed the groups holding seats (API.md: nobody to promote is a 200
 * with the reason). The reason now says what is true: no group waits, and how many hold seats. A
 * 9-seat pool in Lisbon, 25-minute holds.
 */
describe('a promotion with nobody waiting says who holds seats', () => {
  let t: TestApp;
  let owner: Staff;
  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'organizer');
  });
  afterAll(() => t.close());

  async function workshop(): Promise<string> {
    const venueId = (
      await createVenue(t, owner, {
        name: 'Tile Painting',
        preset: 'workshop',
        poolCapacity: 9,
        timeZone: 'Europe/Lisbon',
        sandbox: true,
        clock: '2026-11-14T10:17:00Z',
      })
    ).id;
    await request(t.baseUrl)
      .patch(`/v1/venues/${venueId}`)
      .set(owner.auth)
      .send({ policy: { holdSeconds: 1500 } })
      .expect(200);
    return venueId;
  }
  const join = (venueId: string, name: string, partySize: number) =>
    request(t.baseUrl).post(`/v1/venues/${venueId}/queue`).set(owner.auth).send({ name, partySize }).expect(201);
  const promote = (venueId: string) => request(t.baseUrl).post(`/v1/venues/${venueId}/promotions`).set(owner.auth);

  it('two groups holding, none waiting: the reason names both facts', async () => {
    const venueId = await workshop();
    await join(venueId, 'Azulejo Four', 4);
    await join(venueId, 'Cobalt Pair', 2);
    await promote(venueId).expect(201);
    await promote(venueId).expect(201);
    const none = await promote(venueId).expect(200);
    expect(none.body).toEqual({ offer: null, reason: 'No group is waiting; two groups hold seats.' });
  });

  it('one group holding: singular words', async () => {
    const venueId = await workshop();
    await join(venueId, 'Glaze Trio', 3);
    await promote(venueId).expect(201);
    const none = await promote(venueId).expect(200);
    expect(none.body).toEqual({ offer: null, reason: 'No group is waiting; one group holds seats.' });
  });

  it('nobody waiting and nobody holding: the queue is empty', async () => {
    const venueId = await workshop();
    const none = await promote(venueId).expect(200);
    expect(none.body).toEqual({ offer: null, reason: 'The queue is empty.' });
  });
});
