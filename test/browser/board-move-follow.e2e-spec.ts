import request from 'supertest';
import { joined, sandboxVenue } from '../support/restaurant.js';
import { boardLive, openVenueBoard } from './board-page.js';
import { describeWithChromium, screenshot } from './chromium.js';
import { phoneBoardFile } from './phone-board-file.js';

const d = describeWithChromium('the move sheet is tested in a real browser');

/**
 * A host opened Move for a seated party while another screen moved the party: the sheet still had
 * the old table as theirs and picked, and one tap on Move here took them back to it. The sheet now
 * follows where the board has them and says who moved them; cleared elsewhere, it says so and moves
 * nobody. Three tables of 2, 4 and 6, 7-minute offers, Dublin time, on a 1280×800 screen.
 */
d('the move sheet follows the party when another screen moves it', () => {
  const file = phoneBoardFile('mover');
  const api = () => request(file.t.baseUrl);

  it('moved elsewhere, then cleared elsewhere', async () => {
    const v = await sandboxVenue(file.t, file.owner, {
      name: 'Howth Harbour Grill',
      timeZone: 'Europe/Dublin',
      clock: '2026-12-11T20:15:00Z',
      tables: [
        { label: 'Alcove 2', capacity: 2 },
        { label: 'Garden 4', capacity: 4 },
        { label: 'Garden 6', capacity: 6 },
      ],
      patch: { policy: { holdSeconds: 420 } },
    });
    const oona = await joined(file.t, file.owner, v.id, { name: 'Oona Byrne', partySize: 3, email: 'oona@example.test' });
    const offered = await api()
      .post(`/v1/venues/${v.id}/offers`)
      .set(file.owner.auth)
      .send({ entryId: oona.entry.id, entryVersion: oona.entry.version, tableIds: [v.tableIds['Garden 4']] })
      .expect(201);
    const offer = (offered.body as { offer: { id: string; reservationId: string } }).offer;
    await api().post(`/v1/venues/${v.id}/offers/${offer.id}/accept`).set(file.owner.auth).send({}).expect(200);
    await api().post(`/v1/venues/${v.id}/reservations/${offer.reservationId}/seat`).set(file.owner.auth).send({}).expect(201);

    const page = await file.page('desktop');
    await openVenueBoard(page, file.t.baseUrl, file.owner, v.id);
    await boardLive(page);
    const pick = (label: string) => page.locator(`[data-testid=table-picker] [data-table-id="${v.tableIds[label] ?? ''}"]`);
    await page.locator(`[data-testid=table][data-table-id="${v.tableIds['Garden 4'] ?? ''}"][data-state=occupied]`).click();
    await page.getByTestId('move').click();
    await page.getByTestId('table-picker').waitFor();
    expect(await pick('Garden 4').getAttribute('aria-pressed')).toBe('true');

    // Another screen moves Oona to Garden 6.
    await api()
      .post(`/v1/venues/${v.id}/reservations/${offer.reservationId}/move`)
      .set(file.owner.auth)
      .send({ tableIds: [v.tableIds['Garden 6']] })
      .expect((r) => expect(r.status).toBeLessThan(300));
    await page.getByTestId('picker-moved').waitFor({ timeout: 8_000 });
    const moved = page.getByTestId('picker-moved');
    expect((await moved.textContent())?.trim()).toBe('Another screen moved Oona Byrne to Garden 6.');
    // News, not a mistake: the sheet's note style, read out politely, not red as a refusal.
    expect(await moved.getAttribute('role')).toBe('status');
    expect((await moved.getAttribute('class'))?.split(' ')).toEqual(['info']);
    expect(await page.locator('[data-testid=table-picker] [role=alert], [data-testid=table-picker] .error').count()).toBe(0);
    const colour = String(await page.evaluate(`getComputedStyle(document.querySelector('[data-testid=picker-moved]')).color`));
    expect(colour).toMatch(/^rgb\(/);
    expect(colour).not.toBe('rgb(168, 50, 31)');
    expect(await pick('Garden 6').getAttribute('aria-pressed')).toBe('true');
    expect(await pick('Garden 4').getAttribute('aria-pressed')).toBe('false');
    expect((await pick('Garden 6').locator('.why').textContent())?.trim()).toBe('Their table now');
    // Nothing picked but their table: Move here waits for where they go.
    expect(await page.getByTestId('picker-submit').isDisabled()).toBe(true);
    await screenshot(page, 'board-move-follow-desktop');

    // Another screen clears their table: the sheet says so and moves nobody.
    const board = (await api().get(`/v1/venues/${v.id}/board`).set(file.owner.auth).expect(200)).body as {
      tables: Array<{ id: string; placement: { visitId?: string } | null }>;
    };
    const visitId = board.tables.find((t) => t.id === v.tableIds['Garden 6'])?.placement?.visitId ?? '';
    await api()
      .post(`/v1/venues/${v.id}/visits/${visitId}/clear`)
      .set(file.owner.auth)
      .send({})
      .expect((r) => expect(r.status).toBeLessThan(300));
    await page.getByTestId('picker-gone').waitFor({ timeout: 8_000 });
    expect((await page.getByTestId('picker-gone').textContent())?.trim()).toBe(
      'Oona Byrne no longer has a table here: another screen cleared it or marked them a no-show.',
    );
    await pick('Alcove 2')
      .click()
      .catch(() => undefined);
    expect(await page.getByTestId('picker-submit').isDisabled()).toBe(true);
  }, 120_000);
});
