import type { Page } from 'playwright-core';
import request from 'supertest';
import { activeEntries, joined, sandboxVenue } from '../support/restaurant.js';
import { boardLive, openVenueBoard } from './board-page.js';
import { describeWithChromium, screenshot } from './chromium.js';
import { phoneBoardFile } from './phone-board-file.js';

const d = describeWithChromium("the desk's party-size stepper is tested in a real browser");

/**
 * The desk join form's party-size stepper went past the venue's cap: a host stepped a party of 7
 * into a venue taking parties of up to 6, and only the server's refusal said so. It stops at the cap
 * now and says why, in the venue's words (a seat pool's cap is its seats). A cap of 6 (not the
 * spec's 8), Lisbon time; a 11-seat workshop with 7-minute holds.
 */
d('the party-size stepper stops at the venue cap', () => {
  const file = phoneBoardFile('capper');
  const api = () => request(file.t.baseUrl);

  const openJoin = async (page: Page, name: string): Promise<void> => {
    await page.getByTestId('open-join').click();
    await page.getByTestId('desk-join').waitFor();
    await page.fill('input[name=name]', name);
  };
  const sizeField = (page: Page) => page.locator('input[name=partySize]');

  it('a restaurant: + stops at 6, a typed 9 is taken as 6, and the party joins as 6 (phone)', async () => {
    const v = await sandboxVenue(file.t, file.owner, {
      name: 'Tasca do Cais',
      timeZone: 'Europe/Lisbon',
      clock: '2026-12-11T19:20:00Z',
      tables: [
        { label: 'Terraço 3', capacity: 6 },
        { label: 'Sala 2', capacity: 3 },
      ],
      patch: { queuePartyCap: 6, policy: { holdSeconds: 480 } },
    });
    const page = await file.page('phone');
    await openVenueBoard(page, file.t.baseUrl, file.owner, v.id);
    await boardLive(page);
    await openJoin(page, 'Inês Moura');
    for (let i = 0; i < 4; i++) await page.getByTestId('partySize-more').click();
    const note = page.getByTestId('partySize-cap');
    await note.waitFor({ timeout: 5_000 });
    expect((await note.textContent())?.trim()).toBe('Parties of up to 6 join here.');
    expect(await sizeField(page).inputValue()).toBe('6');
    expect(await page.getByTestId('partySize-more').isDisabled()).toBe(true);
    await screenshot(page, 'board-desk-cap-phone');

    // Typed past the cap: what is shown is what is sent.
    await sizeField(page).fill('9');
    expect(await sizeField(page).inputValue()).toBe('6');
    await page.getByTestId('partySize-less').click();
    expect(await sizeField(page).inputValue()).toBe('5');
    expect(await note.count()).toBe(0);
    await page.getByTestId('partySize-more').click();
    await page.fill('input[name=email]', 'ines@example.test');
    await page.getByTestId('join-submit').click();
    await page.getByTestId('token-done').click();
    const entries = await activeEntries(file.t, file.owner, v.id);
    expect(entries.map((e) => [e.name, e.partySize])).toEqual([['Inês Moura', 6]]);

    // The party's size corrected from its sheet stops at the cap too.
    await joined(file.t, file.owner, v.id, { name: 'Rui Paz', partySize: 5, email: 'rui@example.test' });
    const rui = page.locator('[data-testid=entry]', { hasText: 'Rui Paz' });
    await rui.getByTestId('entry-more').click();
    await page.getByTestId('entry-sheet').waitFor();
    await page.getByTestId('entrySize-more').click();
    await page.getByTestId('entrySize-cap').waitFor({ timeout: 5_000 });
    expect(await page.locator('input[name=entrySize]').inputValue()).toBe('6');
    expect(await page.getByTestId('entrySize-more').isDisabled()).toBe(true);
  }, 120_000);

  it("a seat pool: + stops at its 11 seats, in the pool's words (1280×800)", async () => {
    const v = await sandboxVenue(file.t, file.owner, {
      name: 'Oficina Azulejo',
      timeZone: 'Europe/Lisbon',
      clock: '2026-12-11T10:05:00Z',
      preset: 'workshop',
      poolCapacity: 11,
      patch: { policy: { holdSeconds: 420 } },
    });
    const page = await file.page('desktop');
    await openVenueBoard(page, file.t.baseUrl, file.owner, v.id);
    await boardLive(page);
    await openJoin(page, 'Grupo Sardinha');
    await sizeField(page).fill('14');
    await page.getByTestId('partySize-cap').waitFor({ timeout: 5_000 });
    expect(await sizeField(page).inputValue()).toBe('11');
    expect((await page.getByTestId('partySize-cap').textContent())?.trim()).toBe('Groups of up to 11 join: there are 11 seats.');
    await screenshot(page, 'board-desk-cap-pool-desktop');
    await page.getByTestId('join-submit').click();
    await page.getByTestId('desk-join').waitFor({ state: 'detached' });
    const res = await api().get(`/v1/venues/${v.id}/queue`).set(file.owner.auth).expect(200);
    expect((res.body as { entries: Array<{ partySize: number }> }).entries.map((e) => e.partySize)).toEqual([11]);
  }, 120_000);

  it("a walk-in at a free table: + stops at the table's seats and says so (phone)", async () => {
    const v = await sandboxVenue(file.t, file.owner, {
      name: 'Tasca da Ribeira',
      timeZone: 'Europe/Lisbon',
      clock: '2026-12-11T20:05:00Z',
      tables: [
        { label: 'Sala 2', capacity: 3 },
        { label: 'Terraço 5', capacity: 5 },
      ],
      patch: { policy: { holdSeconds: 480 } },
    });
    const page = await file.phone(v.id);
    await page.locator(`[data-testid=table][data-table-id="${v.tableIds['Sala 2'] ?? ''}"]`).click();
    await page.getByTestId('walk-in').waitFor();
    for (let i = 0; i < 3; i++)
      await page
        .getByTestId('walkInSize-more')
        .click({ timeout: 2_000 })
        .catch(() => undefined);
    expect(await page.locator('input[name=walkInSize]').inputValue()).toBe('3');
    await page.getByTestId('walkInSize-cap').waitFor({ timeout: 5_000 });
    expect((await page.getByTestId('walkInSize-cap').textContent())?.trim()).toBe(
      'Table Sala 2 seats 3: a larger party needs another table.',
    );
    expect(await page.getByTestId('walkInSize-more').isDisabled()).toBe(true);
  }, 120_000);
});
