import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { EVERY_DAY, joined, moveClock, sandboxVenue, type JoinBody, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { addMember, signUp, type Staff } from '../support/staff.js';
import { signInToVenueList } from './board-page.js';
import { describeWithChromium, launchChromium, screenshot } from './chromium.js';

const d = describeWithChromium('the Reports tab is tested in a real browser');

/**
 * A manager in Lisbon reads one evening on the Reports tab (From and To the same date), then the
 * quiet day after. The quote report's line said "between Nov 20, 2026 and Nov 20, 2026", and for
 * the day nobody came "0 parties offered a table …; 0 quoted but never offered (not measured)". Its
 * two seated parties (20 and 55 minutes) read "9 in 10 within 52 min".
 */
d('Reports: one date read alone, on a laptop', () => {
  let t: TestApp;
  let browser: Browser;
  let owner: Staff;
  let manager: Staff;
  let v: Sandbox;
  let context: BrowserContext;

  beforeAll(async () => {
    t = await startApp();
    browser = await launchChromium();
    owner = await signUp(t, 'one-day-owner');
    v = await sandboxVenue(t, owner, {
      name: 'Tasca do Largo',
      timeZone: 'Europe/Lisbon',
      clock: '2026-11-20T18:30:00Z',
      windows: [{ days: EVERY_DAY, start: '18:00', end: '23:00', turnMinutes: 90 }],
      tables: [
        { label: 'B2', capacity: 2 },
        { label: 'C4', capacity: 4 },
      ],
      patch: { policy: { holdSeconds: 480 } },
    });
    manager = await addMember(t, v.id, owner, 'manager');
    const rita = await joined(t, owner, v.id, { name: 'Rita Sousa', partySize: 4, email: 'rita@example.test' });
    const rui = await joined(t, owner, v.id, { name: 'Rui Alves', partySize: 2, phone: '+351 916 000 111' });
    await joined(t, owner, v.id, { name: 'Ana Reis', partySize: 3, email: 'ana@example.test' });
    // Rita is seated after 20 minutes, Rui after 55; Ana is never offered a table.
    const seat = async (p: JoinBody, table: string, offerAt: string, seatAt: string): Promise<void> => {
      await moveClock(t, owner, v.id, offerAt);
      const res = await request(t.baseUrl)
        .post(`/v1/venues/${v.id}/offers`)
        .set(owner.auth)
        .send({ entryId: p.entry.id, entryVersion: p.entry.version, tableIds: [v.tableIds[table]] })
        .expect(201);
      const { offer, reservation } = res.body as { offer: { id: string }; reservation: { id: string } };
      await request(t.baseUrl).post(`/v1/venues/${v.id}/offers/${offer.id}/accept`).set(owner.auth).send({}).expect(200);
      await moveClock(t, owner, v.id, seatAt);
      await request(t.baseUrl)
        .post(`/v1/venues/${v.id}/reservations/${reservation.id}/seat`)
        .set(owner.auth)
        .send({})
        .expect(201);
    };
    await seat(rita, 'C4', '2026-11-20T18:47:00Z', '2026-11-20T18:50:00Z');
    await seat(rui, 'B2', '2026-11-20T19:20:00Z', '2026-11-20T19:25:00Z');
    await moveClock(t, owner, v.id, '2026-11-22T11:00:00Z');
    context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await t?.close();
  });

  async function summaryFor(p: Page, from: string, to: string): Promise<string> {
    await p.locator('input[type=date]').nth(1).fill(to);
    await p.locator('input[type=date]').nth(0).fill(from);
    const summary = p.getByTestId('report-summary');
    // The line for this range (the previous range's goes while the new one is read).
    for (const until = Date.now() + 10_000; Date.now() < until; await p.waitForTimeout(100)) {
      const text = (await summary.count()) > 0 ? await summary.innerText() : '';
      if (text !== '' && !text.includes('Oct ')) return text;
    }
    return summary.innerText();
  }

  it('Nov 20 alone reads "on Nov 20, 2026"; Nov 21, when nobody came, says no party was offered a table', async () => {
    const p = await context.newPage();
    await signInToVenueList(p, t.baseUrl, manager, v.id);
    await p.goto(`${t.baseUrl}/board/venues/${v.id}/reports`);
    await p.getByTestId('report-summary').waitFor();

    expect(await summaryFor(p, '2026-11-20', '2026-11-20')).toBe(
      '2 parties offered a table on Nov 20, 2026; 1 quoted but never offered (not measured). Actual wait: from joining to the first offer.',
    );
    await p.getByTestId('days').waitFor();
    // Two parties seated, after 20 and 55 minutes: half within 38, the longest 55 (it read "9 in 10
    // within 52 min", the interpolated 90th percentile of two, one of whom waited 55).
    expect((await p.getByTestId('day-row').getByTestId('day-wait').innerText()).split('\n')).toEqual([
      'half within 38\u00a0min',
      'longest 55\u00a0min',
    ]);
    await screenshot(p, 'reports-one-day-laptop');

    await p.locator('input[type=date]').nth(0).fill('2026-11-21');
    await p.locator('input[type=date]').nth(1).fill('2026-11-21');
    await p.getByTestId('days-empty').waitFor();
    const quiet = p.getByTestId('report-summary');
    await quiet.filter({ hasText: 'Nov 21' }).waitFor();
    expect(await quiet.innerText()).toBe('No party was offered a table on Nov 21, 2026.');
    // Nothing quoted: no quotes file to download (it held only its header), as no days file.
    expect(await p.getByTestId('csv').isDisabled()).toBe(true);
    await p.locator('input[type=date]').nth(0).fill('2026-11-20');
    await p.getByTestId('days-empty').waitFor({ state: 'detached' });
    await quiet.filter({ hasText: 'between Nov 20, 2026 and Nov 21, 2026' }).waitFor();
    expect(await p.getByTestId('csv').isDisabled()).toBe(false);
  }, 120_000);
});
