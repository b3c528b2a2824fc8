import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { addMember, chooseOwnPassword, signUp, type Staff } from '../support/staff.js';
import { boardLive, signInOnBoard } from './board-page.js';
import { describeWithChromium, launchChromium, newTablet, screenshot } from './chromium.js';

const d = describeWithChromium('the table picker is tested in a real browser');

/**
 * Two tablets, one party. A host opened "Offer a table" for a party of 2 while the other tablet
 * corrected it to 3: the picker kept "(2)" and the party's old version, so every tap on "Offer this
 * table" answered "The entry changed since you read it; reload the queue and retry." although the
 * board behind it had long shown 3 people; only closing the sheet helped, and it fitted the party
 * to 2-tops meanwhile. A party offered a table from the other tablet left the picker just as open.
 */
d('the table picker follows the party as other tablets change it', () => {
  let t: TestApp;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let owner: Staff;
  let host: Staff;
  let v: Sandbox;
  const api = () => request(t.baseUrl);

  beforeAll(async () => {
    t = await startApp();
    browser = await launchChromium();
    owner = await signUp(t, 'owner');
    v = await sandboxVenue(t, owner, {
      timeZone: 'Australia/Adelaide',
      clock: '2026-12-04T08:30:00Z',
      windows: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '17:00', end: '01:00', turnMinutes: 30 }],
      tables: [
        { label: 'T1', capacity: 2 },
        { label: 'T4', capacity: 4 },
      ],
    });
    host = await chooseOwnPassword(t, await addMember(t, v.id, owner, 'host'));
  });
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser.close();
    await t.close();
  });

  async function pickerFor(name: string): Promise<Page> {
    const context = await newTablet(browser);
    contexts.push(context);
    const p = await context.newPage();
    await signInOnBoard(p, t.baseUrl, host, `/board/venues/${v.id}`);
    await boardLive(p, 10_000);
    await p.locator('[data-testid=entry]', { hasText: name }).getByTestId('offer-tables').click();
    await p.getByTestId('table-picker').waitFor();
    return p;
  }

  async function join(name: string, phone: string): Promise<{ id: string; version: number }> {
    const r = await api().post(`/v1/venues/${v.id}/queue`).set(owner.auth).send({ name, partySize: 2, phone }).expect(201);
    return (r.body as { entry: { id: string; version: number } }).entry;
  }

  it('a party corrected on the other tablet is offered with the picker still open, as the party it is now', async () => {
    const entry = await join('Aroha Ngata', '+61412000201');
    const p = await pickerFor('Aroha Ngata');
    await api()
      .patch(`/v1/venues/${v.id}/queue/${entry.id}`)
      .set(owner.auth)
      .send({ entryVersion: entry.version, partySize: 3 })
      .expect(200);
    // The board behind the sheet has it (the push and the read); the sheet follows.
    await p.locator('[data-testid=entry]', { hasText: '3 people' }).waitFor({ timeout: 10_000 });
    await p.getByTestId('table-picker').getByText('Offer a table to Aroha Ngata (3)').waitFor({ timeout: 5_000 });
    const picker = p.getByTestId('table-picker');
    await picker.locator(`[data-table-id="${v.tableIds['T1']}"]`).click();
    expect(await p.getByTestId('picker-fit').textContent()).toContain('Table T1 seats 2');
    await picker.locator(`[data-table-id="${v.tableIds['T1']}"]`).click();
    await picker.locator(`[data-table-id="${v.tableIds['T4']}"]`).click();
    await p.getByTestId('picker-submit').click();
    await p.getByTestId('table-picker').waitFor({ state: 'detached', timeout: 10_000 });
    const q = (await api().get(`/v1/venues/${v.id}/queue/${entry.id}`).set(owner.auth).expect(200)).body as {
      entry: { status: string; partySize: number };
    };
    expect(q.entry).toMatchObject({ status: 'offered', partySize: 3 });
  });

  it('a party the other tablet offered a table meanwhile: the picker says so and offers nothing', async () => {
    const entry = await join('Bea Two-Tablets', '+61412000202');
    const p = await pickerFor('Bea Two-Tablets');
    const free = (await api().get(`/v1/venues/${v.id}/board`).set(owner.auth).expect(200)).body as {
      tables: Array<{ id: string; label: string; state: string; capacity: number }>;
    };
    const table = free.tables.find((x) => x.state === 'free');
    await api()
      .post(`/v1/venues/${v.id}/offers`)
      .set(owner.auth)
      .send({ entryId: entry.id, entryVersion: entry.version, tableIds: [table?.id] })
      .expect(201);
    await p.getByTestId('picker-gone').waitFor({ timeout: 10_000 });
    await screenshot(p, 'picker-party-gone');
    expect(await p.getByTestId('picker-gone').textContent()).toBe(
      `Bea Two-Tablets is no longer waiting for a table: another screen offered them Table ${table?.label ?? '?'}.`,
    );
    expect(await p.getByTestId('picker-submit').isDisabled()).toBe(true);
  });
});
