import request from 'supertest';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';
import { EVERY_DAY, deskJoin, messages, sandboxVenue, type JoinBody } from '../support/restaurant.js';

/**
 * Probe: the table-ready text rounded the hold to whole minutes (a 90-second hold said "within 2
 * minutes", promising 30 seconds the hold does not give) and gave its deadline without a zone, so on
 * the night clocks fall back its "1:35 AM" happened twice while the email said "1:35 AM CDT".
 */
describe('probe: the table-ready text says the hold and the deadline as they are', () => {
  let t: TestApp;
  let owner: Staff;
  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'probe-text');
  });
  afterAll(async () => t.close());

  async function offeredText(timeZone: string, clock: string, holdSeconds: number, phone: string): Promise<string> {
    const v = await sandboxVenue(t, owner, {
      timeZone,
      clock,
      windows: [{ days: EVERY_DAY, start: '18:00', end: '03:00', turnMinutes: 40 }],
      tables: [{ label: 'T1', capacity: 4 }],
      patch: { policy: { holdSeconds } },
    });
    const j = (await deskJoin(t, owner, v.id, { name: 'Phone only', partySize: 3, phone }).expect(201)).body as JoinBody;
    await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/offers`)
      .set(owner.auth)
      .send({ entryId: j.entry.id, entryVersion: j.entry.version, tableIds: [v.tableIds['T1']] })
      .expect(201);
    const ready = (await messages(t, owner, v.id)).filter((m) => m.template === 'table-ready');
    expect(ready.map((m) => m.channel)).toEqual(['sms']);
    return ready[0]!.body;
  }

  it('a 90-second hold is said as 1 minute 30 seconds, not rounded up to 2 minutes', async () => {
    // Bengaluru, 19:30 local; the hold ends 19:31:30.
    const body = await offeredText('Asia/Kolkata', '2026-06-12T14:00:00Z', 90, '098765 43210');
    expect(body).toContain('within 1 minute 30 seconds');
    expect(body).not.toMatch(/within 2 minutes/);
  });

  it('on the fall-back night the deadline carries its zone, as the email does', async () => {
    // Chicago, 1 November 2026 at 01:25 CDT (06:25Z); a 10-minute hold ends at 1:35 AM CDT, before 1:35 AM CST.
    const body = await offeredText('America/Chicago', '2026-11-01T06:25:00Z', 600, '(312) 555-0143');
    expect(body).toContain('within 10 minutes, by 1:35 AM CDT');
  });
});
