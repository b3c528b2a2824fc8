import type { Page } from 'playwright-core';
import request from 'supertest';
import { joined, sandboxVenue } from '../support/restaurant.js';
import { boardLive, openVenueBoard } from './board-page.js';
import { describeWithChromium, screenshot } from './chromium.js';
import { phoneBoardFile } from './phone-board-file.js';

const d = describeWithChromium('a workshop’s releases are told in a real browser');

/**
 * A review's workshop leftovers. The party sheet offered "High chair", which only means something at a
 * restaurant table. Removing a group whose seats are held (the board's Remove, the group's own Leave)
 * asked only "to remove" or whether to give up a place, never that the held seats go back. And a
 * confirmed group's Cancel booking that raced another device's cancel said "cancelled; 5 seats are
 * free again" though the other device had freed them. A 13-seat pool, 7-minute holds, St John's time
 * (UTC−3:30), on a 390×844 phone and a 1280×800 screen.
 */
d('a workshop board and guest page tell what a removal releases', () => {
  const file = phoneBoardFile('organizer');
  const api = () => request(file.t.baseUrl);

  const workshop = (name: string) =>
    sandboxVenue(file.t, file.owner, {
      name,
      timeZone: 'America/St_Johns',
      clock: '2026-12-11T09:40:00-03:30',
      preset: 'workshop',
      poolCapacity: 13,
      patch: { policy: { holdSeconds: 420 } },
    });
  const counts = async (venueId: string) => {
    const c = (await api().get(`/v1/venues/${venueId}/counts`).set(file.owner.auth).expect(200)).body as Record<string, number>;
    return { confirmed: c['confirmed'], held: c['held'], available: c['available'] };
  };
  const promote = async (venueId: string) =>
    (await api().post(`/v1/venues/${venueId}/promotions`).set(file.owner.auth).send({}).expect(201)).body as {
      offer: { id: string; reservationId: string };
    };
  const screen = (which: 'phone' | 'desktop'): Promise<Page> => file.page(which);
  const notice = (page: Page, text: string) => page.locator('[data-testid=notice]', { hasText: text }).first();

  const board = async (which: 'phone' | 'desktop'): Promise<void> => {
    const v = await workshop(`Kōwhai Studio ${which}`);
    const tui = await joined(file.t, file.owner, v.id, { name: 'Tui Group', partySize: 4, email: 'tui@example.test' });
    await promote(v.id);
    await joined(file.t, file.owner, v.id, { name: 'Kea Group', partySize: 2, email: 'kea@example.test' });
    expect(await counts(v.id)).toEqual({ confirmed: 0, held: 4, available: 9 });
    const page = await screen(which);
    await openVenueBoard(page, file.t.baseUrl, file.owner, v.id);
    await boardLive(page);
    const row = (id: string) => page.locator(`[data-testid=entry][data-entry-id="${id}"]`);
    await row(tui.entry.id).waitFor();

    // The sheet offers the tags a workshop group can use; no high chair.
    await row(tui.entry.id).getByTestId('entry-more').click();
    const sheet = page.getByTestId('entry-sheet');
    await sheet.waitFor();
    await sheet.locator('[data-tag=wheelchair]').waitFor();
    const tags = await Promise.all((await sheet.locator('[data-tag]').all()).map((tag) => tag.getAttribute('data-tag')));
    expect(tags).toEqual(['wheelchair', 'vip', 'allergy']);
    expect(await sheet.innerText()).not.toContain('High chair');

    // Removing the group holding seats says that the seats go back, before and after.
    const remove = sheet.getByTestId('cancel');
    await remove.scrollIntoViewIfNeeded();
    await remove.click();
    expect((await remove.textContent())?.trim()).toBe('Tap again: releases 4 seats');
    expect(await counts(v.id)).toEqual({ confirmed: 0, held: 4, available: 9 });
    await screenshot(page, `board-pool-remove-asks-${which}`);
    await remove.click();
    await notice(page, 'Tui Group was removed from the queue; their 4 seats are released.').waitFor();
    await page.locator('[data-testid=count-available]', { hasText: /^13$/ }).waitFor();
    expect(await counts(v.id)).toEqual({ confirmed: 0, held: 0, available: 13 });
    await screenshot(page, `board-pool-removed-${which}`);

    // Kea's booking, confirmed; another device cancels it while this board's cancel is on its way.
    const kea = await promote(v.id);
    await api().post(`/v1/venues/${v.id}/offers/${kea.offer.id}/accept`).set(file.owner.auth).send({}).expect(200);
    const listed = page.locator(`[data-testid=confirmed-group][data-reservation-id="${kea.offer.reservationId}"]`);
    await listed.waitFor();
    await page.route('**/reservations/*/cancel', async (route) => {
      await api()
        .post(`/v1/venues/${v.id}/reservations/${kea.offer.reservationId}/cancel`)
        .set(file.owner.auth)
        .send({})
        .expect(200);
      await route.continue();
    });
    const cancel = listed.getByTestId('confirmed-cancel');
    await cancel.scrollIntoViewIfNeeded();
    await cancel.click();
    await cancel.click();
    await notice(page, 'The booking for Kea Group had already been cancelled; 2 seats were already free.').waitFor();
    expect(await page.locator('[data-testid=notice]', { hasText: 'Booking for Kea Group cancelled' }).count()).toBe(0);
    await page.getByTestId('confirmed-none').waitFor();
    await page.locator('[data-testid=count-available]', { hasText: /^13$/ }).waitFor();
    expect(await counts(v.id)).toEqual({ confirmed: 0, held: 0, available: 13 });
    await screenshot(page, `board-pool-cancel-raced-${which}`);
  };

  it('the board, on a 390×844 phone', () => board('phone'), 120_000);
  it('the board, on a 1280×800 screen', () => board('desktop'), 120_000);

  it('a group holding seats that leaves from its page is told the seats are released', async () => {
    const v = await workshop('Rātā Studio');
    const group = await joined(file.t, file.owner, v.id, { name: 'Aroha Group', partySize: 3, email: 'aroha@example.test' });
    await promote(v.id);
    for (const which of ['phone', 'desktop'] as const) {
      const page = await screen(which);
      await page.goto(`${file.t.baseUrl}/q/#${group.queueToken ?? ''}`);
      await page.locator('[data-testid=guest-page][data-state=offered]').waitFor();
      await page.getByTestId('leave').click();
      await page.getByTestId('leave-confirm').waitFor();
      expect(await page.locator('section.leave').innerText()).toContain(
        'Leave the queue? The 3 seats held for your group will be released to the next group.',
      );
      expect(await page.getByTestId('leave-keep').textContent()).toBe('Keep my seats');
      await screenshot(page, `guest-workshop-leave-held-${which}`);
      await page.getByTestId('leave-keep').click();
    }
    expect(await counts(v.id)).toEqual({ confirmed: 0, held: 3, available: 10 });
  }, 120_000);

  /**
   * The question before leaving says the held seats go to the next group; the card after it said only
   * "You have left the queue" and how to join again, so a group that left could not tell whether its
   * seats were still held for it. The card says so too, and still says it when the page is opened
   * again later (its link then no longer works). A confirmed group that cancels is told the same of
   * its confirmed seats. 390×844.
   */
  it('a workshop group that leaves from its page reads that its seats were released', async () => {
    const v = await workshop('Pōhutukawa Studio');
    const held = await joined(file.t, file.owner, v.id, { name: 'Mere Group', partySize: 5, email: 'mere@example.test' });
    await promote(v.id);
    expect(await counts(v.id)).toEqual({ confirmed: 0, held: 5, available: 8 });
    const page = await screen('phone');
    await page.goto(`${file.t.baseUrl}/q/#${held.queueToken ?? ''}`);
    await page.locator('[data-testid=guest-page][data-state=offered]').waitFor();
    await page.getByTestId('leave').click();
    await page.getByTestId('leave-confirm').click();
    await page.locator('[data-testid=guest-page][data-state=cancelled]').waitFor();
    const card = page.getByTestId('state');
    expect(await card.innerText()).toContain('You have left the queue');
    expect(await card.innerText()).toContain('The 5 seats held for your group were released to the next group.');
    expect(await counts(v.id)).toEqual({ confirmed: 0, held: 0, available: 13 });
    await screenshot(page, 'guest-workshop-left-held-phone');
    await page.reload();
    await page.getByTestId('left').waitFor();
    expect(await page.getByTestId('left').innerText()).toContain(
      'The 5 seats held for your group were released to the next group.',
    );

    // A confirmed group of 2 cancels its seats from its page.
    const sure = await joined(file.t, file.owner, v.id, { name: 'Wiremu Group', partySize: 2, email: 'wiremu@example.test' });
    const offer = await promote(v.id);
    await api().post(`/v1/venues/${v.id}/offers/${offer.offer.id}/accept`).set(file.owner.auth).send({}).expect(200);
    const other = await screen('phone');
    await other.goto(`${file.t.baseUrl}/q/#${sure.queueToken ?? ''}`);
    await other.locator('[data-testid=guest-page][data-state=confirmed]').waitFor();
    await other.getByTestId('leave').click();
    await other.getByTestId('leave-confirm').click();
    await other.locator('[data-testid=guest-page][data-state=cancelled]').waitFor();
    expect(await other.getByTestId('state').innerText()).toContain('Your 2 seats were released to the next group.');
    expect(await counts(v.id)).toEqual({ confirmed: 0, held: 0, available: 13 });
  }, 120_000);

  it("a restaurant party that leaves keeps the restaurant's words", async () => {
    const v = await sandboxVenue(file.t, file.owner, {
      name: 'Tōtara Kitchen',
      timeZone: 'America/St_Johns',
      clock: '2026-12-11T19:40:00-03:30',
      tables: [{ label: 'Window 3', capacity: 4 }],
    });
    const p = await joined(file.t, file.owner, v.id, { name: 'Rangi Party', partySize: 3, email: 'rangi@example.test' });
    const entry = (await api().get(`/v1/venues/${v.id}/queue`).set(file.owner.auth).expect(200)).body as {
      entries: Array<{ id: string; version: number }>;
    };
    await api()
      .post(`/v1/venues/${v.id}/offers`)
      .set(file.owner.auth)
      .send({ entryId: p.entry.id, entryVersion: entry.entries[0]?.version, tableIds: [v.tableIds['Window 3']] })
      .expect(201);
    const page = await screen('phone');
    await page.goto(`${file.t.baseUrl}/q/#${p.queueToken ?? ''}`);
    await page.locator('[data-testid=guest-page][data-state=offered]').waitFor();
    await page.getByTestId('leave').click();
    await page.getByTestId('leave-confirm').click();
    await page.locator('[data-testid=guest-page][data-state=cancelled]').waitFor();
    expect((await page.getByTestId('state').innerText()).replace(/\s+/g, ' ').trim()).toBe(
      'You have left the queue To join again, ask at the desk.',
    );
  }, 120_000);

  it("a restaurant's sheet still offers a high chair and asks the spec's way", async () => {
    const v = await sandboxVenue(file.t, file.owner, {
      name: 'Kererū Kitchen',
      timeZone: 'America/St_Johns',
      clock: '2026-12-11T19:40:00-03:30',
      tables: [{ label: 'Patio 7', capacity: 4 }],
    });
    const p = await joined(file.t, file.owner, v.id, { name: 'Hemi Party', partySize: 3, email: 'hemi@example.test' });
    const page = await screen('phone');
    await openVenueBoard(page, file.t.baseUrl, file.owner, v.id);
    await boardLive(page);
    await page.locator(`[data-testid=entry][data-entry-id="${p.entry.id}"]`).getByTestId('entry-more').click();
    const sheet = page.getByTestId('entry-sheet');
    await sheet.locator('[data-tag=high-chair]').waitFor();
    const remove = sheet.getByTestId('cancel');
    await remove.scrollIntoViewIfNeeded();
    await remove.click();
    expect((await remove.textContent())?.trim()).toBe('Tap again to remove');
  }, 120_000);
});
