import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { EVERY_DAY, joined, moveClock, party, sandboxVenue, type JoinBody, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { addMember, signUp, type Staff } from '../support/staff.js';
import { signInToVenueList } from './board-page.js';
import { describeWithChromium, launchChromium, screenshot } from './chromium.js';

const d = describeWithChromium('the Reports tab is tested in a real browser');

/** The sizes a manager reads the back office at: a phone, and the desk's tablet. */
const SIZES = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'tablet', width: 1024, height: 768 },
] as const;

/** Fri Oct 9 2026 in Chicago (UTC−5 in October). */
const at = (day: '09' | '10', hhmm: string): string => new Date(`2026-10-${day}T${hhmm}:00-05:00`).toISOString();

/**
 * "Day by day" on the Reports tab: a manager reads the night's figures the next morning, in words, on
 * a phone and on the desk's tablet, with every column on the screen.
 */
d('Reports: day by day, on a phone and a tablet', () => {
  let t: TestApp;
  let browser: Browser;
  let owner: Staff;
  let manager: Staff;
  let v: Sandbox;
  const contexts: BrowserContext[] = [];

  async function offer(p: JoinBody, table: string): Promise<{ offerId: string; reservationId: string }> {
    const res = await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/offers`)
      .set(owner.auth)
      .send({ entryId: p.entry.id, entryVersion: p.entry.version, tableIds: [v.tableIds[table]] })
      .expect(201);
    const body = res.body as { offer: { id: string }; reservation: { id: string } };
    return { offerId: body.offer.id, reservationId: body.reservation.id };
  }
  const post = (path: string, code: number) =>
    request(t.baseUrl).post(`/v1/venues/${v.id}${path}`).set(owner.auth).send({}).expect(code);

  beforeAll(async () => {
    t = await startApp();
    browser = await launchChromium();
    owner = await signUp(t, 'days-owner');
    v = await sandboxVenue(t, owner, {
      clock: at('09', '18:00'),
      windows: [{ days: EVERY_DAY, start: '17:00', end: '23:00', turnMinutes: 90 }],
      tables: ['T1', 'T2', 'T3'].map((label) => ({ label, capacity: 4 })),
      patch: { policy: { onOfferExpired: 'keep-place' } },
    });
    manager = await addMember(t, v.id, owner, 'manager');
    // Friday: Ana is seated after 12 minutes, Bo is removed, Cy is a no-show, Di's offer is withdrawn
    // (she keeps her place) and she is still waiting when the day closes. Saturday: Ed is waiting now, Fay is to be seated.
    const ana = await joined(t, owner, v.id, party(3, 'Ana'));
    const bo = await joined(t, owner, v.id, party(2, 'Bo'));
    const cy = await joined(t, owner, v.id, party(4, 'Cy'));
    const di = await joined(t, owner, v.id, party(2, 'Di'));
    await moveClock(t, owner, v.id, at('09', '18:05'));
    const anaOffer = await offer(ana, 'T1');
    await post(`/offers/${anaOffer.offerId}/accept`, 200);
    await post(`/queue/${bo.entry.id}/cancel`, 200);
    const cyOffer = await offer(cy, 'T2');
    await post(`/offers/${cyOffer.offerId}/accept`, 200);
    const diOffer = await offer(di, 'T3');
    await post(`/offers/${diOffer.offerId}/withdraw`, 200);
    await moveClock(t, owner, v.id, at('09', '18:12'));
    await post(`/reservations/${anaOffer.reservationId}/seat`, 201);
    await post(`/reservations/${cyOffer.reservationId}/cancel`, 200);
    await moveClock(t, owner, v.id, at('10', '18:00'));
    await joined(t, owner, v.id, party(4, 'Ed'));
    // Saturday: Fay confirmed her table and is not seated yet: to be seated, not in the queue.
    const fay = await joined(t, owner, v.id, party(3, 'Fay'));
    const fayOffer = await offer(fay, 'T2');
    await post(`/offers/${fayOffer.offerId}/accept`, 200);
  }, 300_000);

  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await t?.close();
  });

  async function open(size: (typeof SIZES)[number]): Promise<Page> {
    const context = await browser.newContext({
      viewport: { width: size.width, height: size.height },
      hasTouch: true,
      isMobile: size.name === 'phone',
      locale: 'en-US',
    });
    contexts.push(context);
    const p = await context.newPage();
    await signInToVenueList(p, t.baseUrl, manager, v.id);
    await p.goto(`${t.baseUrl}/board/venues/${v.id}/reports`);
    return p;
  }

  for (const size of SIZES) {
    it(`${size.name}: each day in words, every column on the screen, and the download`, async () => {
      const p = await open(size);
      await p.getByTestId('days').waitFor();
      const rows = p.getByTestId('day-row');
      expect(await rows.count()).toBe(2);
      const friday = rows.nth(0);
      expect(await friday.locator('th').innerText()).toBe('Fri, Oct 9');
      expect((await friday.getByTestId('day-joined').innerText()).split('\n')).toEqual(['4 parties', '11 people']);
      expect((await friday.getByTestId('day-seated').innerText()).split('\n')).toEqual(['1 party', '3 people']);
      expect((await friday.getByTestId('day-not-seated').innerText()).split('\n')).toEqual([
        '3 parties',
        '1 no-show',
        '1 removed by the host',
        '1 still waiting at close',
      ]);
      // One party seated: its wait ("9 in 10" is said of ten or more).
      expect((await friday.getByTestId('day-wait').innerText()).split('\n')).toEqual(['waited 12\u00a0min']);
      expect((await friday.getByTestId('day-offers').innerText()).split('\n')).toEqual(['3 offers', '2 accepted', '1 withdrawn']);
      expect((await rows.nth(1).getByTestId('day-not-seated').innerText()).split('\n')).toEqual([
        '2 parties',
        '1 still in the queue now',
        '1 to be seated now',
      ]);
      expect((await p.getByTestId('days-total').getByTestId('day-joined').innerText()).split('\n')).toEqual([
        '6 parties',
        '18 people',
      ]);

      // Every column on the screen: the table's frame needs no sideways swipe, no cell's words run past
      // its edge, and the table ends inside the viewport.
      const fit = (await p.evaluate(
        `(() => { const f = document.querySelector('.days-frame'); const cells = [...document.querySelectorAll('[data-testid=days] tbody th, [data-testid=days] tbody td')]; return { scroll: f.scrollWidth, client: f.clientWidth, spilled: cells.filter((c) => c.scrollWidth > c.clientWidth + 1).length, right: document.querySelector('[data-testid=days]').getBoundingClientRect().right, page: document.documentElement.scrollWidth }; })()`,
      )) as { scroll: number; client: number; spilled: number; right: number; page: number };
      expect(fit.scroll).toBeLessThanOrEqual(fit.client);
      expect(fit.spilled).toBe(0);
      expect(fit.right).toBeLessThanOrEqual(size.width);
      expect(fit.page).toBeLessThanOrEqual(size.width);
      await p.getByTestId('day-summary').scrollIntoViewIfNeeded();
      await screenshot(p, `day-report-${size.name}`);

      const [download] = await Promise.all([p.waitForEvent('download'), p.getByTestId('days-csv').click()]);
      expect(download.suggestedFilename()).toMatch(/^days-2026-\d\d-\d\d-2026-10-10\.csv$/);
    }, 120_000);
  }
});
