import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { exchange, joined, moveClock, sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';
import { describeWithChromium, launchChromium, newPhone, screenshot } from './chromium.js';

/** The page polls every 3 s; a change must show within this. */
const SHOW_BOUND = 10_000;
const T0 = '2026-10-10T04:30:00.000Z'; // 11:30 PM in Chicago, half an hour before the queue's day ends
const AFTER_MIDNIGHT = '2026-10-10T05:05:00.000Z'; // 12:05 AM: the business day has ended

const d = describeWithChromium('the guest page is tested in a real browser');

/**
 * What a phone-only guest reads when its place ends not by its own choice: the day's close says the
 * day closed (no offer is blamed for it), and a link the host's removal stopped names that reason
 * among the ones it gives (the removed token stays TOKEN_INVALID: it reads nothing of the entry).
 */
d('the guest page when a place ends not by the party: day closed, removed by the host', () => {
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
  const said = async (page: Page): Promise<string> => (await page.getByTestId('guest-page').textContent()) ?? '';

  const venue = (): Promise<Sandbox> =>
    sandboxVenue(t, owner, {
      clock: T0,
      windows: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '17:00', end: '23:59', turnMinutes: 30 }],
      tables: [{ label: 'T1', capacity: 4 }],
    });

  /**
   * The party's page, following its entry by a queue session (as after the party confirmed or tried
   * to): the session outlives the token's midnight, so the page still reads the entry after the day.
   */
  async function pageWithSession(token: string): Promise<Page> {
    const opened = (await exchange(t, token).expect(201)).body as { sessionToken: string; expiresAt: string };
    const page = await phone();
    await page.goto(`${t.baseUrl}/q/`);
    await state(page, 'no-link');
    // What the page keeps once its party has acted (web/guest/src/credentials.ts).
    type Storage = { localStorage: { setItem(key: string, value: string): void } };
    await page.evaluate(
      (kept) => (globalThis as unknown as Storage).localStorage.setItem('hostboard.queue', kept),
      JSON.stringify({ token, session: opened }),
    );
    await page.reload();
    return page;
  }

  it('a party still waiting when the day ends is told the queue closed for the day, never that an offer expired', async () => {
    const v = await venue();
    const never = await joined(t, owner, v.id, { name: 'Quinn Quiet', partySize: 2, phone: '+13125550171' });
    const lapsed = await joined(t, owner, v.id, { name: 'Lou Lapsed', partySize: 2, phone: '+13125550172' });
    const quiet = await pageWithSession(never.queueToken ?? '');
    const once = await pageWithSession(lapsed.queueToken ?? '');
    await state(quiet, 'waiting');
    await state(once, 'waiting');

    // One of them was offered a table earlier in the evening and let it lapse (its place was kept).
    await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/offers`)
      .set(owner.auth)
      .send({ entryId: lapsed.entry.id, entryVersion: lapsed.entry.version, tableIds: [v.tableIds['T1']] })
      .expect(201);
    await state(once, 'offered');
    await moveClock(t, owner, v.id, '2026-10-10T04:36:00.000Z');
    await state(once, 'waiting');

    // Past midnight the business day is over: both leave the queue with it.
    await moveClock(t, owner, v.id, AFTER_MIDNIGHT);
    for (const page of [quiet, once]) {
      await state(page, 'expired');
      const words = (await page.getByTestId('state').textContent()) ?? '';
      expect(words).toContain('You are no longer in the queue');
      expect(words).toContain(
        'The queue closed at the end of the day, and your place in it ended. To join again, ask at the desk when service is running.',
      );
      expect(words).not.toMatch(/offer|released/i);
      expect(await page.locator('[data-testid=offer-ended][data-ended=day-closed]').count()).toBe(1);
    }
    await screenshot(quiet, 'guest-day-closed');
  });

  it('a party the host removes reads that a removal stops its link too, and the way back', async () => {
    const v = await venue();
    const party = await joined(t, owner, v.id, { name: 'Removed Party', partySize: 2, phone: '+13125550173' });
    const page = await phone();
    await page.goto(`${t.baseUrl}/q/#${party.queueToken ?? ''}`);
    await state(page, 'waiting');
    await request(t.baseUrl).post(`/v1/venues/${v.id}/queue/${party.entry.id}/cancel`).set(owner.auth).send({}).expect(200);
    await state(page, 'gone');
    const words = await said(page);
    // Not only "the end of the day or a new code": the removal the party's text message told it of.
    expect(words).toContain('or when you leave the queue or the host removes you from it');
    expect(words).toContain('adds you again if you are no longer in it');
    expect(words).not.toContain(party.entry.name);
    await screenshot(page, 'guest-removed-by-host');
  });
});
