import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { moveClock, sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { addMember, signUp, type Staff } from '../support/staff.js';
import { boardLive, openVenueBoard } from './board-page.js';
import { describeWithChromium, launchChromium } from './chromium.js';

/**
 * Tables left taken overnight (a seated party never cleared, a confirmed one never seated): on a
 * phone, the board shows them as the host left them until the next day's service opens, then shows
 * them free, says why, and drops the party from "To be seated", without a reload.
 */
const STEP = 10_000;
const FRIDAY_1045PM = '2026-06-13T03:45:00.000Z'; // Chicago (CDT)
const SATURDAY_459PM = '2026-06-13T21:59:00.000Z';
const SATURDAY_5PM = '2026-06-13T22:00:00.000Z';

const d = describeWithChromium('the board page is tested in a real browser');

d('tables taken from an earlier day, on a phone', () => {
  let t: TestApp;
  let owner: Staff;
  let browser: Browser;
  let context: BrowserContext | undefined;
  const errors: string[] = [];
  const api = () => request(t.baseUrl);

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'day-ended-owner');
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
  });

  const table = (page: Page, v: Sandbox, label: string, state: string) =>
    page.locator(`[data-testid=table][data-table-id="${v.tableIds[label]}"][data-state=${state}]`);

  it('390×844: yesterday’s tables turn free when service opens, with the reason', async () => {
    const v = await sandboxVenue(t, owner, {
      clock: FRIDAY_1045PM,
      windows: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '17:00', end: '23:00', turnMinutes: 90 }],
      tables: [
        { label: 'T1', capacity: 4 },
        { label: 'T2', capacity: 4 },
        { label: 'T3', capacity: 4 },
      ],
    });
    const host = await addMember(t, v.id, owner, 'host');
    const book = async (name: string, label: string): Promise<string> =>
      (
        (
          await api()
            .post(`/v1/venues/${v.id}/reservations`)
            .set(host.auth)
            .send({ name, partySize: 2, start: FRIDAY_1045PM, tableIds: [v.tableIds[label]] })
            .expect(201)
        ).body as { id: string }
      ).id;
    const seated = await book('Sam Stayedlate', 'T1');
    await api().post(`/v1/venues/${v.id}/reservations/${seated}/seat`).set(host.auth).expect(201);
    await book('Nora Nevercame', 'T2');
    await moveClock(t, owner, v.id, SATURDAY_459PM);

    context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      hasTouch: true,
      isMobile: true,
      locale: 'en-US',
      timezoneId: 'America/Chicago',
    });
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    await openVenueBoard(page, t.baseUrl, host, v.id);
    await boardLive(page, STEP);

    // 4:59 PM Saturday: as the host left them on Friday.
    await table(page, v, 'T1', 'occupied').waitFor({ timeout: STEP });
    await table(page, v, 'T2', 'booked').waitFor({ timeout: STEP });
    await page.locator('[data-testid=to-seat-party]', { hasText: 'Nora Nevercame' }).waitFor({ timeout: STEP });

    // 5 PM: Saturday's service opens (another device moves the practice clock); no reload here.
    await moveClock(t, owner, v.id, SATURDAY_5PM);
    await page
      .locator('[data-testid=notice]', {
        hasText: "Tables T1, T2 were still taken from an earlier day and are free again: today's service has started.",
      })
      .waitFor({ timeout: STEP });
    await table(page, v, 'T1', 'free').waitFor({ timeout: STEP });
    await table(page, v, 'T2', 'free').waitFor({ timeout: STEP });
    await table(page, v, 'T3', 'free').waitFor({ timeout: STEP });
    expect(await page.locator('[data-testid=to-seat-party]').count()).toBe(0);
    const [scroll, inner] = (await page.evaluate('[document.documentElement.scrollWidth, window.innerWidth]')) as number[];
    expect(scroll).toBeLessThanOrEqual(inner ?? 0);
    expect(errors).toEqual([]);
  });
});
