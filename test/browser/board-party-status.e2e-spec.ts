import type { Page } from 'playwright-core';
import request from 'supertest';
import { joined, sandboxVenue, type JoinBody, type Sandbox } from '../support/restaurant.js';
import { boardLive, openVenueBoard } from './board-page.js';
import { describeWithChromium, screenshot } from './chromium.js';
import { phoneBoardFile } from './phone-board-file.js';

const d = describeWithChromium("a party's sheet and offer picker are tested in a real browser");

/**
 * A party's sheet never said where the party stood: waiting (and where in line), offered a table
 * (which, until when) or booked. And an offer picker left open while another screen removed its
 * party said "another screen offered them one, or they left the queue": a guess, with both wrong.
 * Los Angeles, a Friday 5:47 PM on the practice clock, 13-minute offers.
 */
d("a party's sheet says where the party stands; the picker says when it is gone", () => {
  const file = phoneBoardFile('status-owner');
  const api = () => request(file.t.baseUrl);
  let v: Sandbox;
  beforeAll(async () => {
    v = await sandboxVenue(file.t, file.owner, {
      timeZone: 'America/Los_Angeles',
      clock: '2026-12-12T01:47:00Z',
      windows: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '17:00', end: '22:00', turnMinutes: 80 }],
      tables: [
        { label: 'Nook 5', capacity: 5 },
        { label: 'Rail 2', capacity: 2 },
        { label: 'Rail 3', capacity: 3 },
      ],
      patch: { policy: { holdSeconds: 780 } },
    });
  }, 120_000);

  async function boardOn(size: 'phone' | 'desktop'): Promise<Page> {
    if (size === 'phone') return file.phone(v.id);
    const page = await file.page('desktop');
    await openVenueBoard(page, file.t.baseUrl, file.owner, v.id);
    await boardLive(page);
    return page;
  }
  const offer = async (who: JoinBody, table: string): Promise<string> => {
    const r = await api()
      .post(`/v1/venues/${v.id}/offers`)
      .set(file.owner.auth)
      .send({ entryId: who.entry.id, entryVersion: who.entry.version, tableIds: [v.tableIds[table]] })
      .expect(201);
    return (r.body as { offer: { id: string } }).offer.id;
  };

  for (const size of ['phone', 'desktop'] as const) {
    const tag = size === 'phone' ? 'phone 390×844' : 'tablet 1280×800';
    it(`${tag}: the sheet's first line follows the party from waiting to offered to booked`, async () => {
      const ahead = await joined(file.t, file.owner, v.id, {
        name: `Ahead ${size}`,
        partySize: 2,
        email: `ahead-${size}@example.test`,
      });
      const noor = await joined(file.t, file.owner, v.id, {
        name: `Noor ${size}`,
        partySize: 4,
        email: `noor-${size}@example.test`,
      });
      const page = await boardOn(size);
      await page
        .locator('[data-testid=entry]', { hasText: `Noor ${size}` })
        .getByTestId('entry-more')
        .click();
      const status = page.getByTestId('entry-sheet').getByTestId('entry-status');
      await status.waitFor();
      expect((await status.textContent())?.trim()).toBe('Waiting, number 2 in line');

      // Another screen offers her Nook 5: held 13 minutes from 5:47 PM.
      const offerId = await offer(noor, 'Nook 5');
      await status.getByText('Offered').waitFor({ timeout: 10_000 });
      expect((await status.textContent())?.trim()).toBe('Offered Table Nook 5, held until 6:00 PM');
      await screenshot(page, `party-status-offered-${size}`);

      // She accepts on her phone: the queue no longer lists her; the sheet says she is booked.
      await api().post(`/v1/venues/${v.id}/offers/${offerId}/accept`).set(file.owner.auth).send({}).expect(200);
      await status.getByText('Booked').waitFor({ timeout: 10_000 });
      expect((await status.textContent())?.trim()).toBe('Booked Table Nook 5, to be seated');
      await page.getByTestId('entry-gone').waitFor();
      await screenshot(page, `party-status-booked-${size}`);
      // The next test starts from a free Nook 5 and an empty queue.
      const toSeat = (await api().get(`/v1/venues/${v.id}/board`).set(file.owner.auth).expect(200)).body as {
        toSeat: Array<{ reservationId: string }>;
      };
      for (const p of toSeat.toSeat)
        await api().post(`/v1/venues/${v.id}/reservations/${p.reservationId}/cancel`).set(file.owner.auth).send({}).expect(200);
      await api().post(`/v1/venues/${v.id}/queue/${ahead.entry.id}/cancel`).set(file.owner.auth).send({}).expect(200);
    }, 120_000);

    it(`${tag}: an offer picker whose party another screen removed says so, and offers nothing`, async () => {
      const ravi = await joined(file.t, file.owner, v.id, {
        name: `Ravi ${size}`,
        partySize: 3,
        email: `ravi-${size}@example.test`,
      });
      const page = await boardOn(size);
      await page
        .locator('[data-testid=entry]', { hasText: `Ravi ${size}` })
        .getByTestId('offer-tables')
        .click();
      const picker = page.getByTestId('table-picker');
      await picker.locator(`[data-table-id="${v.tableIds['Rail 3']}"]`).click();
      await api().post(`/v1/venues/${v.id}/queue/${ravi.entry.id}/cancel`).set(file.owner.auth).send({}).expect(200);
      const gone = picker.getByTestId('picker-gone');
      await gone.waitFor({ timeout: 10_000 });
      await screenshot(page, `picker-removed-${size}`);
      expect((await gone.textContent())?.trim()).toBe(
        `Ravi ${size} is no longer in the queue: they left, or another screen removed or seated them.`,
      );
      expect(await picker.getByTestId('picker-submit').isDisabled()).toBe(true);
    }, 120_000);
  }
});
