import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { joined, sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';
import { describeWithChromium, launchChromium, newPhone } from './chromium.js';

const SHOW_BOUND = 10_000;
const T0 = '2026-10-15T00:50:00.000Z'; // 7:50 PM in Chicago
const FIRST = 'Fennel & Finch';
const SECOND = 'Quayside Oysters';

const d = describeWithChromium('the guest page is tested in a real browser');

/**
 * One phone, links from two venues. The page keeps the last venue it read to name an ended place;
 * it must never name one venue over another venue's link: a live link from the second venue, then
 * ended, names the second; the first venue's old link opened again over it (both ended) names neither.
 */
d('the guest page with two venues’ links on one 390×844 phone', () => {
  let t: TestApp;
  let owner: Staff;
  let browser: Browser;
  let a: Sandbox;
  let b: Sandbox;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'owner');
    browser = await launchChromium();
    const venue = (name: string) =>
      sandboxVenue(t, owner, {
        name,
        clock: T0,
        windows: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '17:00', end: '23:59', turnMinutes: 40 }],
        tables: [{ label: 'T3', capacity: 3 }],
      });
    a = await venue(FIRST);
    b = await venue(SECOND);
  });
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await t.close();
  });

  const state = (page: Page, s: string) =>
    page.locator(`[data-testid=guest-page][data-state=${s}]`).waitFor({ timeout: SHOW_BOUND });
  const venueShown = async (page: Page): Promise<string | null> => {
    const v = page.getByTestId('venue');
    return (await v.count()) > 0 ? await v.textContent() : null;
  };
  const remove = (v: Sandbox, entryId: string) =>
    request(t.baseUrl).post(`/v1/venues/${v.id}/queue/${entryId}/cancel`).set(owner.auth).send({}).expect(200);

  it('an ended place at the first venue, then the second venue’s link: each page names its own venue, or none', async () => {
    const context = await newPhone(browser);
    contexts.push(context);
    const page = await context.newPage();
    const first = await joined(t, owner, a.id, { name: 'Greta Finch', partySize: 2, phone: '+13125550171' });
    await page.goto(`${t.baseUrl}/q/#${first.queueToken ?? ''}`);
    await state(page, 'waiting');
    await remove(a, first.entry.id);
    await state(page, 'gone');
    expect(await venueShown(page)).toBe(FIRST);

    // The second venue's link, opened on the same phone: followed (the first place is over), named.
    const second = await joined(t, owner, b.id, { name: 'Greta Finch', partySize: 3, phone: '+13125550171' });
    await page.goto(`${t.baseUrl}/q/#${second.queueToken ?? ''}`);
    await state(page, 'waiting');
    expect(await venueShown(page)).toBe(SECOND);
    await remove(b, second.entry.id);
    await state(page, 'gone');
    expect(await venueShown(page)).toBe(SECOND);
    await page.reload();
    await state(page, 'gone');
    expect(await venueShown(page)).toBe(SECOND);

    // The first venue's old link opened again: it is dead, and so is the kept one. The page says the
    // link no longer works, and names no venue: not the second's over the first's link.
    await page.goto(`${t.baseUrl}/q/#${first.queueToken ?? ''}`);
    await state(page, 'gone');
    expect(await venueShown(page)).toBeNull();
    expect(await page.getByTestId('guest-page').textContent()).not.toContain(SECOND);
  });
});
