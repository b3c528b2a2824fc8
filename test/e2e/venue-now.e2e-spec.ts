import request from 'supertest';
import { DataSource } from 'typeorm';
import { SystemClock } from '@hostboard/core';
import { scrape } from '../support/metrics-scrape.js';
import { moveClock, sandboxVenue } from '../support/restaurant.js';
import { createVenue, signUp, type Staff } from '../support/staff.js';
import { startApp, type TestApp } from '../support/test-app.js';

const TOKEN = 'venue-now-metrics-token-0123456789';

/** The system clock on a host whose own clock runs `skewMs` ahead: the app follows the database's. */
class SkewedHostClock extends SystemClock {
  constructor(private readonly skewMs: number) {
    super();
  }

  override hostNow(): Date {
    return new Date(Date.now() + this.skewMs);
  }
}

/**
 * The venue's read (`GET /v1/venues/:venueId`) carries `now`, the venue's clock: Set up and Reports
 * judge service hours and dates by it. Set up read the whole board snapshot for its `now`, and
 * Reports took the tablet's own date.
 */
describe('GET /v1/venues/:venueId carries the venue’s now', () => {
  let t: TestApp;
  let owner: Staff;

  beforeAll(async () => {
    // A host 90 s ahead of the database: the live venue's now is the database's, not the host's.
    t = await startApp({ clock: new SkewedHostClock(90_000), env: { METRICS_TOKEN: TOKEN } });
    owner = await signUp(t, 'venue-now');
  });
  afterAll(async () => {
    await t?.close();
  });

  const venueNow = async (venueId: string): Promise<string | undefined> =>
    ((await request(t.baseUrl).get(`/v1/venues/${venueId}`).set(owner.auth).expect(200)).body as { now?: string }).now;

  it('a sandbox venue: its simulated clock, moved when the manager moves it', async () => {
    const v = await sandboxVenue(t, owner, { clock: '2026-06-12T18:00:00.000Z' });
    expect(await venueNow(v.id)).toBe('2026-06-12T18:00:00.000Z');
    await moveClock(t, owner, v.id, '2026-06-13T02:30:00.000Z');
    expect(await venueNow(v.id)).toBe('2026-06-13T02:30:00.000Z');
  });

  it('a live venue: the server’s clock, which follows the database’s (the host runs 90 s ahead)', async () => {
    // The clock follows the database's once the app's first check (in the background) has run.
    for (let i = 0; i < 50; i++) {
      if (Math.abs((await scrape(t, TOKEN))['hostboard_clock_skew_seconds'] ?? 0) > 1) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const dbNow = async (): Promise<number> =>
      new Date(
        ((await t.app.get(DataSource).query('SELECT clock_timestamp() AS now')) as Array<{ now: Date | string }>)[0]!.now,
      ).getTime();
    const v = await createVenue(t, owner);
    const before = await dbNow();
    const now = await venueNow(v.id);
    const after = await dbNow();
    expect(now).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const at = Date.parse(now ?? '');
    expect(at).toBeGreaterThanOrEqual(before - 300);
    expect(at).toBeLessThanOrEqual(after + 300);
  });

  /**
   * Whether joins are refused for want of a service, by the server's own rule: the board said so from
   * a copy of that rule of its own (web/board/src/readiness.ts). Dinner from 18:00 to 01:30 in New
   * York, on the night the clocks go back (Sun Nov 1, 2026: 01:30 happens twice, and the window
   * closes the second time).
   */
  it('carries serviceRunning and serviceChangesAt, by the server’s rule, across the hour the clocks go back', async () => {
    const v = await sandboxVenue(t, owner, {
      timeZone: 'America/New_York',
      clock: '2026-10-31T21:00:00.000Z', // 17:00 EDT, Saturday
      windows: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '18:00', end: '01:30', turnMinutes: 20 }],
    });
    const service = async (): Promise<unknown> => {
      const body = (await request(t.baseUrl).get(`/v1/venues/${v.id}`).set(owner.auth).expect(200)).body as Record<
        string,
        unknown
      >;
      return { now: body['now'], serviceRunning: body['serviceRunning'], serviceChangesAt: body['serviceChangesAt'] };
    };
    // Before dinner: it starts at 18:00 EDT.
    expect(await service()).toEqual({
      now: '2026-10-31T21:00:00.000Z',
      serviceRunning: false,
      serviceChangesAt: '2026-10-31T22:00:00.000Z',
    });
    // 01:40 EDT, the first 01:40 of the night: still running, to the second 01:30 (EST).
    await moveClock(t, owner, v.id, '2026-11-01T05:40:00.000Z');
    expect(await service()).toEqual({
      now: '2026-11-01T05:40:00.000Z',
      serviceRunning: true,
      serviceChangesAt: '2026-11-01T06:30:00.000Z',
    });
    // The second 01:30: closed until 18:00 EST.
    await moveClock(t, owner, v.id, '2026-11-01T06:30:00.000Z');
    expect(await service()).toEqual({
      now: '2026-11-01T06:30:00.000Z',
      serviceRunning: false,
      serviceChangesAt: '2026-11-01T23:00:00.000Z',
    });
  });

  it('a venue with no service hours: none running, nothing to change', async () => {
    const v = await sandboxVenue(t, owner, { clock: '2026-06-12T18:00:00.000Z', windows: [] });
    const body = (await request(t.baseUrl).get(`/v1/venues/${v.id}`).set(owner.auth).expect(200)).body as Record<string, unknown>;
    expect([body['serviceRunning'], body['serviceChangesAt']]).toEqual([false, null]);
  });
});
