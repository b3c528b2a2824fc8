import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';
import { signInToVenueList } from './board-page.js';
import { describeWithChromium, launchChromium, newTablet } from './chromium.js';

const d = describeWithChromium('the Reports tab is tested in a real browser');

/**
 * The Reports tab read the venue itself (GET /v1/venues/:venueId) beside the venue shell's read of
 * the same venue: two reads of one venue each time the tab opened. It now uses the shell's venue, and
 * the quote model it switches still shows at once and reaches the server.
 */
d('Reports: one read of the venue', () => {
  let t: TestApp;
  let browser: Browser;
  let owner: Staff;
  let v: Sandbox;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    t = await startApp();
    browser = await launchChromium();
    owner = await signUp(t, 'reports-reads');
    v = await sandboxVenue(t, owner, { timeZone: 'America/Chicago', clock: '2026-03-10T18:30:00.000Z' });
  }, 120_000);

  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await t?.close();
  });

  it('opens on the page’s venue: the venue is read once, and the model switch still works', async () => {
    const context = await newTablet(browser);
    contexts.push(context);
    const page: Page = await context.newPage();
    await signInToVenueList(page, t.baseUrl, owner, v.id);
    const venueReads: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'GET' && new URL(r.url()).pathname === `/v1/venues/${v.id}`) venueReads.push(r.url());
    });
    await Promise.all([
      page.waitForResponse((r) => r.url().includes(`/v1/venues/${v.id}/reports/quotes?`)),
      page.goto(`${t.baseUrl}/board/venues/${v.id}/reports`),
    ]);
    await page.locator('[data-testid=report-summary]').waitFor();
    // The range still ends on the venue's date by its clock (12:30 in Chicago on Mar 10).
    const inputs = page.locator('form.report-range input[type=date]');
    expect(await inputs.nth(1).inputValue()).toBe('2026-03-10');
    expect(await inputs.nth(0).inputValue()).toBe('2026-02-11');
    expect(venueReads).toHaveLength(1);

    expect(await page.locator('[data-testid=choose-turns]').getAttribute('aria-checked')).toBe('true');
    await page.click('[data-testid=choose-floor]');
    await page.locator('[data-testid=choose-floor][aria-checked=true]').waitFor();
    const venue = await request(t.baseUrl).get(`/v1/venues/${v.id}`).set(owner.auth).expect(200);
    expect((venue.body as { policy: { quoteModel: string } }).policy.quoteModel).toBe('floor');
  }, 120_000);
});
