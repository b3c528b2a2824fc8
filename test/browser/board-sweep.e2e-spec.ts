import request from 'supertest';
import type { Browser } from 'playwright-core';
import { EVERY_DAY, joined, party } from '../support/restaurant.js';
import { ManualClock, startApp, type TestApp } from '../support/test-app.js';
import { addMember, createVenue, signUp, type Staff } from '../support/staff.js';
import { openVenueBoard } from './board-page.js';
import { describeWithChromium, launchChromium, newTablet } from './chromium.js';

const d = describeWithChromium('the board page is tested in a real browser');

const FRIDAY_7PM = new Date('2026-10-10T00:00:00.000Z'); // Chicago, Friday 9 October, 7 PM

/**
 * The restaurant spec: "Staff can run the sweep by hand (“Sweep expired offers”, replay-safe); an
 * empty sweep is a normal answer." A live venue on a manual clock, so the hold can lapse with nobody
 * sweeping until the host presses the button.
 */
d('sweeping expired offers by hand from the board', () => {
  let t: TestApp;
  let browser: Browser;
  let owner: Staff;
  let host: Staff;
  const clock = new ManualClock(FRIDAY_7PM);

  beforeAll(async () => {
    t = await startApp({ clock });
    owner = await signUp(t, 'owner');
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('a host presses "Sweep expired offers": a lapsed hold is released, the party keeps its place, an empty sweep is said plainly', async () => {
    const v = await createVenue(t, owner, { timeZone: 'America/Chicago' });
    host = await addMember(t, v.id, owner, 'host');
    await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/service-windows`)
      .set(owner.auth)
      .send({ days: EVERY_DAY, start: '17:00', end: '23:00', turnMinutes: 25 })
      .expect(201);
    await request(t.baseUrl)
      .patch(`/v1/venues/${v.id}`)
      .set(owner.auth)
      .send({ policy: { holdSeconds: 240 } })
      .expect(200);
    const table = await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/tables`)
      .set(owner.auth)
      .send({ label: 'T7', capacity: 4 })
      .expect(201);
    const p = await joined(t, owner, v.id, party(3, 'Rosa Parks'));
    const offer = (
      await request(t.baseUrl)
        .post(`/v1/venues/${v.id}/offers`)
        .set(owner.auth)
        .send({ entryId: p.entry.id, entryVersion: p.entry.version, tableIds: [(table.body as { id: string }).id] })
        .expect(201)
    ).body as { offer: { id: string; expiresAt: string } };

    const context = await newTablet(browser);
    const page = await context.newPage();
    await openVenueBoard(page, t.baseUrl, host, v.id);
    const row = page.locator(`[data-testid=entry][data-entry-id="${p.entry.id}"]`);
    await row.and(page.locator('[data-status=offered]')).waitFor();

    // The hold's deadline passes (its expiry job would fire four real minutes from now).
    clock.set(new Date(Date.parse(offer.offer.expiresAt)));
    const button = page.locator('[data-testid=sweep-offers]');
    await expect(button.textContent()).resolves.toBe('Sweep expired offers');
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith(`/v1/venues/${v.id}/sweeps`) && r.request().method() === 'POST'),
      button.click(),
    ]);
    expect(answer.status()).toBe(200);
    expect(answer.request().headers()['idempotency-key']).toBeTruthy();
    const expired = ((await answer.json()) as { expired: string[] }).expired;
    // The safety-net sweep (every 15 real seconds) may have taken it a moment before the press.
    expect([[offer.offer.id], []]).toContainEqual(expired);
    const said = expired.length === 1 ? 'Swept: 1 offer had run out and is now released.' : 'Swept: no offer had run out.';
    await page.locator('[data-testid=notice]', { hasText: said }).waitFor();
    // Released once, place kept: the party is waiting again at the head of the queue.
    await row.and(page.locator('[data-status=waiting]')).waitFor();
    const history = (
      await request(t.baseUrl).get(`/v1/venues/${v.id}/history?subjectId=${offer.offer.id}`).set(owner.auth).expect(200)
    ).body as Array<{ from: string | null; to: string; reason: string | null }>;
    expect(history.map((h) => `${h.from}->${h.to} ${h.reason ?? ''}`.trim())).toEqual([
      'live->expired WAITLIST_OFFER_EXPIRED',
      'null->live',
    ]);

    // Nothing left to sweep: a normal answer, not an error.
    await button.click();
    await page.locator('[data-testid=notice]', { hasText: 'Swept: no offer had run out.' }).waitFor();
    await context.close();
  });
});
