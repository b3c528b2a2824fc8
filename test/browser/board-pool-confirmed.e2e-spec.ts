import type { Page } from 'playwright-core';
import request from 'supertest';
import { joined, sandboxVenue } from '../support/restaurant.js';
import { boardLive, openVenueBoard } from './board-page.js';
import { describeWithChromium, screenshot } from './chromium.js';
import { phoneBoardFile } from './phone-board-file.js';

const d = describeWithChromium('the confirmed groups of a seat pool are tested in a real browser');

/**
 * A workshop organizer must be able to cancel a confirmed group (the guide: "Release a held or
 * confirmed group's seats once; retain the cancellation history"). The board counted confirmed seats
 * but listed no confirmed group, so nobody could cancel one from it. A 13-seat pool, 7-minute holds,
 * Auckland time, on a 390×844 phone and a 1280×800 screen.
 */
d('a workshop board lists its confirmed groups and cancels one with a second tap', () => {
  const file = phoneBoardFile('organizer');
  const api = () => request(file.t.baseUrl);

  const counts = async (venueId: string) => {
    const res = await api().get(`/v1/venues/${venueId}/counts`).set(file.owner.auth).expect(200);
    const c = res.body as { capacity: number; confirmed: number; held: number; available: number };
    return { confirmed: c.confirmed, held: c.held, available: c.available };
  };

  /** Joins a group, holds its seats and accepts for it, all through the API: a confirmed group. */
  const confirmedGroup = async (venueId: string, name: string, partySize: number): Promise<string> => {
    await joined(file.t, file.owner, venueId, { name, partySize, email: `${name.split(' ')[0]?.toLowerCase()}@example.test` });
    const promoted = await api().post(`/v1/venues/${venueId}/promotions`).set(file.owner.auth).send({}).expect(201);
    const offer = (promoted.body as { offer: { id: string; reservationId: string } }).offer;
    const accepted = await api()
      .post(`/v1/venues/${venueId}/offers/${offer.id}/accept`)
      .set(file.owner.auth)
      .send({})
      .expect(200);
    expect((accepted.body as { reservation: { state: string } }).reservation.state).toBe('CONFIRMED');
    return offer.reservationId;
  };

  const notice = (page: Page, text: string) => page.locator('[data-testid=notice]', { hasText: text }).first();
  const boardCount = (page: Page, which: string) => page.getByTestId(`count-${which}`);

  const scenario = async (screen: 'phone' | 'desktop'): Promise<void> => {
    const v = await sandboxVenue(file.t, file.owner, {
      name: `Harakeke Studio ${screen}`,
      timeZone: 'Pacific/Auckland',
      clock: '2026-12-11T09:40:00+13:00',
      preset: 'workshop',
      poolCapacity: 13,
      patch: { policy: { holdSeconds: 420 } },
    });
    const tui = await confirmedGroup(v.id, 'Tui Group', 4);
    const kea = await confirmedGroup(v.id, 'Kea Group', 5);
    expect(await counts(v.id)).toEqual({ confirmed: 9, held: 0, available: 4 });

    const page = await file.page(screen);
    // The board's cancels, with the Idempotency-Key each carries.
    const cancels: Array<string | undefined> = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/cancel')) cancels.push(r.headers()['idempotency-key']);
    });
    await openVenueBoard(page, file.t.baseUrl, file.owner, v.id);
    await boardLive(page);

    const rows = page.locator('[data-testid=confirmed-group]');
    const row = (id: string) => page.locator(`[data-testid=confirmed-group][data-reservation-id="${id}"]`);
    await rows.nth(1).waitFor();
    expect(await rows.count()).toBe(2);
    // Every device lists them in one order: by when confirmed, then by reservation id. On a standing
    // practice clock both were confirmed at 9:40, and the phone and the desktop listed them in
    // opposite orders (the list's own order, newest first, reversed only where the times differ).
    const confirmed = (await api().get(`/v1/venues/${v.id}/reservations?state=CONFIRMED`).set(file.owner.auth).expect(200))
      .body as Array<{ id: string; confirmedAt: string }>;
    const oneOrder = confirmed
      .sort((a, b) => Date.parse(a.confirmedAt) - Date.parse(b.confirmedAt) || (a.id < b.id ? -1 : 1))
      .map((r) => r.id);
    expect([
      await rows.nth(0).getAttribute('data-reservation-id'),
      await rows.nth(1).getAttribute('data-reservation-id'),
    ]).toEqual(oneOrder);
    expect(await row(tui).innerText()).toContain('Tui Group');
    expect(await row(tui).innerText()).toContain('group of 4');
    expect(await row(kea).innerText()).toContain('Kea Group');
    expect(await row(kea).innerText()).toContain('group of 5');
    // When it was confirmed, on the venue's clock (Auckland, not the browser's).
    expect(await row(tui).innerText()).toMatch(/Confirmed .*Dec 11, 9:40 AM/);
    await row(kea).scrollIntoViewIfNeeded();
    await screenshot(page, `board-pool-confirmed-${screen}`);

    // One tap only asks.
    const cancel = row(tui).getByTestId('confirmed-cancel');
    await cancel.click();
    expect((await cancel.textContent())?.trim()).toBe('Tap again: releases 4 seats');
    await page.waitForTimeout(500);
    expect(await counts(v.id)).toEqual({ confirmed: 9, held: 0, available: 4 });
    expect(await rows.count()).toBe(2);
    expect(cancels).toEqual([]);
    await screenshot(page, `board-pool-confirmed-asks-${screen}`);

    // The second tap cancels: the seats come back and the group leaves the list.
    await cancel.click();
    await notice(page, 'Booking for Tui Group cancelled; 4 seats are free again.').waitFor();
    await page.locator('[data-testid=count-available]', { hasText: /^8$/ }).waitFor();
    expect((await boardCount(page, 'confirmed').textContent())?.trim()).toBe('5');
    await row(tui).waitFor({ state: 'detached' });
    expect(await rows.count()).toBe(1);
    expect(await counts(v.id)).toEqual({ confirmed: 5, held: 0, available: 8 });
    expect(cancels).toHaveLength(1);
    expect(cancels[0]).toMatch(/^[0-9a-f]{32}$/);
    await screenshot(page, `board-pool-confirmed-cancelled-${screen}`);

    // Repeating that cancel (a retry) releases nothing again: Kea's seats stay counted.
    const again = await api().post(`/v1/venues/${v.id}/reservations/${tui}/cancel`).set(file.owner.auth).send({}).expect(200);
    expect((again.body as { reservation: { state: string } }).reservation.state).toBe('CANCELLED');
    expect(await counts(v.id)).toEqual({ confirmed: 5, held: 0, available: 8 });

    // Another device cancels Kea's booking: the list follows the board, no reload.
    const key = `bbconf-${screen}-${Date.now()}`;
    await api()
      .post(`/v1/venues/${v.id}/reservations/${kea}/cancel`)
      .set(file.owner.auth)
      .set('Idempotency-Key', key)
      .send({})
      .expect(200);
    await row(kea).waitFor({ state: 'detached' });
    await page.getByTestId('confirmed-none').waitFor();
    await page.locator('[data-testid=count-available]', { hasText: /^13$/ }).waitFor();
    // The same request retried with its key, and again with none: still released once.
    await api()
      .post(`/v1/venues/${v.id}/reservations/${kea}/cancel`)
      .set(file.owner.auth)
      .set('Idempotency-Key', key)
      .send({})
      .expect(200);
    await api().post(`/v1/venues/${v.id}/reservations/${kea}/cancel`).set(file.owner.auth).send({}).expect(200);
    expect(await counts(v.id)).toEqual({ confirmed: 0, held: 0, available: 13 });
    expect((await boardCount(page, 'available').textContent())?.trim()).toBe('13');
  };

  it('on a 390×844 phone', () => scenario('phone'), 120_000);
  it('on a 1280×800 screen', () => scenario('desktop'), 120_000);

  it("a restaurant's board lists no confirmed groups", async () => {
    const v = await sandboxVenue(file.t, file.owner, {
      name: 'Kererū Kitchen',
      timeZone: 'Pacific/Auckland',
      clock: '2026-12-11T19:40:00+13:00',
      tables: [{ label: 'Patio 7', capacity: 4 }],
    });
    const page = await file.phone(v.id);
    await page.getByTestId('board').waitFor();
    expect(await page.getByTestId('confirmed-groups').count()).toBe(0);
  }, 120_000);
});
