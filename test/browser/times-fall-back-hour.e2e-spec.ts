import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { joined, messages, sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';
import { describeWithChromium, launchChromium, newPhone, newTablet, screenshot } from './chromium.js';
import { boardLive, openVenueBoard } from './board-page.js';

const STEP = 10_000;
const d = describeWithChromium('the board and guest pages are tested in a real browser');

/**
 * Santiago lives 23:00–00:00 twice on Saturday 4 April 2026 (at 00:00 UTC-3 the clocks go back to
 * 23:00 UTC-4). Dinner to 23:30 runs to the second 23:30. At the first 23:20 the desk's card said
 * "Service ends at 11:30 PM", which reads as ten minutes away while it is seventy, and the guest page
 * said "the offer expires at 11:25 PM" where the table-ready email says "11:25 PM GMT-3". In that hour
 * both pages now name the zone, as the messages do; at any other time they read as before.
 */
d('times in the hour the clocks go back', () => {
  let t: TestApp;
  let owner: Staff;
  let browser: Browser;
  let v: Sandbox;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'fall-back-times');
    browser = await launchChromium();
    v = await sandboxVenue(t, owner, {
      timeZone: 'America/Santiago',
      clock: '2026-04-05T02:20:00.000Z', // the first 23:20, UTC-3
      windows: [{ days: [6], start: '18:00', end: '23:30', turnMinutes: 90 }],
      tables: [{ label: 'T1', capacity: 4 }],
    });
  }, 120_000);
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
  });

  async function open(context: Promise<BrowserContext>): Promise<Page> {
    const c = await context;
    contexts.push(c);
    return c.newPage();
  }

  it('the desk card names the zone of a service end that happens twice', async () => {
    const page = await open(newTablet(browser));
    await openVenueBoard(page, t.baseUrl, owner, v.id);
    await boardLive(page, STEP);
    await page.getByTestId('open-join').click();
    await page.fill('input[name=name]', 'Late Table');
    await page.fill('input[name=partySize]', '2');
    await page.fill('input[name=email]', 'late-table@example.test');
    await page.getByTestId('join-submit').click();
    const card = page.getByTestId('token-card');
    await card.waitFor({ timeout: STEP });
    expect(await card.locator('.quote').textContent()).toBe(
      'Number 1 in line, quoted ~90 min (approx). Service ends at 11:30 PM GMT-4, before this wait is over: we may not be able to seat them.',
    );
    await screenshot(page, 'board-fall-back-service-end');
  }, 60_000);

  it('the guest page names the zone of a deadline that happens twice, as the email does', async () => {
    const party = await joined(t, owner, v.id, { name: 'Email Party', partySize: 2, email: 'email-party@example.test' });
    await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/offers`)
      .set(owner.auth)
      .send({ entryId: party.entry.id, entryVersion: party.entry.version, tableIds: [v.tableIds['T1']] })
      .expect(201);
    const email = (await messages(t, owner, v.id)).find((m) => m.template === 'table-ready');
    expect(email?.body).toContain('the offer expires at 11:25 PM GMT-3.');
    const page = await open(newPhone(browser));
    await page.goto(`${t.baseUrl}/q/#${party.queueToken ?? ''}`);
    await page.locator('[data-testid=guest-page][data-state=offered]').waitFor({ timeout: STEP });
    expect(await page.getByTestId('state').textContent()).toContain('the offer expires at 11:25 PM GMT-3.');
    await screenshot(page, 'guest-fall-back-deadline');
  }, 60_000);
});
