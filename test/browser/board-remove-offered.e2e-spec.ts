import type { Route } from 'playwright-core';
import request from 'supertest';
import { joined, sandboxVenue } from '../support/restaurant.js';
import { phoneBoardFile } from './phone-board-file.js';
import { describeWithChromium, screenshot } from './chromium.js';

const d = describeWithChromium('removing an offered party is tested in a real browser');

/**
 * A host on a phone opens a waiting party's sheet to remove them; meanwhile the manager's tablet
 * offers them a table. The sheet's Remove still asked "Tap again to remove" and answered "… was
 * removed from the queue.": nothing said the table just offered to them was taken back with it.
 */
d('removing a party another screen has just offered a table', () => {
  const file = phoneBoardFile('remove-offered-owner');

  it('phone 390×844: the second tap says it ends their offer, and the answer that the table is free again', async () => {
    const { t, owner } = file;
    const v = await sandboxVenue(t, owner, {
      timeZone: 'America/Denver',
      // 7:20 PM in Denver on a Friday.
      clock: '2026-12-12T02:20:00Z',
      windows: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '17:00', end: '22:30', turnMinutes: 75 }],
      tables: [{ label: 'Patio 11', capacity: 4 }],
      patch: { policy: { holdSeconds: 540 } },
    });
    const lena = await joined(t, owner, v.id, { name: 'Lena Park', partySize: 3, email: 'lena@example.test' });
    const page = await file.phone(v.id);
    await page.locator('[data-testid=entry]', { hasText: 'Lena Park' }).getByTestId('entry-more').click();
    const sheet = page.getByTestId('entry-sheet');
    await sheet.waitFor();

    // Another screen offers her Patio 11 while the sheet is open.
    await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/offers`)
      .set(owner.auth)
      .send({ entryId: lena.entry.id, entryVersion: lena.entry.version, tableIds: [v.tableIds['Patio 11']] })
      .expect(201);
    const patio = page.locator(`[data-testid=table][data-table-id="${v.tableIds['Patio 11']}"]`);
    await patio.and(page.locator('[data-state=held]')).waitFor({ timeout: 10_000 });

    await sheet.getByTestId('cancel').click();
    const ask = sheet.getByTestId('cancel');
    await ask.getByText('Tap again').waitFor();
    expect((await ask.textContent())?.trim()).toBe('Tap again: ends their table offer');
    await screenshot(page, 'remove-offered-phone-ask');
    await ask.click();
    await page
      .locator('[data-testid=notice]', {
        hasText: 'Lena Park was removed from the queue; the table offered to them is free again.',
      })
      .waitFor({ timeout: 10_000 });
    await patio.and(page.locator('[data-state=free]')).waitFor({ timeout: 10_000 });
  }, 120_000);

  /**
   * The board never lists a party that accepted its table (it moves to "To be seated"), but a screen
   * a read behind still shows it waiting: its Remove cancelled the booking and freed the table, and
   * the toast said only "… was removed from the queue.". The server's answer names the booking.
   */
  it('phone 390×844: a party that booked its table on other screens, removed from a sheet a read behind, is told its table is free again', async () => {
    const { t, owner } = file;
    const v = await sandboxVenue(t, owner, {
      timeZone: 'America/Chicago',
      // 6:40 PM in Chicago on a Thursday.
      clock: '2026-12-11T00:40:00Z',
      windows: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '16:30', end: '23:00', turnMinutes: 70 }],
      tables: [{ label: 'Booth 7', capacity: 6 }],
      patch: { policy: { holdSeconds: 660 } },
    });
    const arjun = await joined(t, owner, v.id, { name: 'Arjun Mehta', partySize: 5, email: 'arjun@example.test' });
    const page = await file.phone(v.id);
    await page.locator('[data-testid=entry]', { hasText: 'Arjun Mehta' }).getByTestId('entry-more').click();
    const sheet = page.getByTestId('entry-sheet');
    await sheet.waitFor();

    // This phone's board reads are held (a slow network) while other screens offer and accept Booth 7.
    const held: Route[] = [];
    let holding = true;
    await page.route('**/board', (route) => {
      if (holding && route.request().method() === 'GET') held.push(route);
      else void route.continue();
    });
    const offered = await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/offers`)
      .set(owner.auth)
      .send({ entryId: arjun.entry.id, entryVersion: arjun.entry.version, tableIds: [v.tableIds['Booth 7']] })
      .expect(201);
    const offerId = (offered.body as { offer: { id: string } }).offer.id;
    await request(t.baseUrl).post(`/v1/venues/${v.id}/offers/${offerId}/accept`).set(owner.auth).send({}).expect(200);

    const ask = sheet.getByTestId('cancel');
    await ask.click();
    await ask.getByText('Tap again').waitFor();
    await ask.click();
    const told = page.locator('[data-testid=notice]', { hasText: 'Arjun Mehta was removed' });
    await told.waitFor({ timeout: 10_000 });
    await screenshot(page, 'remove-booked-phone-told');
    expect((await told.locator('span').textContent())?.trim()).toBe(
      'Arjun Mehta was removed from the queue; the table booked for them is free again.',
    );
    holding = false;
    for (const r of held.splice(0)) await r.continue();
    const booth = page.locator(`[data-testid=table][data-table-id="${v.tableIds['Booth 7']}"]`);
    await booth.and(page.locator('[data-state=free]')).waitFor({ timeout: 10_000 });
  }, 120_000);
});
