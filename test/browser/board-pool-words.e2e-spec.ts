import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { exchange, joined, queueSession, sandboxVenue, type JoinBody, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';
import { boardLive, openVenueBoard } from './board-page.js';
import { describeWithChromium, launchChromium, newPhone, screenshot } from './chromium.js';

const d = describeWithChromium('the board at a seat-pool venue is tested in a real browser');

/** What a restaurant's floor says and a workshop's seat pool has not: tables, and seating a party at one. */
const TABLE_WORDS = /\btables?\b|\bseated\b/i;

/**
 * A workshop organizer runs the board on a 390×844 phone: a 7-seat pool, 23-minute holds, groups of
 * odd sizes. The guest page speaks of held seats; the board told the organizer "Table offered" on a
 * held group's row, "accepted: to be seated." after accepting for them, "a table is offered" under
 * Find by code, and "Their table is free again." when a held group left from its phone.
 */
d('the board at a seat-pool (workshop) venue on a phone speaks of seats, not tables', () => {
  let t: TestApp;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let owner: Staff;
  let v: Sandbox;
  const api = () => request(t.baseUrl);

  beforeAll(async () => {
    t = await startApp();
    browser = await launchChromium();
    owner = await signUp(t, 'owner');
    // 16:40 in Reykjavik (UTC all year).
    v = await sandboxVenue(t, owner, {
      timeZone: 'Atlantic/Reykjavik',
      clock: '2026-12-05T16:40:00Z',
      preset: 'workshop',
      poolCapacity: 7,
      patch: { policy: { holdSeconds: 1380 } },
    });
  });
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser.close();
    await t.close();
  });

  const promote = async (): Promise<void> => {
    await api().post(`/v1/venues/${v.id}/promotions`).set(owner.auth).send({}).expect(201);
  };
  const row = (page: Page, name: string) => page.locator('[data-testid=entry]').filter({ hasText: name });
  const notices = (page: Page) => page.locator('[data-testid=notice]');

  it('names held seats on the row, after accepting, under Find by code and when a group leaves', async () => {
    const groups: JoinBody[] = [];
    for (const [name, partySize] of [
      ['Ada Group', 3],
      ['Bo Group', 1],
      ['Cy Group', 3],
    ] as const)
      groups.push(await joined(t, owner, v.id, { name, partySize, email: `${name.split(' ')[0]?.toLowerCase()}@example.test` }));

    const context = await newPhone(browser);
    contexts.push(context);
    const page = await context.newPage();
    await openVenueBoard(page, t.baseUrl, owner, v.id);
    await boardLive(page);

    // A 3-seat hold for the oldest group: its row.
    await promote();
    const ada = row(page, 'Ada Group');
    await ada.locator('[data-testid=accept]').waitFor();
    await screenshot(page, 'board-pool-words-held');
    expect(await ada.innerText()).not.toMatch(TABLE_WORDS);
    expect(await ada.innerText()).toContain('Seats held');

    // Accepting for them.
    await ada.locator('[data-testid=accept]').click();
    const accepted = notices(page).filter({ hasText: 'Ada Group' });
    await accepted.first().waitFor();
    expect(await accepted.first().innerText()).not.toMatch(TABLE_WORDS);

    // Bo is held a seat and leaves from its own phone.
    await promote();
    await row(page, 'Bo Group').locator('[data-testid=accept]').waitFor();
    const bo = groups[1]?.queueToken ?? '';
    const session = (await exchange(t, bo).expect(201)).body as { sessionToken: string };
    await api().post('/v1/queue-session/leave').set(queueSession(session.sessionToken)).send({}).expect(200);
    const left = notices(page).filter({ hasText: 'Bo Group left' });
    await left.first().waitFor();
    expect(await left.first().innerText()).not.toMatch(TABLE_WORDS);
    expect(await left.first().innerText()).toContain('seat');

    // Cy is held three seats; the desk finds it by its code.
    await promote();
    await row(page, 'Cy Group').locator('[data-testid=accept]').waitFor();
    await page.getByRole('button', { name: 'Find by code' }).click();
    await page.fill('input[name=token]', groups[2]?.queueToken ?? '');
    await page.locator('[data-testid=lookup-submit]').click();
    const found = page.locator('[data-testid=found]');
    await found.locator('[data-testid=found-accept]').waitFor();
    await screenshot(page, 'board-pool-words-found');
    expect(await found.innerText()).not.toMatch(TABLE_WORDS);
    expect(await found.locator('[data-testid=found-status]').innerText()).toContain('seats are held');
  });
});
