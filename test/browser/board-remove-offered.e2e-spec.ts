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
});
