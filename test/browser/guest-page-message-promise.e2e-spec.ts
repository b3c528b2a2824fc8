import type { Browser, BrowserContext, Page } from 'playwright-core';
import { joined, sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';
import { describeWithChromium, launchChromium, newPhone, screenshot } from './chromium.js';

/** The page polls every 3 s; a state must show within this. */
const SHOW_BOUND = 10_000;
const T0 = '2026-12-05T07:20:00.000Z'; // 8:20 PM in Auckland (NZDT)
const PROMISE = 'we will message you too';

const d = describeWithChromium('the guest page is tested in a real browser');

/**
 * A waiting party's page promised "we will message you too" whatever the venue sends. In the pilot
 * (no email or text provider) every message is only recorded for the manager: a guest who put the
 * phone away for the promised text never got one, and missed the offer's minutes.
 */
d('the guest page promises a message only when one will be sent (390×844 phone, Auckland)', () => {
  const apps: TestApp[] = [];
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  async function venueOn(env?: Record<string, string>): Promise<{ t: TestApp; owner: Staff; v: Sandbox }> {
    const t = await startApp(env ? { env } : {});
    apps.push(t);
    const owner = await signUp(t, 'owner');
    const v = await sandboxVenue(t, owner, {
      clock: T0,
      timeZone: 'Pacific/Auckland',
      windows: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '17:00', end: '23:00', turnMinutes: 45 }],
      tables: [{ label: 'T9', capacity: 6 }],
      patch: { policy: { holdSeconds: 420 } },
    });
    return { t, owner, v };
  }

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    for (const t of apps) await t.close();
  });

  async function waitingPage(t: TestApp, token: string | null): Promise<string> {
    const context = await newPhone(browser, { locale: 'en-NZ' });
    contexts.push(context);
    const page: Page = await context.newPage();
    await page.goto(`${t.baseUrl}/q/#${token ?? ''}`);
    await page.locator('[data-testid=guest-page][data-state=waiting]').waitFor({ timeout: SHOW_BOUND });
    return (await page.getByTestId('state').textContent()) ?? '';
  }

  it('with no provider (the pilot), the waiting page tells the party to keep it, and promises no message', async () => {
    const { t, owner, v } = await venueOn();
    const party = await joined(t, owner, v.id, { name: 'Aroha Pilot', partySize: 3, phone: '+64211230001' });
    const said = await waitingPage(t, party.queueToken);
    expect(said).not.toContain(PROMISE);
    expect(said).toContain(
      'Your table will show here the moment it is ready. Keep this page open: no text or email will tell you. Nothing to do until then.',
    );
    await screenshot(contexts[contexts.length - 1]!.pages()[0]!, 'guest-waiting-no-message');
  }, 60_000);

  it('with a text provider, a party with a phone is promised the message; one with only an email is not', async () => {
    // Nothing listens on this port: a text that cannot go fails later; the page promises what the venue sends on.
    const { t, owner, v } = await venueOn({
      SMS_URL: 'http://127.0.0.1:4139/',
      SMS_ACCOUNT_SID: 'AC0000',
      SMS_AUTH_TOKEN: 'secret',
      SMS_FROM: '+6421000000',
    });
    const texted = await joined(t, owner, v.id, { name: 'Tane Text', partySize: 2, phone: '+64211230002' });
    expect(await waitingPage(t, texted.queueToken)).toContain(PROMISE);
    const emailed = await joined(t, owner, v.id, { name: 'Ema Mail', partySize: 2, email: 'ema@example.test' });
    expect(await waitingPage(t, emailed.queueToken)).not.toContain(PROMISE);
  }, 60_000);
});
