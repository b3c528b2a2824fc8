import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { addMember, chooseOwnPassword, signIn, signUp, type Staff } from '../support/staff.js';
import { boardLive, openVenueBoard } from './board-page.js';
import { describeWithChromium, launchChromium, screenshot } from './chromium.js';

const d = describeWithChromium('a host’s board whose session ends is tested in a real browser');

/**
 * A host's session ends while their board is open (they changed their password on another device,
 * which ends every other session). The server closes the board's socket; socket.io never reconnects
 * after the server closed it, and the board said "Reconnecting… actions paused" for good, every act
 * greyed out, with nothing telling the host to sign in again. Now it says the session ended, on the
 * sign-in form, at a phone and a desk tablet.
 */
d('a host whose session ends mid-shift', () => {
  let t: TestApp;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let owner: Staff;
  let v: Sandbox;

  beforeAll(async () => {
    t = await startApp();
    browser = await launchChromium();
    owner = await signUp(t, 'owner');
    v = await sandboxVenue(t, owner, {
      timeZone: 'America/Denver',
      // 6:40 PM in Denver on a Friday.
      clock: '2026-12-12T01:40:00Z',
      windows: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '17:00', end: '22:30', turnMinutes: 75 }],
      tables: [{ label: 'Nook 3', capacity: 3 }],
    });
  }, 120_000);
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await t?.close();
  });

  async function boardOf(host: Staff, size: { width: number; height: number }): Promise<Page> {
    const context = await browser.newContext({ viewport: size, hasTouch: true, isMobile: size.width < 500, locale: 'en-US' });
    contexts.push(context);
    const page = await context.newPage();
    await openVenueBoard(page, t.baseUrl, host, v.id);
    await boardLive(page, 10_000);
    return page;
  }

  it('the phone and the tablet say the session ended and ask to sign in, not "Reconnecting…" for good', async () => {
    const host = await chooseOwnPassword(t, await addMember(t, v.id, owner, 'host'));
    const phone = await boardOf(host, { width: 390, height: 844 });
    const tablet = await boardOf(host, { width: 1280, height: 800 });
    // Half-way through adding a party at the desk.
    await phone.getByTestId('open-join').click();
    await phone.fill('input[name=name]', 'Yusuf Demir');

    // The host changes their password on their own phone: every other session ends.
    const elsewhere = await signIn(t, host.email, host.password);
    await request(t.baseUrl)
      .post('/v1/auth/password')
      .set(elsewhere.auth)
      .send({ currentPassword: host.password, newPassword: 'a-new-pass-7731' })
      .expect(200);

    for (const [name, page] of [
      ['phone', phone],
      ['tablet', tablet],
    ] as const) {
      const notice = page.getByText('Your session has ended. Please sign in again.');
      await notice.waitFor({ timeout: 10_000 });
      await page.locator('input[name=password]').waitFor();
      expect(await page.getByText('Reconnecting').count()).toBe(0);
      await screenshot(page, `session-ended-${name}`);
    }
  }, 60_000);
});
