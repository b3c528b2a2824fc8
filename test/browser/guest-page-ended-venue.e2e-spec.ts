import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { joined, moveClock, sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';
import { describeWithChromium, launchChromium, newPhone, screenshot } from './chromium.js';

/** The page polls every 3 s; a change must show within this. */
const SHOW_BOUND = 10_000;
const T0 = '2026-10-14T00:20:00.000Z'; // 7:20 PM in Chicago
const VENUE = 'Lakeview Noodle Bar';

const d = describeWithChromium('the guest page is tested in a real browser');

/**
 * A party's page opened again after its place ended still names the venue: after the party left,
 * after the host removed it, and after it was seated and its hour-long session ran out. The server
 * reads nothing of an ended link (TOKEN_INVALID); the page keeps the venue's name with the link, as
 * it keeps the venue's seating, from the last time it could read the entry.
 */
d('the guest page names the venue in every ended state, on a 390×844 phone', () => {
  let t: TestApp;
  let owner: Staff;
  let browser: Browser;
  let v: Sandbox;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'owner');
    browser = await launchChromium();
    v = await sandboxVenue(t, owner, {
      name: VENUE,
      clock: T0,
      windows: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '17:00', end: '23:59', turnMinutes: 30 }],
      tables: [
        { label: 'T1', capacity: 2 },
        { label: 'T2', capacity: 6 },
      ],
    });
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
  const venueShown = async (page: Page): Promise<string> => (await page.getByTestId('venue').textContent()) ?? '';
  const fits = async (page: Page): Promise<void> => {
    expect(await page.evaluate('document.documentElement.scrollWidth - innerWidth')).toBe(0);
  };

  it('after the party left: reloaded, and opened again from the plain /q/ link', async () => {
    const party = await joined(t, owner, v.id, { name: 'Tove Leaving', partySize: 3, phone: '+13125550164' });
    const page = await phone();
    await page.goto(`${t.baseUrl}/q/#${party.queueToken ?? ''}`);
    await state(page, 'waiting');
    await page.getByTestId('leave').click();
    await page.getByTestId('leave-confirm').click();
    await state(page, 'cancelled');
    expect(await venueShown(page)).toBe(VENUE);

    await page.reload();
    await state(page, 'left');
    expect(await venueShown(page)).toBe(VENUE);
    // The card's own words are unchanged.
    expect(await page.getByTestId('left').textContent()).toBe('You have left the queueTo join again, ask at the desk.');
    await fits(page);
    await screenshot(page, 'guest-left-reopened-venue');

    const again = await page.context().newPage();
    await again.goto(`${t.baseUrl}/q/`);
    await state(again, 'left');
    expect(await venueShown(again)).toBe(VENUE);
  });

  it('after the host removed the party: at once, and reloaded', async () => {
    const party = await joined(t, owner, v.id, { name: 'Ulla Removed', partySize: 2, phone: '+13125550165' });
    const page = await phone();
    await page.goto(`${t.baseUrl}/q/#${party.queueToken ?? ''}`);
    await state(page, 'waiting');
    await request(t.baseUrl).post(`/v1/venues/${v.id}/queue/${party.entry.id}/cancel`).set(owner.auth).send({}).expect(200);
    await state(page, 'gone');
    expect(await venueShown(page)).toBe(VENUE);
    // Still nothing of the entry itself: the server read none of it for this link.
    expect(await page.getByTestId('guest-page').textContent()).not.toContain('Ulla Removed');

    await page.reload();
    await state(page, 'gone');
    expect(await venueShown(page)).toBe(VENUE);
    await fits(page);
    await screenshot(page, 'guest-removed-reopened-venue');
  });

  it('after the party was seated and its session ran out', async () => {
    const party = await joined(t, owner, v.id, { name: 'Vik Seated', partySize: 5, phone: '+13125550166' });
    const page = await phone();
    await page.goto(`${t.baseUrl}/q/#${party.queueToken ?? ''}`);
    await state(page, 'waiting');
    const offered = await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/offers`)
      .set(owner.auth)
      .send({ entryId: party.entry.id, entryVersion: party.entry.version, tableIds: [v.tableIds['T2']] })
      .expect(201);
    expect((offered.body as { offer: { id: string } }).offer.id).toBeTruthy();
    // The party confirms on its phone: the token is spent for a 60-minute session.
    await state(page, 'offered');
    await page.getByTestId('confirm').click();
    await state(page, 'confirmed');
    const toSeat = (await request(t.baseUrl).get(`/v1/venues/${v.id}/reservations`).set(owner.auth).expect(200)).body as Array<{
      id: string;
      entryId: string | null;
      state: string;
    }>;
    const reservation = toSeat.find((r) => r.entryId === party.entry.id && r.state === 'CONFIRMED');
    await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/reservations/${reservation?.id ?? ''}/seat`)
      .set(owner.auth)
      .expect(201);
    await state(page, 'seated');
    expect(await venueShown(page)).toBe(VENUE);

    // An hour and a quarter later the session has ended: the page opened again reads nothing.
    await moveClock(t, owner, v.id, '2026-10-14T01:35:00.000Z');
    await page.reload();
    await state(page, 'gone');
    expect(await venueShown(page)).toBe(VENUE);
    await fits(page);
  });
});
