import request from 'supertest';
import { startApp, type TestApp } from '../support/test-app.js';
import { sandboxVenue, type ErrorBody } from '../support/restaurant.js';
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

    // The answer still says the pool's size; the cap itself is refused below.
    await request(t.baseUrl).patch(`/v1/venues/${venue.id}`).set(owner.auth).send({ queuePartyCap: 4 }).expect(400);
  });

  /**
   * A cap sent to a seat pool was taken (200) and stored, and changed nothing there: the pool takes
   * any group up to its seats (the guide). It is refused as poolCapacity is at a table venue, and a
   * request carrying it changes nothing else either; a table venue still takes it.
   */
  it('refuses a party cap at a seat pool, as a pool capacity is refused at a table venue', async () => {
    const venue = await sandboxVenue(t, owner, {
      preset: 'workshop',
      poolCapacity: 15,
      clock: '2026-12-10T21:00:00+13:45',
      timeZone: 'Pacific/Chatham',
    });
    const refused = await request(t.baseUrl)
      .patch(`/v1/venues/${venue.id}`)
      .set(owner.auth)
      .send({ name: 'Renamed with a cap', queuePartyCap: 6 })
      .expect(400);
    const err = (refused.body as ErrorBody).error;
    expect(err.code).toBe('VALIDATION');
    expect(err.message).toBe(
      'Queue party cap applies to table venues only: a seat pool takes any group of 1 up to its number of seats (policy.poolCapacity).',
    );
    expect(err.details).toMatchObject({ field: 'queuePartyCap', fields: [{ field: 'queuePartyCap' }] });
    const read = await request(t.baseUrl).get(`/v1/venues/${venue.id}`).set(owner.auth).expect(200);
    expect(read.body).toMatchObject({ name: 'The Test Kitchen', queuePartyCap: 15 });
    // The group of 15 the pool takes is still taken, whatever cap was sent.
    await request(t.baseUrl)
      .post(`/v1/venues/${venue.id}/queue`)
      .set(owner.auth)
      .send({ name: 'Fifteen', partySize: 15 })
      .expect(201);

    const tables = await sandboxVenue(t, owner, { clock: '2026-12-10T21:00:00+13:45', timeZone: 'Pacific/Chatham' });
    const taken = await request(t.baseUrl)
      .patch(`/v1/venues/${tables.id}`)
      .set(owner.auth)
      .send({ queuePartyCap: 6 })
      .expect(200);
    expect((taken.body as { queuePartyCap: number }).queuePartyCap).toBe(6);
  });

  /**
   * A pool's policy is fixed once anyone has joined or registered, and Set up offered its seats, hold
   * and order as editable all the same: a change was refused with the whole save (a new name too).
   * The venue read says so, so the page can show them as fixed.
   */
  it('says in the venue read when a seat pool’s policy is fixed', async () => {
    const venue = await sandboxVenue(t, owner, {
      preset: 'workshop',
      poolCapacity: 13,
      clock: '2026-12-10T23:20:00-03:30',
      timeZone: 'America/St_Johns',
    });
    const read = async (id: string): Promise<unknown> =>
      ((await request(t.baseUrl).get(`/v1/venues/${id}`).set(owner.auth).expect(200)).body as { policyFixed: unknown })
        .policyFixed;
    expect(await read(venue.id)).toBe(false);
    await request(t.baseUrl)
      .post(`/v1/venues/${venue.id}/queue`)
      .set(owner.auth)
      .send({ name: 'Ngaio', partySize: 4 })
      .expect(201);
    expect(await read(venue.id)).toBe(true);
    await request(t.baseUrl)
      .patch(`/v1/venues/${venue.id}`)
      .set(owner.auth)
      .send({ policy: { holdSeconds: 540 } })
      .expect(422);

    // A table venue's policy may change at any time.
    const tables = await sandboxVenue(t, owner, { clock: '2026-12-10T21:00:00+13:45', timeZone: 'Pacific/Chatham' });
    await request(t.baseUrl)
      .post(`/v1/venues/${tables.id}/queue`)
      .set(owner.auth)
      .send({ name: 'Rangi', partySize: 2, email: 'rangi@example.test' })
      .expect(201);
    expect(await read(tables.id)).toBe(false);
  });
});
