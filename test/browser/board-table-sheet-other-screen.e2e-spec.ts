import { copyFileSync, mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { joined, sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { addMember, chooseOwnPassword, signUp, type Staff } from '../support/staff.js';
import { boardLive, openVenueBoard } from './board-page.js';
import { describeWithChromium, launchChromium, screenshot } from './chromium.js';

const d = describeWithChromium('a table sheet open while another screen takes the table is tested in a real browser');

/**
 * A host has a free table's sheet open and is typing a walk-in's name when another screen takes the
 * table: a manager retires it, or another host offers it to a waiting party. The sheet vanished (the
 * retired table) or its walk-in form was replaced by the other party's offer, the name typed gone,
 * and nothing said why. It now stays, says what happened, turns Seat now off and keeps the name.
 */
d('a table sheet when another screen takes its table', () => {
  let t: TestApp;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let owner: Staff;
  let host: Staff;
  let v: Sandbox;

  const sizes = [
    { name: 'phone', width: 390, height: 844 },
    { name: 'tablet', width: 1280, height: 800 },
  ];

  beforeAll(async () => {
    t = await startApp();
    browser = await launchChromium();
    owner = await signUp(t, 'owner');
    v = await sandboxVenue(t, owner, {
      timeZone: 'Europe/Lisbon',
      // 8:40 PM in Lisbon on a Thursday.
      clock: '2026-12-10T20:40:00Z',
      windows: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '18:00', end: '23:30', turnMinutes: 80 }],
      tables: [
        { label: 'Patio 4', capacity: 6 },
        { label: 'Patio 7', capacity: 6 },
        { label: 'Bar 2', capacity: 4 },
        { label: 'Bar 5', capacity: 4 },
        { label: 'Snug 1', capacity: 4 },
      ],
      patch: { policy: { holdSeconds: 540 } },
    });
    host = await chooseOwnPassword(t, await addMember(t, v.id, owner, 'host'));
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
  async function shot(page: Page, name: string): Promise<void> {
    const path = await screenshot(page, name);
    mkdirSync('/tmp/bb-floor', { recursive: true });
    copyFileSync(path, `/tmp/bb-floor/${name}.png`);
  }

  for (const [i, size] of sizes.entries()) {
    const label = i === 0 ? 'Patio 4' : 'Patio 7';
    it(`${size.name} ${size.width}×${size.height}: a table retired on another screen keeps its sheet, says so, and keeps the name typed`, async () => {
      const page = await boardOf(size);
      await tableOf(page, label).click();
      const sheet = page.getByTestId('table-sheet');
      await sheet.getByTestId('walk-in').waitFor();
      await page.fill('input[name=walkInName]', 'Tomás Abreu');
      await request(t.baseUrl).post(`/v1/venues/${v.id}/tables/${v.tableIds[label]}/retire`).set(owner.auth).expect(200);
      // The floor drops the table (the push has come) ...
      await tableOf(page, label).waitFor({ state: 'detached', timeout: 10_000 });
      // ... and the sheet stays, says why, and keeps the name with Seat now off.
      const note = sheet.getByTestId('table-taken');
      await note.waitFor({ timeout: 5_000 });
      expect((await note.textContent())?.trim()).toBe(`Table ${label} was taken out of service on another screen.`);
      expect(await page.inputValue('input[name=walkInName]')).toBe('Tomás Abreu');
      expect(await sheet.getByTestId('seat-now').isDisabled()).toBe(true);
      expect(await sheet.locator('.chip').textContent()).toBe('Out of service');
      await shot(page, `table-retired-${size.name}`);
      // Gone only once the host closes it.
      await sheet.getByRole('button', { name: 'Close' }).click();
      await sheet.waitFor({ state: 'detached' });
    }, 60_000);
  }

  for (const [i, size] of sizes.entries()) {
    const label = i === 0 ? 'Bar 2' : 'Bar 5';
    it(`${size.name} ${size.width}×${size.height}: a table offered on another screen says so and keeps the walk-in typed`, async () => {
      const page = await boardOf(size);
      await tableOf(page, label).click();
      const sheet = page.getByTestId('table-sheet');
      await sheet.getByTestId('walk-in').waitFor();
      await page.fill('input[name=walkInName]', 'Priya Nair');
      await sheet.getByTestId('walkInSize-more').click();
      const lena = await joined(t, owner, v.id, { name: 'Lena Okafor', partySize: 3, email: `lena${i}@example.test` });
      const queue = (await request(t.baseUrl).get(`/v1/venues/${v.id}/queue`).set(owner.auth).expect(200)).body as {
        entries: Array<{ id: string; version: number }>;
      };
      const offered = await request(t.baseUrl)
        .post(`/v1/venues/${v.id}/offers`)
        .set(owner.auth)
        .send({
          entryId: lena.entry.id,
          entryVersion: queue.entries.find((e) => e.id === lena.entry.id)?.version,
          tableIds: [v.tableIds[label]],
        })
        .expect(201);
      const offerId = (offered.body as { offer: { id: string } }).offer.id;
      await sheet.getByText('Lena Okafor', { exact: true }).waitFor({ timeout: 10_000 });
      const note = sheet.getByTestId('table-taken');
      await note.waitFor({ timeout: 5_000 });
      expect((await note.textContent())?.trim()).toBe(`Table ${label} was just offered to Lena Okafor on another screen.`);
      expect(await page.inputValue('input[name=walkInName]')).toBe('Priya Nair');
      expect(await page.inputValue('input[name=walkInSize]')).toBe('3');
      expect(await sheet.getByTestId('seat-now').isDisabled()).toBe(true);
      await shot(page, `table-offered-${size.name}`);
      // The offer taken back on that screen: the table is free, the form is on again with the name.
      await request(t.baseUrl).post(`/v1/venues/${v.id}/offers/${offerId}/withdraw`).set(owner.auth).expect(200);
      await note.waitFor({ state: 'detached', timeout: 10_000 });
      expect(await sheet.getByTestId('seat-now').isDisabled()).toBe(false);
      expect(await page.inputValue('input[name=walkInName]')).toBe('Priya Nair');
      expect(await page.inputValue('input[name=walkInSize]')).toBe('3');
    }, 60_000);
  }

  it('phone 390×844: its own Seat now, answered after the push, is not told as another screen’s', async () => {
    const page = await boardOf(sizes[0] ?? { width: 390, height: 844 });
    // The answer comes a moment after the server seated them (and pushed it): a slow network.
    await page.route('**/walk-ins', async (route) => {
      const answer = await route.fetch();
      await new Promise((r) => setTimeout(r, 1500));
      await route.fulfill({ response: answer });
    });
    await tableOf(page, 'Snug 1').click();
    const sheet = page.getByTestId('table-sheet');
    await sheet.getByTestId('walk-in').waitFor();
    // Whether the note ever showed, however briefly, while the sheet was open.
    // (A string: the tests are typed without the browser's DOM.)
    await page.evaluate(`window.sawTaken = false;
      new MutationObserver(() => {
        if (document.querySelector('[data-testid=table-taken]')) window.sawTaken = true;
      }).observe(document.body, { childList: true, subtree: true });`);
    await page.fill('input[name=walkInName]', 'Wen Hollis');
    await sheet.getByTestId('seat-now').click();
    // The push has come while the answer is held back: the tile shows them seated.
    await tableOf(page, 'Snug 1').and(page.locator('[data-state=occupied]')).waitFor({ timeout: 10_000 });
    await sheet.waitFor({ state: 'detached', timeout: 10_000 });
    expect(await page.evaluate('window.sawTaken')).toBe(false);
  }, 60_000);
});
