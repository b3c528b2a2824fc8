import type { Browser, Page, Route } from 'playwright-core';
import request from 'supertest';
import { sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';
import { openVenueBoard } from './board-page.js';
import { describeWithChromium, launchChromium, newTablet, screenshot } from './chromium.js';

const d = describeWithChromium('Set up is tested in a real browser');

/**
 * Set up reads the venue again after each edit. Two quick edits in a row (a table added, then the
 * settings saved while the first read is still on its way) start two reads; the first one's answer,
 * taken by the server before the second edit, may reach the tablet after the second's. It was shown
 * all the same: the older settings replaced the newer on screen ("Published" unticked again, though
 * it was saved ticked), and the next save could send them back.
 */
d('Set up after two quick edits', () => {
  let t: TestApp;
  let browser: Browser;
  let owner: Staff;
  let v: Sandbox;

  beforeAll(async () => {
    t = await startApp();
    browser = await launchChromium();
    owner = await signUp(t, 'setup-reloads');
    v = await sandboxVenue(t, owner, { clock: '2026-10-09T23:00:00.000Z', tables: [{ label: 'T1', capacity: 2 }] });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function setUp(): Promise<Page> {
    const page = await (await newTablet(browser)).newPage();
    await openVenueBoard(page, t.baseUrl, owner, v.id);
    await page.locator('.top-bar [data-tab=setup]').click();
    await page.getByTestId('settings').waitFor();
    return page;
  }

  it('an older read answered late does not replace the newer settings on screen', async () => {
    const before = (await request(t.baseUrl).get(`/v1/venues/${v.id}`).set(owner.auth).expect(200)).body as {
      published: boolean;
    };
    expect(before.published).toBe(false);
    const page = await setUp();
    expect(await page.isChecked('input[name=published]')).toBe(false);

    // The next read of the venue is answered by the server at once, and its answer held on the way.
    let hold = true;
    let release: () => void = () => undefined;
    const released = new Promise<void>((r) => (release = r));
    let heldAnswer: () => void = () => undefined;
    const answered = new Promise<void>((r) => (heldAnswer = r));
    await page.route(new RegExp(`/v1/venues/${v.id}$`), async (route: Route) => {
      if (route.request().method() !== 'GET' || !hold) return route.continue();
      hold = false;
      const response = await route.fetch();
      heldAnswer();
      await released;
      await route.fulfill({ response });
    });

    // First edit: a table added; its read of the venue (still unpublished) is held.
    await page.fill('input[name=tableLabel]', 'T2');
    await page.getByTestId('add-table').click();
    await answered;
    // Second edit: published, saved, read again (not held) and shown.
    await page.check('input[name=published]');
    await page.getByTestId('save-settings').click();
    await page.locator('.toast', { hasText: 'Settings saved.' }).waitFor();
    const saved = (await request(t.baseUrl).get(`/v1/venues/${v.id}`).set(owner.auth).expect(200)).body as {
      published: boolean;
    };
    expect(saved.published).toBe(true);
    expect(await page.isChecked('input[name=published]')).toBe(true);

    // The first read's answer arrives now, and the rest of that read after it: the first edit is
    // done when the New table field has the focus back (its form gives it once its read is over).
    expect(await page.locator('input[name=tableLabel]:focus').count()).toBe(0);
    release();
    await page.locator('input[name=tableLabel]:focus').waitFor();
    // Two frames and a turn for the page to draw what it read and run its effects.
    await page.evaluate('new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 0))))');
    await screenshot(page, 'setup-reloads-after');
    expect(await page.isChecked('input[name=published]')).toBe(true);
    // Both edits are on screen: the table too.
    const labels = page.locator('[data-testid=table-line] input[name=label]');
    expect(await labels.count()).toBe(2);
    expect([await labels.nth(0).inputValue(), await labels.nth(1).inputValue()]).toEqual(['T1', 'T2']);
    await page.context().close();
  }, 60_000);
});
