import type { Page } from 'playwright-core';
import request from 'supertest';
import { joined, sandboxVenue } from '../support/restaurant.js';
import { boardLive, openVenueBoard } from './board-page.js';
import { describeWithChromium } from './chromium.js';
import { phoneBoardFile } from './phone-board-file.js';

const d = describeWithChromium("the offer picker's order is tested in a real browser");

/**
 * The offer picker listed the tables in the board's order (by label), so a party of 4 was shown the
 * 2-top first and the 8-top before the 4-top. It lists the tables that seat the party first, the
 * closest fit first, then free tables too small alone, then the greyed ones with their reasons; a
 * party corrected meanwhile is ordered as it is now. Wellington time, 35-minute turns, six tables.
 */
d('the offer picker lists the closest fit first', () => {
  const file = phoneBoardFile('picker-order');
  const api = () => request(file.t.baseUrl);
  const labels = async (page: Page): Promise<string[]> =>
    (await page.locator('[data-testid=table-picker] .table-pick strong').allTextContents()).map((x) => x.trim());

  it('a party of 4: Nook 4, Window 5, Patio 8, then Bar 2 and Corner 3, then Booth 6 greyed; corrected to 6, Patio 8 first', async () => {
    const v = await sandboxVenue(file.t, file.owner, {
      name: 'Harbourside Kai',
      timeZone: 'Pacific/Auckland',
      clock: '2026-12-10T06:20:00Z',
      windows: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '17:00', end: '23:00', turnMinutes: 35 }],
      tables: [
        { label: 'Bar 2', capacity: 2 },
        { label: 'Booth 6', capacity: 6 },
        { label: 'Corner 3', capacity: 3 },
        { label: 'Nook 4', capacity: 4 },
        { label: 'Patio 8', capacity: 8 },
        { label: 'Window 5', capacity: 5 },
      ],
      patch: { queuePartyCap: 7 },
    });
    const tui = await joined(file.t, file.owner, v.id, { name: 'Tui Wiremu', partySize: 5, email: 'tui@example.test' });
    await api()
      .post(`/v1/venues/${v.id}/offers`)
      .set(file.owner.auth)
      .send({ entryId: tui.entry.id, entryVersion: tui.entry.version, tableIds: [v.tableIds['Booth 6']] })
      .expect(201);
    const hemi = await joined(file.t, file.owner, v.id, { name: 'Hemi Parata', partySize: 4, email: 'hemi@example.test' });

    const page = await file.page('desktop');
    await openVenueBoard(page, file.t.baseUrl, file.owner, v.id);
    await boardLive(page);
    await page.locator('[data-testid=entry]', { hasText: 'Hemi Parata' }).getByTestId('offer-tables').click();
    await page.getByTestId('table-picker').waitFor();
    expect(await labels(page)).toEqual(['Nook 4', 'Window 5', 'Patio 8', 'Bar 2', 'Corner 3', 'Booth 6']);
    // The greyed table keeps its reason and cannot be picked.
    const booth = page.locator(`[data-testid=table-picker] [data-table-id="${v.tableIds['Booth 6'] ?? ''}"]`);
    expect(await booth.isDisabled()).toBe(true);
    expect((await booth.locator('.why').textContent())?.trim()).toBe('Offered to Tui Wiremu');
    // The first table listed is the one to offer.
    await page.locator('[data-testid=table-picker] .table-pick').first().click();
    expect((await page.getByTestId('picker-fit').textContent())?.trim()).toBe('Nook 4: fits.');
    await page.locator('[data-testid=table-picker] .table-pick').first().click();

    // Another tablet corrects the party to 6: the picker orders for 6.
    await api()
      .patch(`/v1/venues/${v.id}/queue/${hemi.entry.id}`)
      .set(file.owner.auth)
      .send({ entryVersion: hemi.entry.version, partySize: 6 })
      .expect(200);
    await page.getByTestId('table-picker').getByText('Offer a table to Hemi Parata (6)').waitFor({ timeout: 10_000 });
    expect(await labels(page)).toEqual(['Patio 8', 'Bar 2', 'Corner 3', 'Nook 4', 'Window 5', 'Booth 6']);
  }, 120_000);
});
