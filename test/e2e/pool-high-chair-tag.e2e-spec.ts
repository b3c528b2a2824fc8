import request from 'supertest';
import { DataSource } from 'typeorm';
import { errorOf, joined, sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';

const POOL_HIGH_CHAIR = 'A seat pool has no tables to bring a high chair to: the high-chair tag is for table venues only.';

/**
 * The board's party sheet offers no "High chair" at a seat pool (web/board/src/tags.ts), but the
 * details route took `high-chair` on a workshop group from anyone calling the API. It is refused
 * there now, while a group that carries it from before can still have it taken off. A restaurant
 * takes it as always. An 11-seat workshop with 8-minute holds, in Reykjavik time.
 */
describe('the high-chair tag at a seat pool', () => {
  let t: TestApp;
  let owner: Staff;
  let pool: Sandbox;

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'organizer');
    pool = await sandboxVenue(t, owner, {
      name: 'Lóa Weaving Room',
      timeZone: 'Atlantic/Reykjavik',
      clock: '2026-12-14T10:20:00Z',
      preset: 'workshop',
      poolCapacity: 11,
      patch: { policy: { holdSeconds: 480 } },
    });
  });
  afterAll(() => t.close());

  const put = (venueId: string, entryId: string, body: object): request.Test =>
    request(t.baseUrl).put(`/v1/venues/${venueId}/queue/${entryId}/details`).set(owner.auth).send(body);
  const storedTags = async (entryId: string): Promise<string[]> => {
    const rows = (await t.app.get(DataSource).query('SELECT staff_tags FROM queue_entries WHERE id = $1', [entryId])) as Array<{
      staff_tags: string[] | null;
    }>;
    return rows[0]?.staff_tags ?? [];
  };

  it('a group is refused the tag, sent whole or as an addition, with the other tags left as they were', async () => {
    const group = await joined(t, owner, pool.id, { name: 'Hekla Group', partySize: 3, email: 'hekla@example.test' });
    await put(pool.id, group.entry.id, { tags: ['allergy'] }).expect(200);

    const whole = await put(pool.id, group.entry.id, { tags: ['high-chair', 'vip'] }).expect(400);
    expect(errorOf(whole)).toEqual({
      code: 'VALIDATION',
      message: POOL_HIGH_CHAIR,
      details: { field: 'tags', fields: [{ field: 'tags', message: POOL_HIGH_CHAIR }] },
    });
    const added = await put(pool.id, group.entry.id, { tags: ['allergy', 'high-chair'], tagsWas: ['allergy'] }).expect(400);
    expect(errorOf(added).message).toBe(POOL_HIGH_CHAIR);
    // With a note in the same request: nothing of it is saved.
    await put(pool.id, group.entry.id, { note: 'Brings a loom', tags: ['high-chair'] }).expect(400);
    expect(await storedTags(group.entry.id)).toEqual(['allergy']);

    // The pool's other tags are taken as before.
    const ok = await put(pool.id, group.entry.id, { tags: ['wheelchair', 'allergy'] }).expect(200);
    expect(ok.body).toEqual({ entryId: group.entry.id, note: null, tags: ['wheelchair', 'allergy'] });
  });

  it('a group that carries the tag from before keeps it through other changes and can have it taken off', async () => {
    const group = await joined(t, owner, pool.id, { name: 'Katla Group', partySize: 5, email: 'katla@example.test' });
    // An older row: the tag was taken before the refusal existed.
    await t.app.get(DataSource).query(`UPDATE queue_entries SET staff_tags = '{high-chair}' WHERE id = $1`, [group.entry.id]);

    const vip = await put(pool.id, group.entry.id, { tags: ['high-chair', 'vip'], tagsWas: ['high-chair'] }).expect(200);
    expect(vip.body).toMatchObject({ tags: ['high-chair', 'vip'] });
    await put(pool.id, group.entry.id, { note: 'Two looms' }).expect(200);
    expect(await storedTags(group.entry.id)).toEqual(['high-chair', 'vip']);

    const off = await put(pool.id, group.entry.id, { tags: ['vip'], tagsWas: ['high-chair', 'vip'] }).expect(200);
    expect(off.body).toEqual({ entryId: group.entry.id, note: 'Two looms', tags: ['vip'] });
    // Once off, it cannot be put back.
    await put(pool.id, group.entry.id, { tags: ['high-chair', 'vip'] }).expect(400);
  });

  it('a restaurant party takes the tag as before', async () => {
    const v = await sandboxVenue(t, owner, {
      name: 'Fjara Bistro',
      timeZone: 'Atlantic/Reykjavik',
      clock: '2026-12-14T18:10:00Z',
      tables: [{ label: 'Booth 6', capacity: 6 }],
    });
    const party = await joined(t, owner, v.id, { name: 'Sól Party', partySize: 4, email: 'sol@example.test' });
    const res = await put(v.id, party.entry.id, { tags: ['high-chair', 'allergy'] }).expect(200);
    expect(res.body).toEqual({ entryId: party.entry.id, note: null, tags: ['high-chair', 'allergy'] });
  });

  it('a join, desk or public, and a correction take no tags at all', async () => {
    const group = await joined(t, owner, pool.id, { name: 'Snæfell Group', partySize: 2, email: 'snaefell@example.test' });
    const corrected = await request(t.baseUrl)
      .patch(`/v1/venues/${pool.id}/queue/${group.entry.id}`)
      .set(owner.auth)
      .send({ entryVersion: group.entry.version, tags: ['high-chair'] })
      .expect(400);
    expect(errorOf(corrected).code).toBe('VALIDATION');
    expect(await storedTags(group.entry.id)).toEqual([]);
    const desk = await request(t.baseUrl)
      .post(`/v1/venues/${pool.id}/queue`)
      .set(owner.auth)
      .send({ name: 'Askja Group', partySize: 2, email: 'askja@example.test', tags: ['high-chair'] })
      .expect(400);
    expect(errorOf(desk).code).toBe('VALIDATION');
    await request(t.baseUrl).patch(`/v1/venues/${pool.id}`).set(owner.auth).send({ published: true }).expect(200);
    const pub = await request(t.baseUrl)
      .post(`/v1/public/venues/${pool.slug}/queue`)
      .send({ name: 'Esja Group', partySize: 2, email: 'esja@example.test', tags: ['high-chair'] })
      .expect(400);
    expect(errorOf(pub).code).toBe('VALIDATION');
  });
});
