import type { Browser, Page } from 'playwright-core';
import { sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';
import { describeWithChromium, launchChromium, newTablet, screenshot } from './chromium.js';
import { openVenueBoard } from './board-page.js';

const d = describeWithChromium('Set up is tested in a real browser');

/**
 * Service hours whose start the clocks skip once a year (02:30 in New York) were added with
 * "Service hours added." and nothing more: the manager never heard that on 8 March they open at 03:00.
 * Set up now shows, under Service hours, what the hours just added do on such nights.
 */
d('Set up: service hours on the nights the clocks change', () => {
  let t: TestApp;
  let browser: Browser;
  let owner: Staff;
  let v: Sandbox;

  beforeAll(async () => {
    t = await startApp();
    browser = await launchChromium();
    owner = await signUp(t, 'setup-clock');
    v = await sandboxVenue(t, owner, { timeZone: 'America/New_York', clock: '2026-01-10T17:00:00.000Z', windows: [] });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function setUp(): Promise<Page> {
    const page = await (await newTablet(browser)).newPage();
    await openVenueBoard(page, t.baseUrl, owner, v.id);
    await page.locator('.top-bar [data-tab=setup]').click();
    await page.getByTestId('windows-setup').waitFor();
    return page;
  }

  it('hours from 02:30 say under them, after a reload too, that they start at 03:00 on the night the clocks go forward; ordinary hours say nothing', async () => {
    const page = await setUp();
    await page.fill('input[name=start]', '02:30');
    await page.fill('input[name=end]', '05:00');
    await page.getByTestId('add-window').click();
    const notes = page.getByTestId('window-clock-changes');
    await notes.waitFor({ timeout: 10_000 });
    const said =
      'When the clocks change:Sun, Mar 8, 2026: the clocks go forward and 02:30 does not happen; these hours start at 03:00.';
    expect(await notes.textContent()).toBe(said);
    await screenshot(page, 'setup-clock-changes');

    await page.fill('input[name=start]', '17:00');
    await page.fill('input[name=end]', '23:00');
    await page.getByTestId('add-window').click();
    await page.getByTestId('window-line').nth(1).waitFor({ timeout: 10_000 });
    // One note, on the line of the hours it is about.
    expect(await notes.count()).toBe(1);
    const lines = page.getByTestId('window-line');
    const noted = lines.filter({ has: page.getByTestId('window-clock-changes') });
    expect(await noted.textContent()).toContain('02:30–05:00');

    // A reload (another tablet, the next morning) still says it.
    await page.reload();
    await page.locator('.top-bar [data-tab=setup]').click();
    await notes.waitFor({ timeout: 10_000 });
    expect(await notes.textContent()).toBe(said);
    expect(await page.getByTestId('window-line').count()).toBe(2);
  });
});
