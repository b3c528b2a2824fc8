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

  /**
   * At a seat pool a withdrawn hold ends the group's place (the guide: it leaves the active queue and
   * rejoins at the end), yet "Take back", beside "Accept for them" on a phone, withdrew at the first
   * tap, where the board asks a second tap for every other act that cannot be undone. The filter
   * above the rows said "Offered" where the rows and counts say held.
   */
  it('asks a second tap before taking back a hold that costs the group its place, and names holds', async () => {
    const pool = await sandboxVenue(t, owner, {
      timeZone: 'America/St_Johns',
      clock: '2026-12-10T23:20:00-03:30',
      preset: 'workshop',
      poolCapacity: 13,
      patch: { policy: { holdSeconds: 420 } },
    });
    const ngaio = await joined(t, owner, pool.id, { name: 'Ngaio Group', partySize: 4, email: 'ngaio@example.test' });
    await joined(t, owner, pool.id, { name: 'Pita Group', partySize: 6, email: 'pita@example.test' });
    for (let i = 0; i < 2; i++) await api().post(`/v1/venues/${pool.id}/promotions`).set(owner.auth).send({}).expect(201);

    const context = await newPhone(browser);
    contexts.push(context);
    const page = await context.newPage();
    await openVenueBoard(page, t.baseUrl, owner, pool.id);
    await boardLive(page);
    const ng = row(page, 'Ngaio Group');
    await ng.locator('[data-testid=withdraw]').waitFor();
    expect(await page.locator('[data-filter=offered]').innerText()).toBe('Held 2');

    // One tap (a thumb that missed "Accept for them") takes nothing back.
    await ng.locator('[data-testid=withdraw]').click();
    await ng.locator('[data-testid=withdraw]').filter({ hasText: 'Tap again: leaves the queue' }).waitFor();
    const entry = async (): Promise<string> =>
      (
        (await api().get(`/v1/venues/${pool.id}/queue/${ngaio.entry.id}`).set(owner.auth).expect(200)).body as {
          entry: { status: string };
        }
      ).entry.status;
    expect(await entry()).toBe('offered');
    await screenshot(page, 'board-pool-take-back-armed');

    // The second tap does, and says what became of the group.
    await ng.locator('[data-testid=withdraw]').click();
    await notices(page).filter({ hasText: 'Hold for Ngaio Group taken back. They have left the queue.' }).first().waitFor();
    expect(await entry()).toBe('expired');
    expect(await page.locator('[data-filter=offered]').innerText()).toBe('Held 1');
  });
});
