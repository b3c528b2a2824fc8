import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';
import { EVERY_DAY, deskJoin, moveClock, sandboxVenue, type JoinBody } from '../support/restaurant.js';

/**
 * A window whose end falls in the hour a fall-back night repeats closes the last time its end is
 * read (so 18:00–02:30 in New York or London runs through the second 02:30). Luxon reads such an
 * ambiguous wall time as its later occurrence in New York and London but as its earlier one in
 * Sydney, Auckland and Lord Howe, so there the window closed at the first 02:30: an hour early (30
 * minutes at Lord Howe), and a join in the repeated hour was refused "No service window is running
 * now" while the window ran by its own rule.
 */
describe('a window ending in the repeated hour closes the last time its end is read, in every zone', () => {
  let t: TestApp;
  let owner: Staff;
  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'fall-back-end');
  });
  afterAll(async () => t.close());

  async function joinAt(
    timeZone: string,
    end: string,
    at: string,
  ): Promise<{ status: number; body: JoinBody & { serviceEndsAt: string | null } }> {
    const v = await sandboxVenue(t, owner, {
      timeZone,
      clock: at.startsWith('2026-11') ? '2026-10-31T12:00:00Z' : '2026-04-04T07:00:00Z',
      windows: [{ days: EVERY_DAY, start: '18:00', end, turnMinutes: 20 }],
      tables: [{ label: 'T1', capacity: 4 }],
    });
    await moveClock(t, owner, v.id, at);
    const res = await deskJoin(t, owner, v.id, { name: 'Late table', partySize: 2, email: 'late@example.test' });
    return { status: res.status, body: res.body as JoinBody & { serviceEndsAt: string | null } };
  }

  it.each([
    // Sydney, 5 April 2026: 03:00 AEDT becomes 02:00 AEST; 02:15 AEST (16:15Z) is the second 02:15, before the last 02:30 (16:30Z).
    ['Australia/Sydney', '02:30', '2026-04-04T16:15:00Z', '2026-04-04T16:30:00.000Z'],
    // Auckland, the same night: 03:00 NZDT becomes 02:00 NZST; the second 02:15 is 14:15Z, the last 02:30 14:30Z.
    ['Pacific/Auckland', '02:30', '2026-04-04T14:15:00Z', '2026-04-04T14:30:00.000Z'],
    // Lord Howe: 02:00 (+11) becomes 01:30 (+10:30); the second 01:40 is 15:10Z, the last 01:45 15:15Z.
    ['Australia/Lord_Howe', '01:45', '2026-04-04T15:10:00Z', '2026-04-04T15:15:00.000Z'],
    // The zones where it already held, for comparison: New York's second 01:15 is 06:15Z, its last 01:30 06:30Z.
    ['America/New_York', '01:30', '2026-11-01T06:15:00Z', '2026-11-01T06:30:00.000Z'],
  ])('%s: a window to %s takes a join at %s, in the repeated hour, on the evening before', async (zone, end, at, endsAt) => {
    const { status, body } = await joinAt(zone, end, at);
    expect(status).toBe(201);
    expect(body.entry.businessDate).toBe(at.startsWith('2026-11') ? '2026-10-31' : '2026-04-04');
    expect(body.serviceEndsAt).toBe(endsAt);
  });
});
