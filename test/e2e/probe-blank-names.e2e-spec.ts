import request from 'supertest';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';
import { deskJoin, errorOf, joined, party, publicJoin, sandboxVenue, type Sandbox } from '../support/restaurant.js';

/** A name made only of spaces names nobody a host can call: refused at join and at correction. */
describe('blank party names', () => {
  let t: TestApp;
  let owner: Staff;
  let v: Sandbox;

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'blank-names');
    v = await sandboxVenue(t, owner, {
      clock: '2026-10-09T23:00:00.000Z',
      tables: [{ label: 'T1', capacity: 4 }],
      published: true,
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('refuses a blank name with VALIDATION at the desk and on the public join, and keeps nothing', async () => {
    for (const name of ['   ', '\t', ' \n ']) {
      const desk = await deskJoin(t, owner, v.id, { ...party(2), name }).expect(400);
      expect(errorOf(desk)).toMatchObject({ code: 'VALIDATION', message: expect.stringContaining('Name must not be blank') });
      const pub = await publicJoin(t, v.slug, { ...party(2), name }).expect(400);
      expect(errorOf(pub).code).toBe('VALIDATION');
    }
    const queue = await request(t.baseUrl).get(`/v1/venues/${v.id}/queue`).set(owner.auth).expect(200);
    expect((queue.body as { entries: unknown[] }).entries).toEqual([]);
  });

  it('refuses a correction to a blank name', async () => {
    const p = await joined(t, owner, v.id, party(2, 'Ana Real'));
    const res = await request(t.baseUrl)
      .patch(`/v1/venues/${v.id}/queue/${p.entry.id}`)
      .set(owner.auth)
      .send({ entryVersion: p.entry.version, name: '   ' });
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe('VALIDATION');
  });
});
