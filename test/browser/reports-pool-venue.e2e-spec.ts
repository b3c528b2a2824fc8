import type { Browser, BrowserContext } from 'playwright-core';
import { sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { addMember, signUp, type Staff } from '../support/staff.js';
import { signInToVenueList } from './board-page.js';
import { describeWithChromium, launchChromium } from './chromium.js';

const d = describeWithChromium('the Reports tab is tested in a real browser');

/**
 * A seat-pool (workshop) venue has no Reports tab: its reports refuse it (they count tables and
 * seated parties). A manager who opens the reports address of a pool venue (a bookmark, a link from a
 * table venue) reads the floor, and the page never mounts the Reports view, asks for a report or shows
 * "Day by day" while the venue is still loading.
 */
d('Reports at a seat-pool venue, on a phone', () => {
  let t: TestApp;
  let browser: Browser;
  let owner: Staff;
  let manager: Staff;
  let pool: Sandbox;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    t = await startApp();
    browser = await launchChromium();
    owner = await signUp(t, 'pool-tab-owner');
    pool = await sandboxVenue(t, owner, { clock: '2026-10-09T14:00:00.000Z', preset: 'workshop', poolCapacity: 12 });
    manager = await addMember(t, pool.id, owner, 'manager');
  });
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await t?.close();
  });

  it('the reports address of a pool venue shows its floor, with no Reports tab and no report asked for', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    contexts.push(context);
    const p = await context.newPage();
    const asked: string[] = [];
    p.on('request', (r) => {
      if (r.url().includes('/reports/')) asked.push(r.url());
    });
    // The board learns the venue in several reads, the last its service windows; that one answers
    // late here, as on a loaded server, so the user's role is known first (a CI run had the Reports
    // view mounted then: its own read of the venue answered first, and it asked for a report).
    await p.route(new RegExp(`/v1/venues/${pool.id}/service-windows$`), async (route) => {
      await new Promise((r) => setTimeout(r, 1_500));
      await route.continue();
    });
    await signInToVenueList(p, t.baseUrl, manager, pool.id);
    for (let i = 0; i < 3; i++) {
      await p.goto(`${t.baseUrl}/board/venues/${pool.id}/reports`);
      await p.locator('[data-tab=floor][aria-current=page]').waitFor();
      await p.waitForTimeout(1_000);
      expect(await p.locator('body').innerText()).not.toContain('Day by day');
      expect(await p.locator('[data-tab=reports]').count()).toBe(0);
    }
    expect(asked).toEqual([]);
  });
});
