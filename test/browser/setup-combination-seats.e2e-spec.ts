import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { EVERY_DAY, sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { addMember, signUp, type Staff } from '../support/staff.js';
import { signInToVenueList } from './board-page.js';
import { describeWithChromium, launchChromium, newPhone, pauseClock, screenshot } from './chromium.js';

const d = describeWithChromium('Set up is tested in a real browser');

/**
 * Set up, "Tables that can be pushed together": a manager in Lisbon taps two tables and approves
 * them. The seats offered are the tables' seats added up, not a number left from before: a fixed 4
 * approved C4 + E6 as seating 4, and the board never offered them to the party of 9 they were for.
 */
d('Set up: a combination seats its tables added up unless the manager says otherwise', () => {
  let t: TestApp;
  let browser: Browser;
  let owner: Staff;
  let manager: Staff;
  let v: Sandbox;
  let context: BrowserContext;

  beforeAll(async () => {
    t = await startApp();
    browser = await launchChromium();
    owner = await signUp(t, 'combo-owner');
    v = await sandboxVenue(t, owner, {
      name: 'Tasca do Largo',
      timeZone: 'Europe/Lisbon',
      clock: '2026-11-20T18:30:00Z',
      windows: [{ days: EVERY_DAY, start: '18:00', end: '23:00', turnMinutes: 90 }],
      tables: [
        { label: 'A2', capacity: 2 },
        { label: 'B2', capacity: 2 },
        { label: 'C4', capacity: 4 },
        { label: 'E6', capacity: 6 },
      ],
    });
    manager = await addMember(t, v.id, owner, 'manager');
    context = await newPhone(browser);
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await t?.close();
  });

  const combos = async (): Promise<Array<{ capacity: number; tableIds: string[] }>> =>
    (await request(t.baseUrl).get(`/v1/venues/${v.id}/combinations`).set(manager.auth).expect(200)).body as Array<{
      capacity: number;
      tableIds: string[];
    }>;

  it('phone: C4 + E6 tapped and approved seat 10; seats the manager typed are kept', async () => {
    const p: Page = await context.newPage();
    await signInToVenueList(p, t.baseUrl, manager, v.id);
    await p.goto(`${t.baseUrl}/board/venues/${v.id}/setup`);
    const card = p.getByTestId('combinations-setup');
    await card.scrollIntoViewIfNeeded();
    const seats = card.locator('input[name=comboCapacity]');

    await card.locator('[data-combo-table=C4]').click();
    await card.locator('[data-combo-table=E6]').click();
    expect(await seats.inputValue()).toBe('10');
    await p.getByTestId('add-combination').click();
    await card.getByTestId('combination-line').filter({ hasText: 'C4 + E6' }).waitFor();
    expect(await card.getByTestId('combination-line').innerText()).toContain('C4 + E6 · seats 10');
    expect((await combos()).map((c) => c.capacity)).toEqual([10]);

    // The next pick starts from its own tables again; a number the manager typed is what is approved.
    await card.locator('[data-combo-table=A2]').click();
    await card.locator('[data-combo-table=B2]').click();
    expect(await seats.inputValue()).toBe('4');
    await seats.fill('9');
    await card.locator('[data-combo-table=C4]').click();
    expect(await seats.inputValue()).toBe('9');
    // More than the three tables seat together (2 + 2 + 4): the server refuses it, in words.
    await p.getByTestId('add-combination').click();
    const refusal = card.getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.innerText()).toMatch(
      /^(A2|B2|C4) \+ (A2|B2|C4) \+ (A2|B2|C4) seat 8 together \([0-9 +]+\); a combination of them cannot seat 9\.$/,
    );
    expect(await card.getByTestId('combination-line').filter({ hasText: 'A2 + B2 + C4' }).count()).toBe(0);
    await seats.fill('7');
    await p.getByTestId('add-combination').click();
    await card.getByTestId('combination-line').filter({ hasText: 'A2 + B2 + C4' }).waitFor();
    expect(await card.getByTestId('combination-line').filter({ hasText: 'A2 + B2 + C4' }).innerText()).toContain('seats 7');
    await screenshot(p, 'setup-combination-seats-phone');
  }, 120_000);
  it('phone: approving the same tables again says so alone (not under "Combination approved."), and goes with a new pick', async () => {
    const p: Page = await context.newPage();
    // The page's timers wait for the test: "Combination approved." stays up until it is dismissed or replaced.
    await p.clock.install();
    await signInToVenueList(p, t.baseUrl, manager, v.id);
    await p.goto(`${t.baseUrl}/board/venues/${v.id}/setup`);
    await pauseClock(p, 1000);
    const card = p.getByTestId('combinations-setup');
    await card.scrollIntoViewIfNeeded();
    await card.locator('[data-combo-table=A2]').click();
    await card.locator('[data-combo-table=E6]').click();
    await p.getByTestId('add-combination').click();
    await p.getByTestId('notice').filter({ hasText: 'Combination approved.' }).waitFor();
    // A mistake: the same two tables again.
    await card.locator('[data-combo-table=A2]').click();
    await card.locator('[data-combo-table=E6]').click();
    await p.getByTestId('add-combination').click();
    const refusal = card.getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.innerText()).toBe('These tables are already an approved combination.');
    expect(await p.getByTestId('notice').allInnerTexts()).toEqual([]);
    await screenshot(p, 'setup-combination-again-phone');
    // The correction: another table instead of E6. The refusal was about the pick before.
    await card.locator('[data-combo-table=E6]').click();
    await card.locator('[data-combo-table=B2]').click();
    expect(await refusal.count()).toBe(0);
    await p.close();
  }, 120_000);
});
