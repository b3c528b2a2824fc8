import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { joined, sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';
import { describeWithChromium, launchChromium, newPhone } from './chromium.js';

/** The page polls every 3 s; a change must show within this. */
const SHOW_BOUND = 10_000;
const T0 = '2026-11-18T01:35:00.000Z'; // 7:35 PM in Chicago
const OLDER = 'Larkspur Canteen';
const NEWER = 'Harbour Noodle Bar';
const ONE_LINK = 'Copperleaf Diner';

const d = describeWithChromium('the guest page is tested in a real browser');

/**
 * Two tabs of the guest page on one phone share its storage. Tab A shows the first venue's place and
 * stays open; the guest follows the second venue's link in tab B. Each tab goes on showing its own
 * party, and whatever tab A does later (its polls, a Confirm that opens its session, a leave) must not
 * write the first venue's link back over the second's: the phone remembers the link opened last, so
 * /q/ opened again (a message's plain link) shows the second venue's place.
 */
d('the guest page in two tabs of one 390×844 phone, two venues’ links', () => {
  let t: TestApp;
  let owner: Staff;
  let browser: Browser;
  let a: Sandbox;
  let b: Sandbox;
  let c: Sandbox;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'owner');
    browser = await launchChromium();
    // Practice venues: their clocks stand still, so a hold cannot lapse while the test runs.
    const venue = (name: string) =>
      sandboxVenue(t, owner, {
        name,
        clock: T0,
        windows: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '17:00', end: '23:59', turnMinutes: 35 }],
        tables: [{ label: 'T5', capacity: 5 }],
      });
    a = await venue(OLDER);
    b = await venue(NEWER);
    c = await venue(ONE_LINK);
  });
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await t.close();
  });

  const state = (page: Page, s: string) =>
    page.locator(`[data-testid=guest-page][data-state=${s}]`).waitFor({ timeout: SHOW_BOUND });
  const venueShown = async (page: Page): Promise<string> => (await page.getByTestId('venue').textContent()) ?? '';
  const nextPoll = (page: Page) =>
    page.waitForResponse((r) => /\/v1\/queue-(status|session)$/.test(new URL(r.url()).pathname), { timeout: SHOW_BOUND });
  const offerT5 = async (venue: Sandbox, entryId: string): Promise<void> => {
    const entry = (
      (await request(t.baseUrl).get(`/v1/venues/${venue.id}/queue`).set(owner.auth).expect(200)).body as {
        entries: Array<{ id: string; version: number }>;
      }
    ).entries.find((e) => e.id === entryId);
    await request(t.baseUrl)
      .post(`/v1/venues/${venue.id}/offers`)
      .set(owner.auth)
      .send({ entryId, entryVersion: entry?.version, tableIds: [venue.tableIds['T5']] })
      .expect(201);
  };
  /** /q/ opened again in a new tab of the same phone (a message's link carries no token): the place it remembers. */
  const reopened = async (context: BrowserContext): Promise<{ venue: string; state: string | null }> => {
    const page = await context.newPage();
    try {
      await page.goto(`${t.baseUrl}/q/`);
      await page.locator('[data-testid=guest-page]:not([data-state=loading])').waitFor({ timeout: SHOW_BOUND });
      await page.getByTestId('venue').waitFor({ timeout: SHOW_BOUND });
      return { venue: await venueShown(page), state: await page.getByTestId('guest-page').getAttribute('data-state') };
    } finally {
      await page.close();
    }
  };

  /** Tab A on the first venue's place, tab B on the second's (followed over the first, both live). */
  const twoTabs = async (phone: string): Promise<{ context: BrowserContext; tabA: Page; tabB: Page; firstId: string }> => {
    const context = await newPhone(browser);
    contexts.push(context);
    const first = await joined(t, owner, a.id, { name: 'Iris Okafor', partySize: 4, phone });
    const second = await joined(t, owner, b.id, { name: 'Iris Okafor', partySize: 3, phone });

    const tabA = await context.newPage();
    await tabA.goto(`${t.baseUrl}/q/#${first.queueToken ?? ''}`);
    await state(tabA, 'waiting');
    expect(await venueShown(tabA)).toBe(OLDER);

    // Tab B: the second venue's link. Both places are live, so the page asks; the guest follows it.
    const tabB = await context.newPage();
    await tabB.goto(`${t.baseUrl}/q/#${second.queueToken ?? ''}`);
    await tabB.getByTestId('choose').waitFor({ timeout: SHOW_BOUND });
    await tabB.getByTestId('follow-link').click();
    await state(tabB, 'waiting');
    expect(await venueShown(tabB)).toBe(NEWER);
    return { context, tabA, tabB, firstId: first.entry.id };
  };

  it('tab A polls on and confirms the first venue’s table: the phone still remembers the second venue’s link', async () => {
    const { context, tabA, tabB, firstId } = await twoTabs('+13125550183');

    // Tab A polls on: it shows its own party, and the phone still remembers the second venue.
    await nextPoll(tabA);
    await nextPoll(tabA);
    expect(await venueShown(tabA)).toBe(OLDER);
    expect(await reopened(context)).toEqual({ venue: NEWER, state: 'waiting' });

    // The first venue offers a table; the guest confirms it in tab A (its first act opens its session).
    await offerT5(a, firstId);
    await state(tabA, 'offered');
    await tabA.getByTestId('confirm').click();
    await state(tabA, 'confirmed');
    await nextPoll(tabA);
    await state(tabA, 'confirmed');
    expect(await venueShown(tabA)).toBe(OLDER);
    expect(await reopened(context)).toEqual({ venue: NEWER, state: 'waiting' });

    // Tab A goes on with its own session; tab B followed its own party throughout.
    await nextPoll(tabA);
    await state(tabA, 'confirmed');
    await nextPoll(tabB);
    await state(tabB, 'waiting');
    expect(await venueShown(tabB)).toBe(NEWER);
  });

  it('tab A leaves the first venue’s queue: it says so, and /q/ opened again shows the second venue’s place', async () => {
    const { context, tabA, tabB } = await twoTabs('+13125550194');
    await tabA.getByTestId('leave').click();
    await tabA.getByTestId('leave-confirm').click();
    await state(tabA, 'cancelled');
    expect(await venueShown(tabA)).toBe(OLDER);
    expect(await reopened(context)).toEqual({ venue: NEWER, state: 'waiting' });
    await nextPoll(tabB);
    await state(tabB, 'waiting');
    expect(await venueShown(tabB)).toBe(NEWER);
  });

  it('one link in two tabs: the party leaves in tab B; tab A and /q/ opened again say it left', async () => {
    const context = await newPhone(browser);
    contexts.push(context);
    const party = await joined(t, owner, c.id, { name: 'Wanda Osei', partySize: 2, phone: '+13125550219' });
    const tabA = await context.newPage();
    await tabA.goto(`${t.baseUrl}/q/#${party.queueToken ?? ''}`);
    await state(tabA, 'waiting');
    const tabB = await context.newPage();
    await tabB.goto(`${t.baseUrl}/q/#${party.queueToken ?? ''}`);
    await state(tabB, 'waiting');
    await tabB.getByTestId('leave').click();
    await tabB.getByTestId('leave-confirm').click();
    await state(tabB, 'cancelled');
    // Tab A reads on (its token spent by the leave): the place it left, never a dead link.
    const ended = '[data-testid=guest-page][data-state=left], [data-testid=guest-page][data-state=gone]';
    await tabA.locator(ended).waitFor({ timeout: SHOW_BOUND });
    expect(await tabA.getByTestId('guest-page').getAttribute('data-state')).toBe('left');
    await nextPoll(tabA).catch(() => undefined);
    expect(await reopened(context)).toEqual({ venue: ONE_LINK, state: 'left' });
  });

  it('one link in two tabs: the party confirms in tab B, and tab A shows it confirmed, not a dead link', async () => {
    const context = await newPhone(browser);
    contexts.push(context);
    const party = await joined(t, owner, c.id, { name: 'Tomasz Wren', partySize: 5, phone: '+13125550207' });
    const tabA = await context.newPage();
    await tabA.goto(`${t.baseUrl}/q/#${party.queueToken ?? ''}`);
    await state(tabA, 'waiting');
    const tabB = await context.newPage();
    await tabB.goto(`${t.baseUrl}/q/#${party.queueToken ?? ''}`);
    await state(tabB, 'waiting');

    await offerT5(c, party.entry.id);
    await state(tabA, 'offered');
    await state(tabB, 'offered');
    // The Confirm in tab B spends the token (tab A read by it) and opens the session tab B keeps on the phone.
    await tabB.getByTestId('confirm').click();
    await state(tabB, 'confirmed');
    // Tab A's next polls: the confirmed place, not "This link no longer works" (after which it read no more).
    await tabA
      .locator('[data-testid=guest-page][data-state=confirmed], [data-testid=guest-page][data-state=gone]')
      .waitFor({ timeout: SHOW_BOUND });
    expect(await tabA.getByTestId('guest-page').getAttribute('data-state')).toBe('confirmed');
    await nextPoll(tabA);
    await state(tabA, 'confirmed');
    expect(await venueShown(tabA)).toBe(ONE_LINK);
    expect(await reopened(context)).toEqual({ venue: ONE_LINK, state: 'confirmed' });
  });
});
