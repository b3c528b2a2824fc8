import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import request from 'supertest';
import { errorOf, freshAddress, joined, moveClock, sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';
import { describeWithChromium, launchChromium, newPhone, screenshot } from './chromium.js';

/** The page polls every 3 s; a change must show within this. */
const SHOW_BOUND = 10_000;
const T0 = '2026-11-21T02:40:00.000Z'; // 7:40 PM in Denver (MST, UTC-7)
const ELEVEN_MINUTES = 660;

const d = describeWithChromium('the guest page is tested in a real browser');

/** What the page keeps on the phone (web/guest/src/credentials.ts). */
type Kept = { token: string | null; key?: string; session: { sessionToken: string } | null };

/**
 * A guest with only a phone on a weak signal, at a venue in Denver with 11-minute holds: answers lost
 * on the way back must not lock the party out of its own place, and a copied link stays one-time.
 */
d('a phone on a weak signal, at a venue in Denver, on a 390×844 phone', () => {
  let t: TestApp;
  let owner: Staff;
  let browser: Browser;
  let v: Sandbox;
  const contexts: BrowserContext[] = [];
  let n = 0;
  const nextPhone = (): string => `(303) 555-0${String(140 + ++n)}`;

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'owner');
    browser = await launchChromium();
    v = await sandboxVenue(t, owner, {
      name: 'Cherry Creek Cantina',
      clock: T0,
      timeZone: 'America/Denver',
      windows: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '16:00', end: '23:30', turnMinutes: 50 }],
      tables: [
        { label: 'C3', capacity: 3 },
        { label: 'C6', capacity: 6 },
      ],
      patch: { policy: { holdSeconds: ELEVEN_MINUTES } },
    });
  });
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await t?.close();
  });

  async function phone(): Promise<Page> {
    const context = await newPhone(browser);
    contexts.push(context);
    return context.newPage();
  }
  const state = (page: Page, s: string) =>
    page.locator(`[data-testid=guest-page][data-state=${s}]`).waitFor({ timeout: SHOW_BOUND });
  const kept = async (page: Page): Promise<Kept> =>
    JSON.parse((await page.evaluate(`localStorage.getItem('hostboard.queue')`)) as string) as Kept;

  async function offer(entryId: string, tableLabel: string): Promise<{ expiresAt: string }> {
    const entry = (await request(t.baseUrl).get(`/v1/venues/${v.id}/queue/${entryId}`).set(owner.auth).expect(200)).body as {
      entry: { version: number };
    };
    const offered = await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/offers`)
      .set(owner.auth)
      .send({ entryId, entryVersion: entry.entry.version, tableIds: [v.tableIds[tableLabel]] })
      .expect(201);
    return (offered.body as { offer: { expiresAt: string } }).offer;
  }

  it('a Confirm whose answer is lost on the way back still confirms the table on the phone; the copied link opens nothing', async () => {
    const party = await joined(t, owner, v.id, { name: 'Rosa Weak Signal', partySize: 3, phone: nextPhone() });
    const page = await phone();
    await page.goto(`${t.baseUrl}/q/#${party.queueToken ?? ''}`);
    await state(page, 'waiting');
    await offer(party.entry.id, 'C3');
    await state(page, 'offered');

    // The Confirm reaches the server (the link is spent, a session opened), and its answer is lost.
    let dropped = 0;
    const dropFirst = async (route: Route): Promise<void> => {
      if (dropped > 0) return route.continue();
      dropped++;
      await route.fetch();
      await route.abort('internetdisconnected');
    };
    await page.route('**/v1/queue-sessions', dropFirst);
    await page.route('**/v1/queue-status/accept', dropFirst);
    const lost = page.waitForEvent('requestfailed', (r) => /\/v1\/queue-(sessions|status\/accept)$/.test(r.url()));
    await page.getByTestId('confirm').click();
    await lost;
    expect(dropped).toBe(1);

    // The signal is back: the page shows the party's table confirmed (it did not say the link no
    // longer works): its next read asked the exchange again with its key and got its session.
    await state(page, 'confirmed');
    await screenshot(page, 'guest-weak-signal-confirmed-after-lost-answer');
    await page.unrouteAll();

    // One-time still: whoever copied the link gets nothing, with another key or none.
    const { key, token } = await kept(page);
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const other = 'Z'.repeat(43);
    for (const body of [{ token }, { token, key: other }]) {
      const res = await request(t.baseUrl).post('/v1/queue-sessions').set('X-Forwarded-For', freshAddress()).send(body);
      expect([res.status, errorOf(res).code]).toEqual([401, 'TOKEN_INVALID']);
    }
    // The phone's own key opens its session again within minutes, and no longer after ten.
    const again = await request(t.baseUrl).post('/v1/queue-sessions').set('X-Forwarded-For', freshAddress()).send({ token, key });
    expect(again.status).toBe(201);
    expect((again.body as { sessionToken: string }).sessionToken).toBe((await kept(page)).session?.sessionToken);
    await moveClock(t, owner, v.id, new Date(Date.parse(T0) + 11 * 60_000).toISOString());
    const late = await request(t.baseUrl).post('/v1/queue-sessions').set('X-Forwarded-For', freshAddress()).send({ token, key });
    expect([late.status, errorOf(late).code]).toEqual([401, 'TOKEN_INVALID']);
    await state(page, 'confirmed');
  }, 90_000);
  it('a Confirm that reaches the server just after the hold lapsed spends nothing: the page goes on past the hour and confirms the next table', async () => {
    const party = await joined(t, owner, v.id, { name: 'Beto Late Tap', partySize: 5, phone: nextPhone() });
    const page = await phone();
    await page.goto(`${t.baseUrl}/q/#${party.queueToken ?? ''}`);
    await state(page, 'waiting');
    const { expiresAt } = await offer(party.entry.id, 'C6');
    await state(page, 'offered');
    // The page's reads wait (a weak signal) while the eleven minutes pass; the tap gets through.
    let release: () => void = () => undefined;
    const released = new Promise<void>((r) => (release = r));
    await page.route('**/v1/queue-status', async (route) => {
      await released;
      await route.continue();
    });
    await moveClock(t, owner, v.id, new Date(Date.parse(expiresAt) + 2_000).toISOString());
    const refused = page.waitForResponse((r) => r.url().endsWith('/accept'));
    await page.getByTestId('confirm').click();
    expect((await refused).status()).toBe(409);
    release();
    await state(page, 'waiting');
    await page.getByTestId('offer-ended').waitFor({ timeout: SHOW_BOUND });
    await page.unrouteAll();
    expect((await kept(page)).session).toBeNull();

    // 65 minutes on, still waiting: the page still reads the party's place (a session opened by the
    // refused tap had run out, and the page said "This link no longer works"), and confirms the next table.
    await moveClock(t, owner, v.id, new Date(Date.parse(expiresAt) + 65 * 60_000).toISOString());
    await page.waitForTimeout(3_500);
    await state(page, 'waiting');
    await offer(party.entry.id, 'C6');
    await state(page, 'offered');
    await page.getByTestId('confirm').click();
    await state(page, 'confirmed');
    expect((await kept(page)).session?.sessionToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await screenshot(page, 'guest-weak-signal-confirmed-after-a-late-tap');
  }, 90_000);

  it('a page left open past midnight in Auckland says the day’s queue closed, by its link and after its session ran out', async () => {
    // 11:40 PM in Auckland (NZDT, UTC+13); service until 11:45 PM, 9-minute holds.
    const nz = await sandboxVenue(t, owner, {
      name: 'Ponsonby Table',
      clock: '2026-12-09T10:40:00.000Z',
      timeZone: 'Pacific/Auckland',
      windows: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '17:00', end: '23:45', turnMinutes: 40 }],
      tables: [{ label: 'P4', capacity: 4 }],
      patch: { policy: { holdSeconds: 540 } },
    });
    // One party's page reads by its link (it never acted); the other's by the session its act opened.
    const byLink = await joined(t, owner, nz.id, { name: 'Aroha By Link', partySize: 4, phone: '021 555 0182' });
    const bySession = await joined(t, owner, nz.id, { name: 'Mere By Session', partySize: 3, phone: '021 555 0183' });
    const linkPage = await phone();
    await linkPage.goto(`${t.baseUrl}/q/#${byLink.queueToken ?? ''}`);
    await state(linkPage, 'waiting');
    const sessionPage = await phone();
    await sessionPage.goto(`${t.baseUrl}/q/#${bySession.queueToken ?? ''}`);
    await state(sessionPage, 'waiting');
    const opened = await request(t.baseUrl)
      .post('/v1/queue-sessions')
      .set('X-Forwarded-For', freshAddress())
      .send({ token: bySession.queueToken })
      .expect(201);
    type Storage = { localStorage: { setItem(key: string, value: string): void } };
    await sessionPage.evaluate(
      (k) => (globalThis as unknown as Storage).localStorage.setItem('hostboard.queue', k),
      JSON.stringify({ token: bySession.queueToken, session: opened.body as unknown, venueName: 'Ponsonby Table' }),
    );
    await sessionPage.reload();
    await state(sessionPage, 'waiting');

    // 12:20 AM: the day has ended, and the parties still waiting left the queue with it.
    await moveClock(t, owner, nz.id, '2026-12-09T11:20:00.000Z');
    const closedWords =
      'The queue closed at the end of the day, and your place in it ended. To join again, ask at the desk when service is running.';
    await state(linkPage, 'day-closed');
    expect(await linkPage.getByTestId('day-closed').textContent()).toBe(`The queue has closed for the day${closedWords}`);
    expect(await linkPage.getByTestId('venue').textContent()).toBe('Ponsonby Table');
    expect(await linkPage.getByTestId('guest-page').textContent()).not.toContain('no longer works');
    await screenshot(linkPage, 'guest-day-closed-by-link');
    await state(sessionPage, 'expired');
    expect(await sessionPage.getByTestId('state').textContent()).toContain(closedWords);

    // The next morning both pages, opened again, still say so.
    await moveClock(t, owner, nz.id, '2026-12-09T20:30:00.000Z');
    for (const page of [linkPage, sessionPage]) {
      await page.reload();
      await state(page, 'day-closed');
      expect(await page.getByTestId('day-closed').textContent()).toBe(`The queue has closed for the day${closedWords}`);
    }
    await screenshot(sessionPage, 'guest-day-closed-next-morning');
  }, 90_000);
});
