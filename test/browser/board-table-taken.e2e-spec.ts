import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { joined, sandboxVenue, type JoinBody, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { addMember, chooseOwnPassword, signUp, type Staff } from '../support/staff.js';
import { boardLive, openVenueBoard } from './board-page.js';
import { describeWithChromium, launchChromium, screenshot } from './chromium.js';

const d = describeWithChromium('two screens taking one table are tested in a real browser');

/**
 * Two hosts reach for the same table at the same moment. The one who loses was told "Table Booth 9
 * is already planned for Ines Varga (HELD).", a code in capitals; and a host seating a walk-in
 * there saw the table's sheet turn into the other party's offer, the refusal gone with the form:
 * nothing said the walk-in was not seated, and they stood at the desk believed seated.
 */
d('a table taken by another screen at the same moment', () => {
  let t: TestApp;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let owner: Staff;
  let host: Staff;
  let v: Sandbox;
  let ines: JoinBody;
  let kofi: JoinBody;

  beforeAll(async () => {
    t = await startApp();
    browser = await launchChromium();
    owner = await signUp(t, 'owner');
    v = await sandboxVenue(t, owner, {
      timeZone: 'America/Denver',
      // 7:05 PM in Denver on a Friday.
      clock: '2026-12-12T02:05:00Z',
      windows: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '17:00', end: '22:30', turnMinutes: 75 }],
      tables: [
        { label: 'Booth 9', capacity: 5 },
        { label: 'Nook 3', capacity: 3 },
      ],
      patch: { policy: { holdSeconds: 420 } },
    });
    host = await chooseOwnPassword(t, await addMember(t, v.id, owner, 'host'));
    ines = await joined(t, owner, v.id, { name: 'Ines Varga', partySize: 4, email: 'ines@example.test' });
    kofi = await joined(t, owner, v.id, { name: 'Kofi Mensah', partySize: 5, email: 'kofi@example.test' });
  }, 120_000);
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await t?.close();
  });

  async function boardOf(size: { width: number; height: number }): Promise<Page> {
    const context = await browser.newContext({ viewport: size, hasTouch: true, isMobile: size.width < 500, locale: 'en-US' });
    contexts.push(context);
    const page = await context.newPage();
    await openVenueBoard(page, t.baseUrl, host, v.id);
    await boardLive(page, 10_000);
    return page;
  }
  const tableOf = (page: Page, label: string) => page.locator(`[data-testid=table][data-table-id="${v.tableIds[label]}"]`);

  /** Another screen offers Booth 9 to Ines, just before this page's own request reaches the server. */
  async function otherScreenOffersBooth(): Promise<string> {
    const entry = (await request(t.baseUrl).get(`/v1/venues/${v.id}/queue`).set(owner.auth).expect(200)).body as {
      entries: Array<{ id: string; version: number }>;
    };
    const now = entry.entries.find((e) => e.id === ines.entry.id);
    const res = await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/offers`)
      .set(owner.auth)
      .send({ entryId: ines.entry.id, entryVersion: now?.version, tableIds: [v.tableIds['Booth 9']] })
      .expect(201);
    return (res.body as { offer: { id: string } }).offer.id;
  }
  /** Ines's offer taken back after each test (also a failed one), so the next finds Booth 9 free. */
  let offerId = '';
  afterEach(async () => {
    if (offerId) await request(t.baseUrl).post(`/v1/venues/${v.id}/offers/${offerId}/withdraw`).set(owner.auth).expect(200);
    offerId = '';
  });

  it('phone 390×844: a walk-in refused because the table was just offered says they are not seated, and why', async () => {
    const page = await boardOf({ width: 390, height: 844 });
    await page.route('**/walk-ins', async (route) => {
      offerId = await otherScreenOffersBooth();
      await route.continue();
    });
    await tableOf(page, 'Booth 9').click();
    await page.fill('input[name=walkInName]', 'Ravi Menon');
    await page.getByTestId('seat-now').click();
    // The sheet now shows the other party's offer (the push has come) ...
    await page.getByTestId('table-sheet').getByText('Ines Varga', { exact: true }).waitFor({ timeout: 10_000 });
    // ... and still says the walk-in was not seated.
    const error = page.getByTestId('walk-in-error');
    await error.waitFor({ timeout: 5_000 });
    expect((await error.textContent())?.trim()).toBe(
      'Ravi Menon is not seated. Table Booth 9 is offered to Ines Varga right now. Choose another table.',
    );
    await screenshot(page, 'table-taken-phone-walk-in');
    // Ines's offer taken back, then Booth 9 offered to Kofi from another screen: the note was about
    // Ines, and it does not come back over Kofi's offer.
    await request(t.baseUrl).post(`/v1/venues/${v.id}/offers/${offerId}/withdraw`).set(owner.auth).expect(200);
    offerId = '';
    await page.getByTestId('seat-now').waitFor({ timeout: 10_000 });
    const queue = (await request(t.baseUrl).get(`/v1/venues/${v.id}/queue`).set(owner.auth).expect(200)).body as {
      entries: Array<{ id: string; version: number }>;
    };
    const res = await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/offers`)
      .set(owner.auth)
      .send({
        entryId: kofi.entry.id,
        entryVersion: queue.entries.find((e) => e.id === kofi.entry.id)?.version,
        tableIds: [v.tableIds['Booth 9']],
      })
      .expect(201);
    offerId = (res.body as { offer: { id: string } }).offer.id;
    await page.getByTestId('table-sheet').getByText('Kofi Mensah', { exact: true }).waitFor({ timeout: 10_000 });
    expect(await page.getByTestId('walk-in-error').count()).toBe(0);
  }, 60_000);

  it('tablet 1280×800: an offer that loses the table names the other party in plain words', async () => {
    const page = await boardOf({ width: 1280, height: 800 });
    await page.route('**/offers', async (route) => {
      if (route.request().method() === 'POST' && !offerId) offerId = await otherScreenOffersBooth();
      await route.continue();
    });
    await page.locator('[data-testid=entry]', { hasText: 'Kofi Mensah' }).getByTestId('offer-tables').click();
    await page.getByRole('button', { name: /^Booth 9/ }).click();
    await page.getByTestId('picker-submit').click();
    const error = page.getByTestId('picker-error');
    await error.waitFor({ timeout: 10_000 });
    expect((await error.textContent())?.trim()).toBe('Table Booth 9 is offered to Ines Varga right now.');
    expect(await error.textContent()).not.toContain('HELD');
    // The lost table leaves the pick (it stayed picked, "fits", with the Offer button on): nothing
    // is offered until another table is picked.
    const picker = page.getByTestId('table-picker');
    const booth = picker.locator(`[data-table-id="${v.tableIds['Booth 9']}"]`);
    await booth.and(page.locator('[aria-pressed=false]')).waitFor({ timeout: 10_000 });
    expect((await picker.getByTestId('picker-fit').textContent())?.trim()).toBe('Pick a table.');
    expect(await picker.getByTestId('picker-submit').isDisabled()).toBe(true);
    await screenshot(page, 'table-taken-tablet-offer');
    expect(kofi.entry.id).toBeTruthy();
  }, 60_000);

  it('phone 390×844: a table picked here and offered on another screen leaves the pick, with a note saying who has it', async () => {
    const page = await boardOf({ width: 390, height: 844 });
    await page.locator('[data-testid=entry]', { hasText: 'Kofi Mensah' }).getByTestId('offer-tables').click();
    const picker = page.getByTestId('table-picker');
    const booth = picker.locator(`[data-table-id="${v.tableIds['Booth 9']}"]`);
    await booth.click();
    expect((await picker.getByTestId('picker-fit').textContent())?.trim()).toBe('Booth 9: fits.');
    offerId = await otherScreenOffersBooth();
    const note = picker.getByTestId('picker-taken');
    await note.waitFor({ timeout: 10_000 });
    await screenshot(page, 'table-taken-phone-picker');
    expect((await note.textContent())?.trim()).toBe(
      'Booth 9 was just offered to Ines Varga on another screen. Pick another table.',
    );
    expect(await booth.getAttribute('aria-pressed')).toBe('false');
    expect((await picker.getByTestId('picker-fit').textContent())?.trim()).toBe('Pick a table.');
    expect(await picker.getByTestId('picker-submit').isDisabled()).toBe(true);
    // A new pick answers the note.
    await picker.locator(`[data-table-id="${v.tableIds['Nook 3']}"]`).click();
    expect(await note.count()).toBe(0);
    expect((await picker.getByTestId('picker-fit').textContent())?.trim()).toBe(
      'Table Nook 3 seats 3; pick a bigger one or a set of tables that are combined.',
    );
  }, 60_000);
  it('phone 390×844: the note of a table taken goes once that table is free again', async () => {
    const page = await boardOf({ width: 390, height: 844 });
    await page.locator('[data-testid=entry]', { hasText: 'Kofi Mensah' }).getByTestId('offer-tables').click();
    const picker = page.getByTestId('table-picker');
    const booth = picker.locator(`[data-table-id="${v.tableIds['Booth 9']}"]`);
    await booth.click();
    offerId = await otherScreenOffersBooth();
    const note = picker.getByTestId('picker-taken');
    await note.waitFor({ timeout: 10_000 });
    // The other screen takes its offer back: Booth 9 is free, and the note no longer says it is offered.
    await request(t.baseUrl).post(`/v1/venues/${v.id}/offers/${offerId}/withdraw`).set(owner.auth).expect(200);
    offerId = '';
    await note.waitFor({ state: 'detached', timeout: 10_000 });
    await booth.click();
    expect((await picker.getByTestId('picker-fit').textContent())?.trim()).toBe('Booth 9: fits.');
  }, 60_000);

  it('phone 390×844: a table picked here and retired on another screen leaves the pick, with a note saying so', async () => {
    const rail = (
      (
        await request(t.baseUrl)
          .post(`/v1/venues/${v.id}/tables`)
          .set(owner.auth)
          .send({ label: 'Rail 6', capacity: 6 })
          .expect(201)
      ).body as { id: string }
    ).id;
    const page = await boardOf({ width: 390, height: 844 });
    await page.locator('[data-testid=entry]', { hasText: 'Kofi Mensah' }).getByTestId('offer-tables').click();
    const picker = page.getByTestId('table-picker');
    await picker.locator(`[data-table-id="${rail}"]`).click();
    expect((await picker.getByTestId('picker-fit').textContent())?.trim()).toBe('Rail 6: fits.');
    await request(t.baseUrl).post(`/v1/venues/${v.id}/tables/${rail}/retire`).set(owner.auth).expect(200);
    const note = picker.getByTestId('picker-taken');
    await note.waitFor({ timeout: 10_000 });
    await screenshot(page, 'table-taken-phone-retired');
    expect((await note.textContent())?.trim()).toBe('Rail 6 was taken out of service on another screen. Pick another table.');
    expect((await picker.getByTestId('picker-fit').textContent())?.trim()).toBe('Pick a table.');
    expect(await picker.getByTestId('picker-submit').isDisabled()).toBe(true);
  }, 60_000);
});
