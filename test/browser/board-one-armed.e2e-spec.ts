import type { Page } from 'playwright-core';
import request from 'supertest';
import { joined, sandboxVenue, type JoinBody, type Sandbox } from '../support/restaurant.js';
import { boardLive, openVenueBoard } from './board-page.js';
import { describeWithChromium, screenshot } from './chromium.js';
import { phoneBoardFile } from './phone-board-file.js';

const d = describeWithChromium('two-tap buttons on the board are tested in a real browser');

/**
 * A two-tap button (Cancel booking, No-show, New queue code, Remove, Clear) asks "Tap again…" for
 * four seconds. Each button kept its own: a host who tapped the wrong row's Cancel, then the right
 * one's, had two live confirmations, and a second tap on the wrong row still cancelled it. Arming
 * one disarms any other on the board. A 9-seat pool with 8-minute holds and a restaurant with a
 * 5-seat and a 3-seat table, Montréal time.
 */
d('only one two-tap button on the board is armed at a time', () => {
  const file = phoneBoardFile('armer');
  const api = () => request(file.t.baseUrl);

  const open = async (screen: 'phone' | 'desktop', venueId: string): Promise<Page> => {
    const page = await file.page(screen);
    await openVenueBoard(page, file.t.baseUrl, file.owner, venueId);
    await boardLive(page);
    return page;
  };
  const text = async (page: Page, sel: string): Promise<string> => ((await page.locator(sel).textContent()) ?? '').trim();

  it("a seat pool's confirmed groups: arming one Cancel disarms the other (phone)", async () => {
    const v = await sandboxVenue(file.t, file.owner, {
      name: 'Atelier Érable',
      timeZone: 'America/Montreal',
      clock: '2026-12-11T14:10:00-05:00',
      preset: 'workshop',
      poolCapacity: 9,
      patch: { policy: { holdSeconds: 480 } },
    });
    const ids: string[] = [];
    for (const [name, size] of [
      ['Groupe Huard', 3],
      ['Groupe Castor', 2],
    ] as const) {
      await joined(file.t, file.owner, v.id, { name, partySize: size });
      const promoted = await api().post(`/v1/venues/${v.id}/promotions`).set(file.owner.auth).send({}).expect(201);
      const offer = (promoted.body as { offer: { id: string; reservationId: string } }).offer;
      await api().post(`/v1/venues/${v.id}/offers/${offer.id}/accept`).set(file.owner.auth).send({}).expect(200);
      ids.push(offer.reservationId);
    }
    const page = await open('phone', v.id);
    const cancelOf = (id: string) => `[data-testid=confirmed-group][data-reservation-id="${id}"] [data-testid=confirmed-cancel]`;
    await page.locator(cancelOf(ids[1] ?? '')).waitFor();

    await page.locator(cancelOf(ids[0] ?? '')).click();
    expect(await text(page, cancelOf(ids[0] ?? ''))).toBe('Tap again: releases 3 seats');
    await page.locator(cancelOf(ids[1] ?? '')).click();
    expect(await text(page, cancelOf(ids[1] ?? ''))).toBe('Tap again: releases 2 seats');
    // The wrong row's is no longer asking: one tap on it now only asks again.
    expect(await text(page, cancelOf(ids[0] ?? ''))).toBe('Cancel booking');
    await screenshot(page, 'board-one-armed-pool-phone');

    await page.locator(cancelOf(ids[1] ?? '')).click();
    await page.locator(`[data-reservation-id="${ids[1] ?? ''}"]`).waitFor({ state: 'detached' });
    expect(await page.locator('[data-testid=confirmed-group]').count()).toBe(1);
    const counts = (await api().get(`/v1/venues/${v.id}/counts`).set(file.owner.auth).expect(200)).body as {
      confirmed: number;
      available: number;
    };
    expect([counts.confirmed, counts.available]).toEqual([3, 6]);
  }, 120_000);

  it("a restaurant's parties to seat: No-show and New queue code, row to row and in one row (1280×800)", async () => {
    const v: Sandbox = await sandboxVenue(file.t, file.owner, {
      name: 'Bistro Outremont',
      timeZone: 'America/Montreal',
      clock: '2026-12-11T19:10:00-05:00',
      tables: [
        { label: 'Verrière 5', capacity: 5 },
        { label: 'Bar 3', capacity: 3 },
      ],
      patch: { policy: { holdSeconds: 420 } },
    });
    const confirm = async (who: JoinBody, label: string): Promise<void> => {
      const res = await api()
        .post(`/v1/venues/${v.id}/offers`)
        .set(file.owner.auth)
        .send({ entryId: who.entry.id, entryVersion: who.entry.version, tableIds: [v.tableIds[label]] })
        .expect(201);
      const offerId = (res.body as { offer: { id: string } }).offer.id;
      await api().post(`/v1/venues/${v.id}/offers/${offerId}/accept`).set(file.owner.auth).send({}).expect(200);
    };
    await confirm(
      await joined(file.t, file.owner, v.id, { name: 'Famille Roy', partySize: 5, email: 'roy@example.test' }),
      'Verrière 5',
    );
    await confirm(
      await joined(file.t, file.owner, v.id, { name: 'Léa Tremblay', partySize: 2, email: 'lea@example.test' }),
      'Bar 3',
    );
    const page = await open('desktop', v.id);
    const row = (name: string) => page.locator('[data-testid=to-seat-party]', { hasText: name });
    const roy = row('Famille Roy');
    const lea = row('Léa Tremblay');
    await lea.waitFor();

    await roy.getByTestId('to-seat-no-show').click();
    expect((await roy.getByTestId('to-seat-no-show').textContent())?.trim()).toBe('Tap again: no-show');
    await lea.getByTestId('to-seat-no-show').click();
    expect((await lea.getByTestId('to-seat-no-show').textContent())?.trim()).toBe('Tap again: no-show');
    expect((await roy.getByTestId('to-seat-no-show').textContent())?.trim()).toBe('No-show');
    // In one row: asking for a new code takes back the no-show's ask.
    await lea.getByTestId('to-seat-new-token').click();
    expect((await lea.getByTestId('to-seat-new-token').textContent())?.trim()).toBe('Tap again: the old code stops working');
    expect((await lea.getByTestId('to-seat-no-show').textContent())?.trim()).toBe('No-show');
    await screenshot(page, 'board-one-armed-to-seat-desktop');
    // The disarmed No-show asks again; nothing was cancelled.
    await roy.getByTestId('to-seat-no-show').click();
    expect((await roy.getByTestId('to-seat-no-show').textContent())?.trim()).toBe('Tap again: no-show');
    expect(await page.locator('[data-testid=to-seat-party]').count()).toBe(2);
  }, 120_000);
});
