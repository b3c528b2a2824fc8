import type { Browser, BrowserContext, Page } from 'playwright-core';
import { joined, sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';
import { describeWithChromium, launchChromium, screenshot } from './chromium.js';

/** The page polls every 3 s; a state must show within this. */
const SHOW_BOUND = 10_000;
const T0 = '2026-12-05T06:00:00.000Z'; // 7 PM in Auckland (NZDT, UTC+13)

const d = describeWithChromium('the guest page is tested in a real browser');

/**
 * A guest who has only a phone, at a venue far from UTC (Auckland), with a 7-minute hold and a
 * 35-minute turn: paths its phone meets that the other guest page tests do not.
 */
d('a phone-only guest at a venue in Auckland, on a 360×640 phone', () => {
  let t: TestApp;
  let owner: Staff;
  let browser: Browser;
  let v: Sandbox;
  const contexts: BrowserContext[] = [];
  let n = 0;
  const nextPhone = (): string => `021 3${String(100000 + ++n)}`;

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'owner');
    browser = await launchChromium();
    v = await sandboxVenue(t, owner, {
      clock: T0,
      timeZone: 'Pacific/Auckland',
      windows: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '17:00', end: '23:00', turnMinutes: 35 }],
      tables: [
        { label: 'T1', capacity: 2 },
        { label: 'T2', capacity: 4 },
      ],
      patch: { policy: { holdSeconds: 420 } },
    });
  });
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await t?.close();
  });

  async function phone(): Promise<Page> {
    const context = await browser.newContext({
      viewport: { width: 360, height: 640 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
      locale: 'en-NZ',
    });
    contexts.push(context);
    return context.newPage();
  }

  const state = (page: Page, s: string) =>
    page.locator(`[data-testid=guest-page][data-state=${s}]`).waitFor({ timeout: SHOW_BOUND });

  it('a queue link opened in the tab that already shows the queue page is followed, and wiped from the address bar', async () => {
    // The guest tapped the text's plain /q/ link first (this phone keeps no link yet), then opens
    // the link from the desk's code in that same tab: only the fragment changes, the page stays.
    const party = await joined(t, owner, v.id, { name: 'Tama Same-Tab', partySize: 2, phone: nextPhone() });
    const page = await phone();
    await page.goto(`${t.baseUrl}/q/`);
    await state(page, 'no-link');
    await page.goto(`${t.baseUrl}/q/#${party.queueToken ?? ''}`);
    await state(page, 'waiting');
    expect(await page.getByTestId('party').textContent()).toBe('Tama Same-Tab, party of 2');
    expect(page.url()).toBe(`${t.baseUrl}/q/`);

    // Another party's link opened in the same tab is asked about, as when it opens a new page.
    const other = await joined(t, owner, v.id, { name: 'Hine Other', partySize: 2, phone: nextPhone() });
    await page.goto(`${t.baseUrl}/q/#${other.queueToken ?? ''}`);
    await page.getByTestId('choose').waitFor({ timeout: SHOW_BOUND });
    expect(page.url()).toBe(`${t.baseUrl}/q/`);
    await screenshot(page, 'guest-phone-only-same-tab-choose');
    await page.getByTestId('keep-mine').click();
    await state(page, 'waiting');
    expect(await page.getByTestId('party').textContent()).toBe('Tama Same-Tab, party of 2');
  }, 60_000);
});
