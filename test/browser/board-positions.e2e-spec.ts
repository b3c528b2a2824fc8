import type { Browser } from 'playwright-core';
import { joined, party, sandboxVenue } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';
import { openVenueBoard } from './board-page.js';
import { describeWithChromium, launchChromium, newTablet, screenshot } from './chromium.js';

const d = describeWithChromium('the board page is tested in a real browser');

/** Issue 14, item 12: the board numbers each party by the position the party heard, with its list place labelled. */
d('board positions in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let owner: Staff;

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'owner');
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('shows the table-kind position large and the place in the whole list under it, when they differ', async () => {
    const v = await sandboxVenue(t, owner, {
      clock: '2026-10-09T23:00:00.000Z',
      tables: [
        { label: 'T2', capacity: 2 },
        { label: 'T4', capacity: 4 },
      ],
    });
    // A party of four, then two couples: the first couple heard "position 1" (the four does not
    // take a 2-top), the second "position 2".
    const heard = [];
    for (const size of [4, 2, 2]) heard.push((await joined(t, owner, v.id, party(size))).position);
    expect(heard).toEqual([1, 1, 2]);

    const context = await newTablet(browser);
    const page = await context.newPage();
    await openVenueBoard(page, t.baseUrl, owner, v.id);
    await page.locator('[data-testid=entry]').nth(2).waitFor();
    const shown = await page.locator('[data-testid=entry-position]').allTextContents();
    expect(shown.map((s) => s.replace(/\s+/g, ' ').trim())).toEqual(['1', '1#2 in list', '2#3 in list']);
    await screenshot(page, 'board-positions');
    await context.close();
  });
});
