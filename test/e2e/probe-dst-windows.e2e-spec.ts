import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';
import { EVERY_DAY, deskJoin, moveClock, sandboxVenue, type JoinBody } from '../support/restaurant.js';

/**
 * Probe: windows whose start falls in a clock change. On Chicago's spring-forward night a window
 * from 02:30 (a time that never happens) refused joins from 03:00 to 03:30, because Luxon moves the
 * skipped 02:30 forward by the whole gap; on the fall-back night a window from 01:00 refused the
 * first 01:00–01:30, because Luxon reads an ambiguous 01:00 as its second occurrence.
 */
describe('probe: a window that starts in a clock change opens when its start is first read', () => {
  let t: TestApp;
  let owner: Staff;
  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'probe-dst');
  });
  afterAll(async () => t.close());

  async function joinAt(start: string, end: string, first: string, at: string): Promise<number> {
    const v = await sandboxVenue(t, owner, {
      timeZone: 'America/Chicago',
      clock: first,
      windows: [{ days: EVERY_DAY, start, end, turnMinutes: 25 }],
      tables: [{ label: 'T1', capacity: 4 }],
    });
    await moveClock(t, owner, v.id, at);
    const res = await deskJoin(t, owner, v.id, { name: 'Night owl', partySize: 3, email: 'owl@example.test' });
    if (res.status === 201) expect((res.body as JoinBody).entry.businessDate).toBe(at.slice(0, 10));
    return res.status;
  }

  it('spring forward: 02:30–05:00 runs at 03:10 CDT, the first half hour after the gap', async () => {
    expect(await joinAt('02:30', '05:00', '2026-03-08T07:00:00Z', '2026-03-08T08:10:00Z')).toBe(201);
  });

  it('spring forward: before the gap (01:59 CST) it does not run yet', async () => {
    expect(await joinAt('02:30', '05:00', '2026-03-08T07:00:00Z', '2026-03-08T07:59:00Z')).toBe(422);
  });

  it('fall back: 01:00–01:30 runs at the first 01:15 (CDT) as well as the second (CST)', async () => {
    expect(await joinAt('01:00', '01:30', '2026-11-01T05:00:00Z', '2026-11-01T06:15:00Z')).toBe(201);
    expect(await joinAt('01:00', '01:30', '2026-11-01T05:00:00Z', '2026-11-01T07:15:00Z')).toBe(201);
  });
});
