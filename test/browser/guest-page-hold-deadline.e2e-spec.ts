import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { joined, moveClock, sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';
import { describeWithChromium, launchChromium, newPhone } from './chromium.js';

/** The page polls every 3 s; a change must show within this. */
const SHOW_BOUND = 10_000;
const SEVEN_MINUTES = 420;

const d = describeWithChromium('the guest page is tested in a real browser');

/**
 * A hold runs from the second it was made. The page said its deadline in minutes only: a 7-minute
 * hold made at 8:13:42 PM read "the offer expires at 8:20 PM" beside a countdown that still had 42
 * seconds to go at 8:20. It says the deadline to the second when it is not on a whole minute, and the
 * countdown (minutes and seconds, from the venue's clock) agrees with it as the clock moves.
 */
d('the guest page says a hold’s deadline to the second, on a 390×844 phone', () => {
  let t: TestApp;
  let owner: Staff;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'owner');
    browser = await launchChromium();
  });
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await t.close();
  });

  async function phone(): Promise<Page> {
    const context = await newPhone(browser);
    contexts.push(context);
    return context.newPage();
  }
  const state = (page: Page, s: string) =>
    page.locator(`[data-testid=guest-page][data-state=${s}]`).waitFor({ timeout: SHOW_BOUND });
  /** Once the page has read the moved clock (the countdown's milliseconds), what its countdown says. */
  const countdownAt = async (page: Page, leftMs: number): Promise<string | null> => {
    await page.locator(`[data-testid=countdown][data-left-ms="${leftMs}"]`).waitFor({ timeout: SHOW_BOUND });
    return page.getByTestId('countdown').textContent();
  };
  const stateText = async (page: Page): Promise<string> => (await page.getByTestId('state').textContent()) ?? '';

  it('a restaurant’s 7-minute offer made at 8:13:42 PM expires at 8:20:42 PM, and its countdown agrees', async () => {
    const v: Sandbox = await sandboxVenue(t, owner, {
      name: 'Saltmarsh Grill',
      clock: '2026-11-18T02:13:42.000Z', // 8:13:42 PM in Chicago (CST)
      windows: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '17:00', end: '23:59', turnMinutes: 45 }],
      tables: [{ label: 'T6', capacity: 6 }],
      patch: { policy: { holdSeconds: SEVEN_MINUTES } },
    });
    const party = await joined(t, owner, v.id, { name: 'Noor Haddad', partySize: 5, phone: '+13125550219' });
    const page = await phone();
    await page.goto(`${t.baseUrl}/q/#${party.queueToken ?? ''}`);
    await state(page, 'waiting');
    const entry = (
      (await request(t.baseUrl).get(`/v1/venues/${v.id}/queue`).set(owner.auth).expect(200)).body as {
        entries: Array<{ id: string; version: number }>;
      }
    ).entries.find((e) => e.id === party.entry.id);
    await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/offers`)
      .set(owner.auth)
      .send({ entryId: party.entry.id, entryVersion: entry?.version, tableIds: [v.tableIds['T6']] })
      .expect(201);
    await state(page, 'offered');
    expect(await page.getByTestId('countdown').textContent()).toBe('7:00 (practice clock)');
    expect(await stateText(page)).toContain('Please confirm within 7:00 (practice clock) — the offer expires at 8:20:42 PM.');

    // The venue's clock at 8:20:15 PM: a deadline read as "8:20 PM" looked past; 27 seconds are left.
    await moveClock(t, owner, v.id, '2026-11-18T02:20:15.000Z');
    expect(await countdownAt(page, 27_000)).toBe('0:27 (practice clock)');
    expect(await page.getByTestId('deadline').textContent()).toBe('8:20:42 PM');
    await page.getByTestId('confirm').click();
    await state(page, 'confirmed');
  });

  it('a workshop’s 7-minute hold made at 8:34:29 PM in Kolkata expires at 8:41:29 PM, in the hold’s words', async () => {
    const v: Sandbox = await sandboxVenue(t, owner, {
      name: 'Indigo Print Studio',
      timeZone: 'Asia/Kolkata',
      clock: '2026-11-18T15:04:29.000Z', // 8:34:29 PM in Kolkata (UTC+5:30)
      preset: 'workshop',
      poolCapacity: 9,
      patch: { policy: { holdSeconds: SEVEN_MINUTES } },
    });
    const group = await joined(t, owner, v.id, { name: 'Meera Pillai', partySize: 4, email: 'meera@example.test' });
    const page = await phone();
    await page.goto(`${t.baseUrl}/q/#${group.queueToken ?? ''}`);
    await state(page, 'waiting');
    await request(t.baseUrl).post(`/v1/venues/${v.id}/promotions`).set(owner.auth).send({}).expect(201);
    await state(page, 'offered');
    expect(await stateText(page)).toContain('Please accept within 7:00 (practice clock) — the hold expires at 8:41:29 PM.');

    await moveClock(t, owner, v.id, '2026-11-18T15:11:28.000Z');
    expect(await countdownAt(page, 1_000)).toBe('0:01 (practice clock)');
    expect(await page.getByTestId('deadline').textContent()).toBe('8:41:29 PM');
  });
});
