import request from 'supertest';
import { joined, sandboxVenue } from '../support/restaurant.js';
import { describeWithChromium, screenshot } from './chromium.js';
import { phoneBoardFile } from './phone-board-file.js';

const d = describeWithChromium("a party's sheet is tested in a real browser");

/**
 * A host correcting a party's phone on the More sheet while another screen removed the party (or the
 * party accepted its table on its phone) saw the sheet vanish, with what they had typed, and nothing
 * said why. The sheet stays and says so, with nothing left to save or tap. Perth time, a 4-seat and a
 * 6-seat table, 8-minute offers, on a 390×844 phone.
 */
d("a party's sheet says so when the queue no longer lists the party", () => {
  const file = phoneBoardFile('sheet-keeper');
  const api = () => request(file.t.baseUrl);

  it('removed by another screen, then accepted on its phone, then removed from the sheet itself', async () => {
    const v = await sandboxVenue(file.t, file.owner, {
      name: 'Fremantle Fish Hall',
      timeZone: 'Australia/Perth',
      clock: '2026-12-11T18:25:00+08:00',
      tables: [
        { label: 'Nook 4', capacity: 4 },
        { label: 'Deck 6', capacity: 6 },
      ],
      patch: { policy: { holdSeconds: 480 } },
    });
    const mirela = await joined(file.t, file.owner, v.id, { name: 'Mirela Kovač', partySize: 3, email: 'mirela@example.test' });
    const tomasz = await joined(file.t, file.owner, v.id, {
      name: 'Tomasz Wiśniewski',
      partySize: 5,
      email: 'tomasz@example.test',
    });
    await joined(file.t, file.owner, v.id, { name: 'Hana Sato', partySize: 2, email: 'hana@example.test' });
    const page = await file.phone(v.id);
    const sheet = page.getByTestId('entry-sheet');
    const openSheet = async (name: string): Promise<void> => {
      await page.locator('[data-testid=entry]', { hasText: name }).getByTestId('entry-more').click();
      await sheet.waitFor();
    };

    // Another screen removes Mirela while her phone number is being typed in.
    await openSheet('Mirela Kovač');
    await page.locator('input[name=entryPhone]:not([disabled])').waitFor();
    await page.fill('input[name=entryPhone]', '0412 345 678');
    await api().post(`/v1/venues/${v.id}/queue/${mirela.entry.id}/cancel`).set(file.owner.auth).send({}).expect(200);
    await page.getByTestId('entry-gone').waitFor({ timeout: 8_000 });
    expect((await page.getByTestId('entry-gone').textContent())?.trim()).toBe(
      'Mirela Kovač is no longer in the queue: they left, or another screen removed or seated them.',
    );
    expect(await sheet.isVisible()).toBe(true);
    expect(await page.locator('input[name=entryPhone]').inputValue()).toBe('0412 345 678');
    expect(await page.getByTestId('entry-save').isDisabled()).toBe(true);
    expect(await sheet.getByTestId('cancel').count()).toBe(0);
    await screenshot(page, 'board-entry-gone-phone');
    await sheet.getByRole('button', { name: 'Close' }).click();
    await sheet.waitFor({ state: 'detached' });

    // Tomasz's table is offered and accepted elsewhere while his sheet is open.
    await openSheet('Tomasz Wiśniewski');
    const offered = await api()
      .post(`/v1/venues/${v.id}/offers`)
      .set(file.owner.auth)
      .send({ entryId: tomasz.entry.id, entryVersion: tomasz.entry.version, tableIds: [v.tableIds['Deck 6']] })
      .expect(201);
    // Offered, he is still in the queue: the sheet stays as it was.
    await page.locator('[data-testid=entry][data-status=offered]', { hasText: 'Tomasz' }).waitFor({ timeout: 8_000 });
    expect(await page.getByTestId('entry-gone').count()).toBe(0);
    const offerId = (offered.body as { offer: { id: string } }).offer.id;
    await api().post(`/v1/venues/${v.id}/offers/${offerId}/accept`).set(file.owner.auth).send({}).expect(200);
    await page.getByTestId('entry-gone').waitFor({ timeout: 8_000 });
    expect((await page.getByTestId('entry-gone').textContent())?.trim()).toBe(
      'Tomasz Wiśniewski is no longer in the queue: they accepted their table and are listed under To be seated.',
    );
    await sheet.getByRole('button', { name: 'Close' }).click();

    // Removed from its own sheet: the sheet closes, with the removal's own confirmation only.
    await openSheet('Hana Sato');
    await sheet.getByTestId('cancel').click();
    await sheet.getByTestId('cancel').click();
    await sheet.waitFor({ state: 'detached' });
    await page.locator('[data-testid=notice]', { hasText: 'Hana Sato was removed from the queue.' }).waitFor();
    await page.locator('[data-testid=entry]', { hasText: 'Hana Sato' }).waitFor({ state: 'detached' });
    expect(await page.getByTestId('entry-gone').count()).toBe(0);
  }, 120_000);
});
