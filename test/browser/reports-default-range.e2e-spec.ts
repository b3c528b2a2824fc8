import type { Browser, BrowserContext, Page } from 'playwright-core';
import { liveVenue, moveClock, sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';
import { signInToVenueList } from './board-page.js';
import { describeWithChromium, launchChromium, newPhone, newTablet, screenshot } from './chromium.js';

const d = describeWithChromium('the Reports tab is tested in a real browser');

/**
 * The Reports tab opens on the venue's last 28 days: today and the 27 calendar days before it. It
 * counted them back in 24-hour steps, so within the venue's first hour of a day after the clocks went
 * forward (or its last hour of a day after they went back) the range started a day early (or late).
 * It now counts venue-local calendar days.
 */
d('Reports: the default range across a clock change', () => {
  let t: TestApp;
  let browser: Browser;
  let owner: Staff;
  let v: Sandbox;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    t = await startApp();
    browser = await launchChromium();
    owner = await signUp(t, 'range-owner');
    v = await sandboxVenue(t, owner, { timeZone: 'America/New_York', clock: '2026-03-10T04:30:00.000Z' });
  }, 120_000);

  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await t?.close();
  });

  /**
   * Opens the Reports tab (of the sandbox unless told; on a tablet, or a phone, whose clock is
   * `deviceOffMs` off); the range its inputs show and the one the day report was asked for.
   */
  async function defaultRange(
    o: { venueId?: string; deviceOffMs?: number; phone?: boolean; shot?: string } = {},
  ): Promise<{ shown: { from: string; to: string }; asked: { from: string; to: string } }> {
    const venueId = o.venueId ?? v.id;
    const context = o.phone ? await newPhone(browser) : await newTablet(browser);
    contexts.push(context);
    const page: Page = await context.newPage();
    if (o.deviceOffMs !== undefined) await page.clock.install({ time: Date.now() + o.deviceOffMs });
    await signInToVenueList(page, t.baseUrl, owner, venueId);
    const [req] = await Promise.all([
      page.waitForRequest((r) => r.url().includes(`/v1/venues/${venueId}/reports/days?`)),
      page.goto(`${t.baseUrl}/board/venues/${venueId}/reports`),
    ]);
    const url = new URL(req.url());
    const inputs = page.locator('form.report-range input[type=date]');
    await inputs.first().waitFor();
    if (o.shot) await screenshot(page, o.shot);
    return {
      shown: { from: await inputs.nth(0).inputValue(), to: await inputs.nth(1).inputValue() },
      asked: { from: url.searchParams.get('from') ?? '', to: url.searchParams.get('to') ?? '' },
    };
  }

  it('just after the clocks went forward (00:30 on Tue Mar 10 in New York): Feb 11 to Mar 10', async () => {
    const range = await defaultRange();
    expect(range.shown).toEqual({ from: '2026-02-11', to: '2026-03-10' });
    expect(range.asked).toEqual(range.shown);
  });

  it('just after the clocks went back (23:30 on Tue Nov 3 in New York): Oct 7 to Nov 3', async () => {
    await moveClock(t, owner, v.id, '2026-11-04T04:30:00.000Z');
    const range = await defaultRange();
    expect(range.shown).toEqual({ from: '2026-10-07', to: '2026-11-03' });
    expect(range.asked).toEqual(range.shown);
  });

  /** The venue-local date of an instant in `timeZone` (YYYY-MM-DD). */
  const dateIn = (at: number, timeZone: string): string =>
    new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);

  /**
   * A live venue on a tablet whose clock is a day off: the range ends on the venue's date by the
   * server's clock (the venue read's `now`). It ended on the tablet's own date, a day off.
   */
  for (const [offMs, device] of [
    [24 * 3600_000, 'tablet'],
    [-24 * 3600_000, 'phone'],
  ] as const) {
    it(`a live venue, on a ${device} whose clock is a day ${offMs > 0 ? 'ahead' : 'behind'}: ends on the venue's date by the server's clock`, async () => {
      const live = await liveVenue(t, owner);
      const zone = 'America/Chicago';
      const before = dateIn(Date.now(), zone);
      const range = await defaultRange({
        venueId: live.id,
        deviceOffMs: offMs,
        phone: device === 'phone',
        shot: `reports-default-range-device-${offMs > 0 ? 'ahead' : 'behind'}`,
      });
      const after = dateIn(Date.now(), zone);
      // The venue's date when the page read it: the one before, or after if midnight passed between.
      expect([before, after]).toContain(range.shown.to);
      expect(range.asked).toEqual(range.shown);
    });
  }
});
