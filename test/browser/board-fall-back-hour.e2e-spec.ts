import type { Browser, Page } from 'playwright-core';
import { deskJoin, moveClock, sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';
import { describeWithChromium, launchChromium, newTablet, screenshot } from './chromium.js';
import { boardLive, openVenueBoard } from './board-page.js';

const d = describeWithChromium('the board page is tested in a real browser');

/**
 * On the night the clocks go back, New York lives 01:00–02:00 twice, and service hours 18:00–01:30
 * run to the second 01:30 (the server takes joins until 06:30Z). The board read the hours by wall
 * minutes: at the first 01:45 (05:45Z) it told the host "Joins are refused now: No service is
 * running now" while the server still took them. It now reads the hours as the server does.
 */
d('the board on the night the clocks go back', () => {
  let t: TestApp;
  let browser: Browser;
  let owner: Staff;
  let v: Sandbox;

  beforeAll(async () => {
    t = await startApp();
    browser = await launchChromium();
    owner = await signUp(t, 'fall-back-board');
    v = await sandboxVenue(t, owner, {
      timeZone: 'America/New_York',
      clock: '2026-10-31T22:00:00.000Z',
      windows: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '18:00', end: '01:30', turnMinutes: 30 }],
      // A table for the largest party the queue takes, and published: nothing else to warn of.
      tables: [{ label: 'T1', capacity: 8 }],
      published: true,
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function board(): Promise<Page> {
    const page = await (await newTablet(browser)).newPage();
    await openVenueBoard(page, t.baseUrl, owner, v.id);
    await boardLive(page);
    return page;
  }

  const warnings = async (page: Page): Promise<string | null> => {
    // The warnings are drawn each second from the venue's clock; give the board two.
    await page.waitForTimeout(2_000);
    const w = page.getByTestId('join-warnings');
    return (await w.count()) === 0 ? null : w.textContent();
  };

  it('at the first 01:45 the hours still run (the server takes a join) and the board warns of nothing', async () => {
    await moveClock(t, owner, v.id, '2026-11-01T05:45:00.000Z');
    const res = await deskJoin(t, owner, v.id, { name: 'Late Walk-in', partySize: 2, email: 'late@example.test' });
    expect(res.status).toBe(201);
    const page = await board();
    await page.getByText('Late Walk-in').first().waitFor();
    expect(await warnings(page)).toBeNull();
    await screenshot(page, 'board-fall-back-first-0145');

    // At the second 01:45 (06:45Z) the hours are over: the server refuses, and the board says so.
    await moveClock(t, owner, v.id, '2026-11-01T06:45:00.000Z');
    const late = await deskJoin(t, owner, v.id, { name: 'Too Late', partySize: 2, email: 'too-late@example.test' });
    expect(late.status).toBe(422);
    await page.reload();
    await boardLive(page);
    expect(await warnings(page)).toContain('No service is running now: joins are refused until the next service starts.');
  });

  /**
   * The board says whether a service runs from the server's answer (the venue read's
   * `serviceRunning` until `serviceChangesAt`), not from a copy of the rule of its own: left open as
   * the practice clock passes the second 01:30, it warns with no reload, and Set up says the same.
   */
  it('left open while the practice clock passes the second 01:30, the board (then Set up) warns with no reload', async () => {
    const open = await sandboxVenue(t, owner, {
      timeZone: 'America/New_York',
      clock: '2026-11-01T06:20:00.000Z', // the second 01:20 (EST)
      windows: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '18:00', end: '01:30', turnMinutes: 30 }],
      tables: [{ label: 'T1', capacity: 8 }],
      published: true,
    });
    const page = await (await newTablet(browser)).newPage();
    await openVenueBoard(page, t.baseUrl, owner, open.id);
    await boardLive(page);
    expect(await warnings(page)).toBeNull();
    await page.getByTestId('clock-15').click(); // 01:35 EST: the hours are over
    await page.getByTestId('join-warnings').waitFor();
    expect(await warnings(page)).toContain('No service is running now: joins are refused until the next service starts.');
    await screenshot(page, 'board-fall-back-second-0135');
    await page.locator('.top-bar [data-tab=setup]').click();
    await page.getByTestId('setup-warnings').waitFor();
    expect(await page.getByTestId('setup-warnings').textContent()).toContain('No service is running now');
  });
});
