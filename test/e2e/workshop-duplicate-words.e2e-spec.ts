import request from 'supertest';
import { deskJoin, errorOf, joined, sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';

/**
 * A workshop that keeps one request per contact refused a second request from the same email with
 * the restaurant spec's "This contact is already in the queue for today.", which its board shows
 * above the group's row. The workshop spec gives no words for it: a pool says so of a group, plainly.
 * A restaurant keeps the spec's words, exactly. A 13-seat workshop with 7-minute holds, in Halifax time.
 */
describe('a duplicate contact refused in a workshop’s words', () => {
  let t: TestApp;
  let owner: Staff;
  let pool: Sandbox;

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'organizer');
    pool = await sandboxVenue(t, owner, {
      name: 'Kōwhai Print Studio',
      timeZone: 'America/Halifax',
      clock: '2026-12-11T09:40:00-04:00',
      preset: 'workshop',
      poolCapacity: 13,
      patch: { policy: { holdSeconds: 420, oneEntryPerContact: true } },
    });
  });
  afterAll(() => t.close());

  const POOL_WORDS = 'This contact already has a group in the queue for today.';

  it('a second request from the same contact, at the desk and by a correction, speaks of a group', async () => {
    const first = await joined(t, owner, pool.id, { name: 'Tui Group', partySize: 4, email: 'tui@example.test' });
    const again = await deskJoin(t, owner, pool.id, { name: 'Tui Again', partySize: 2, email: 'tui@example.test' }).expect(409);
    expect(errorOf(again)).toEqual({ code: 'WAITLIST_DUPLICATE', message: POOL_WORDS, details: { entryId: first.entry.id } });

    const other = await joined(t, owner, pool.id, { name: 'Kea Group', partySize: 3, email: 'kea@example.test' });
    const corrected = await request(t.baseUrl)
      .patch(`/v1/venues/${pool.id}/queue/${other.entry.id}`)
      .set(owner.auth)
      .send({ entryVersion: other.entry.version, email: 'tui@example.test' })
      .expect(409);
    expect(errorOf(corrected)).toEqual({ code: 'WAITLIST_DUPLICATE', message: POOL_WORDS, details: { entryId: first.entry.id } });
  });

  it('at a restaurant the same refusal keeps the spec’s words', async () => {
    const v = await sandboxVenue(t, owner, {
      name: 'Kererū Kitchen',
      timeZone: 'America/Halifax',
      clock: '2026-12-11T19:40:00-04:00',
      tables: [{ label: 'Window 3', capacity: 5 }],
    });
    await joined(t, owner, v.id, { name: 'Hemi Party', partySize: 3, email: 'hemi@example.test' });
    const again = await deskJoin(t, owner, v.id, { name: 'Hemi Again', partySize: 2, email: 'hemi@example.test' }).expect(409);
    expect(errorOf(again)).toMatchObject({
      code: 'WAITLIST_DUPLICATE',
      message: 'This contact is already in the queue for today.',
    });
  });
});
