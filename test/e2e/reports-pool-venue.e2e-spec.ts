import request from 'supertest';
import { errorOf, joined, moveClock, party, sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { addMember, signUp, type Staff } from '../support/staff.js';

/**
 * The reports measure a table venue's nights (quoted waits, parties seated at tables, no-shows). At a
 * seat-pool venue (a workshop) a day report in those categories counted a confirmed group as "still
 * waiting" and nobody as seated; both reports now refuse a pool venue in words, the same refusal,
 * as the board shows a pool venue no Reports tab. A table venue's reports are unchanged.
 */
describe('reports at a seat-pool (workshop) venue', () => {
  let t: TestApp;
  let owner: Staff;
  let manager: Staff;
  let pool: Sandbox;
  let tables: Sandbox;
  const CLOCK = '2026-10-09T14:00:00.000Z';
  const range = '?from=2026-10-09&to=2026-10-09';

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'pool-reports-owner');
    pool = await sandboxVenue(t, owner, { clock: CLOCK, preset: 'workshop', poolCapacity: 12 });
    tables = await sandboxVenue(t, owner, { clock: CLOCK, tables: [{ label: 'T1', capacity: 4 }] });
    manager = await addMember(t, pool.id, owner, 'manager');
    // A group is held seats and accepts: confirmed, the workshop's final state for it.
    await joined(t, owner, pool.id, party(3, 'Ada'));
    const held = await request(t.baseUrl).post(`/v1/venues/${pool.id}/promotions`).set(owner.auth).expect(201);
    await request(t.baseUrl)
      .post(`/v1/venues/${pool.id}/offers/${(held.body as { offer: { id: string } }).offer.id}/accept`)
      .set(owner.auth)
      .expect(200);
    await moveClock(t, owner, pool.id, '2026-10-09T14:10:00.000Z');
    await joined(t, owner, tables.id, party(2, 'Bo'));
  }, 120_000);
  afterAll(() => t.close());

  it.each(['days', 'days.csv', 'quotes', 'quotes.csv'])(
    'GET …/reports/%s refuses a pool venue in words, not in table categories',
    async (report) => {
      const res = await request(t.baseUrl).get(`/v1/venues/${pool.id}/reports/${report}${range}`).set(manager.auth);
      expect(res.status).toBe(422);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(errorOf(res)).toEqual({
        code: 'RULE_VIOLATION',
        message:
          "Reports are for table venues: a seat-pool venue's groups are never quoted a wait nor seated at a table. Its confirmed, held and available seats are on the board.",
        details: { seating: 'pool' },
      });
    },
  );

  it('a table venue still reads its reports', async () => {
    const days = await request(t.baseUrl).get(`/v1/venues/${tables.id}/reports/days${range}`).set(owner.auth).expect(200);
    expect((days.body as { totals: { joined: number } }).totals.joined).toBe(1);
    await request(t.baseUrl).get(`/v1/venues/${tables.id}/reports/quotes${range}`).set(owner.auth).expect(200);
  });

  it('the range rules and roles come first, as for a table venue', async () => {
    const bad = await request(t.baseUrl)
      .get(`/v1/venues/${pool.id}/reports/days?from=2026-10-10&to=2026-10-09`)
      .set(manager.auth);
    expect(errorOf(bad).code).toBe('VALIDATION');
    const host = await addMember(t, pool.id, owner, 'host');
    expect((await request(t.baseUrl).get(`/v1/venues/${pool.id}/reports/days${range}`).set(host.auth)).status).toBe(403);
  });
});
