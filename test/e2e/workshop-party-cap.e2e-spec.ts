import request from 'supertest';
import { startApp, type TestApp } from '../support/test-app.js';
import { sandboxVenue } from '../support/restaurant.js';
import { signUp, type Staff } from '../support/staff.js';

/**
 * The workshop guide: "Party size | A whole number from 1 through 12" (the pool's capacity), and its
 * boundary test "Whole capacity: request 12 seats → one 12-seat hold". The join applies exactly that,
 * yet the venue read reported the restaurant's queue cap (8) for a seat pool: a client that believed
 * it turned away a group of 12 the venue takes. At a seat pool the read reports the cap that applies.
 */
describe('a seat-pool venue reports the group size it applies', () => {
  let t: TestApp;
  let owner: Staff;
  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'organizer-cap');
  });
  afterAll(() => t.close());

  it('reads the pool size as its largest group, takes a group of that size and refuses one more', async () => {
    const venue = await sandboxVenue(t, owner, {
      preset: 'workshop',
      poolCapacity: 12,
      clock: '2026-10-09T09:00:00-05:00',
      timeZone: 'America/Chicago',
    });
    const read = await request(t.baseUrl).get(`/v1/venues/${venue.id}`).set(owner.auth).expect(200);
    expect((read.body as { queuePartyCap: number }).queuePartyCap).toBe(12);
    const listed = await request(t.baseUrl).get('/v1/venues').set(owner.auth).expect(200);
    expect((listed.body as Array<{ id: string; queuePartyCap: number }>).find((v) => v.id === venue.id)?.queuePartyCap).toBe(12);

    await request(t.baseUrl)
      .post(`/v1/venues/${venue.id}/queue`)
      .set(owner.auth)
      .send({ name: 'Thirteen', partySize: 13 })
      .expect(400);
    await request(t.baseUrl)
      .post(`/v1/venues/${venue.id}/queue`)
      .set(owner.auth)
      .send({ name: 'Twelve', partySize: 12 })
      .expect(201);

    // A cap sent for a seat pool is kept for nothing it applies: the answer still says the pool's size.
    const patched = await request(t.baseUrl)
      .patch(`/v1/venues/${venue.id}`)
      .set(owner.auth)
      .send({ queuePartyCap: 4 })
      .expect(200);
    expect((patched.body as { queuePartyCap: number }).queuePartyCap).toBe(12);
  });
});
