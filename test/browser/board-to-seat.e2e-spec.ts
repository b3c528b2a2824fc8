import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { exchange, joined, moveClock, queueSession, sandboxVenue, type JoinBody, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { addMember, signUp, type Staff } from '../support/staff.js';
import { boardLive, openVenueBoard } from './board-page.js';
import { ARTIFACTS, describeWithChromium, launchChromium, screenshot } from './chromium.js';

/**
 * Parties who accepted a table (UI review of an evening): the host hears of it ("Ada Lovelace
 * confirmed: table T1, to be seated."), sees them under "To be seated" with their table, seats them
 * or marks a no-show from there, also after the practice clock passed their slot (their tables stay
 * booked, never "Free"); a party leaving from its phone is announced; and a confirmed party's own
 * page has Leave, behind the same second tap as while waiting. At a desk screen and a phone.
 */
const VIEWPORTS = [
  { name: 'desk', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;
const STEP = 10_000;
const T0 = '2026-10-09T23:00:00.000Z'; // 6 PM in Chicago
const LATER = '2026-10-09T23:45:00.000Z'; // past the 30-minute turn

const d = describeWithChromium('the board page is tested in a real browser');

d('confirmed parties on the board, to be seated', () => {
  let t: TestApp;
  let owner: Staff;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const errors: string[] = [];
  const api = () => request(t.baseUrl);

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'to-seat-owner');
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
  });

  async function context(vp: { width: number; height: number }, phone: boolean): Promise<Page> {
    const c = await browser.newContext({
      viewport: { width: vp.width, height: vp.height },
      hasTouch: true,
      isMobile: phone,
      locale: 'en-US',
      timezoneId: 'America/Chicago',
    });
    contexts.push(c);
    const page = await c.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    return page;
  }

  async function board(vp: (typeof VIEWPORTS)[number], staff: Staff, venueId: string): Promise<Page> {
    const page = await context(vp, vp.name === 'phone');
    await openVenueBoard(page, t.baseUrl, staff, venueId);
    await boardLive(page, STEP);
    return page;
  }

  const notice = (page: Page, text: string) => page.locator('[data-testid=notice]', { hasText: text }).waitFor({ timeout: STEP });
  const toSeat = (page: Page, name: string) => page.locator('[data-testid=to-seat-party]', { hasText: name });
  const table = (page: Page, v: Sandbox, label: string) =>
    page.locator(`[data-testid=table][data-table-id="${v.tableIds[label]}"]`);
  const guestState = (page: Page, s: string) =>
    page.locator(`[data-testid=guest-page][data-state=${s}]`).waitFor({ timeout: STEP });

  async function offer(v: Sandbox, who: JoinBody, label: string): Promise<string> {
    const res = await api()
      .post(`/v1/venues/${v.id}/offers`)
      .set(owner.auth)
      .send({ entryId: who.entry.id, entryVersion: who.entry.version, tableIds: [v.tableIds[label]] })
      .expect(201);
    return (res.body as { offer: { id: string } }).offer.id;
  }

  /** The guest page of a party on its phone, confirming the table offered to it. */
  async function confirmOnPhone(who: JoinBody): Promise<Page> {
    const phone = await context({ width: 390, height: 844 }, true);
    await phone.goto(`${t.baseUrl}/q/#${who.queueToken ?? ''}`);
    await guestState(phone, 'offered');
    await phone.getByTestId('confirm').click();
    await guestState(phone, 'confirmed');
    return phone;
  }

  async function noSmallTargets(page: Page): Promise<void> {
    const small = (await page.evaluate(`[...document.querySelectorAll('[data-testid=to-seat] button')]
      .map((b) => ({ text: b.textContent.trim(), r: b.getBoundingClientRect() }))
      .filter((x) => x.r.width < 44 || x.r.height < 44)
      .map((x) => x.text + ' ' + Math.round(x.r.width) + 'x' + Math.round(x.r.height))`)) as string[];
    expect(small).toEqual([]);
    const [scroll, inner] = (await page.evaluate('[document.documentElement.scrollWidth, window.innerWidth]')) as number[];
    expect(scroll).toBeLessThanOrEqual(inner ?? 0);
  }

  for (const vp of VIEWPORTS) {
    it(`${vp.name} ${vp.width}×${vp.height}: accepted parties are announced, listed, seated or cleared as no-shows`, async () => {
      const v = await sandboxVenue(t, owner, {
        clock: T0,
        windows: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '17:00', end: '23:59', turnMinutes: 30 }],
        tables: [
          { label: 'T1', capacity: 2 },
          { label: 'T2', capacity: 4 },
          { label: 'T3', capacity: 4 },
        ],
      });
      const host = await addMember(t, v.id, owner, 'host');
      const ada = await joined(t, owner, v.id, { name: 'Ada Lovelace', partySize: 2, phone: '+13125550150' });
      const bea = await joined(t, owner, v.id, { name: 'Bea Noshow', partySize: 3, email: 'bea@example.test' });
      const cy = await joined(t, owner, v.id, { name: 'Cy Changes', partySize: 2, email: 'cy@example.test' });
      const kat = await joined(t, owner, v.id, { name: 'Katherine', partySize: 2, email: 'kat@example.test' });
      const page = await board(vp, host, v.id);
      await page.locator('[data-testid=entry]', { hasText: 'Ada Lovelace' }).waitFor({ timeout: STEP });

      // Ada confirms on her phone: the host is told, and she moves from the queue to "To be seated".
      await offer(v, ada, 'T1');
      await confirmOnPhone(ada);
      await notice(page, 'Ada Lovelace confirmed: table T1, to be seated.');
      await toSeat(page, 'Ada Lovelace').waitFor({ timeout: STEP });
      expect(await toSeat(page, 'Ada Lovelace').getByTestId('to-seat-tables').textContent()).toBe('Table T1');
      expect(await toSeat(page, 'Ada Lovelace').textContent()).toContain('2 people');
      expect(await toSeat(page, 'Ada Lovelace').getByTestId('to-seat-since').textContent()).toBe('confirmed 6:00 PM, 0 min ago');
      expect(await page.locator('[data-testid=entry]', { hasText: 'Ada Lovelace' }).count()).toBe(0);
      expect(await table(page, v, 'T1').getAttribute('data-state')).toBe('booked');
      expect(await table(page, v, 'T1').textContent()).toContain('To seat');
      await screenshot(page, `to-seat-${vp.name}-after-guest-accept`);

      // Bea is accepted for at another tablet (staff): this board is told too.
      const beaOffer = await offer(v, bea, 'T2');
      await api().post(`/v1/venues/${v.id}/offers/${beaOffer}/accept`).set(owner.auth).expect(200);
      await notice(page, 'Bea Noshow confirmed: table T2, to be seated.');
      await toSeat(page, 'Bea Noshow').waitFor({ timeout: STEP });

      // Katherine leaves the queue from her phone: the host is told.
      const s = (await exchange(t, kat.queueToken ?? '').expect(201)).body as { sessionToken: string };
      await api().post('/v1/queue-session/leave').set(queueSession(s.sessionToken)).send({}).expect(200);
      await notice(page, 'Katherine left the queue from their phone.');

      // The practice clock passes their slot: still listed, their tables still booked, counted so.
      await moveClock(t, owner, v.id, LATER);
      await toSeat(page, 'Ada Lovelace')
        .locator('[data-testid=to-seat-since]', { hasText: 'confirmed 6:00 PM, 45 min ago' })
        .waitFor({ timeout: STEP });
      expect(await table(page, v, 'T1').getAttribute('data-state')).toBe('booked');
      expect(await table(page, v, 'T2').getAttribute('data-state')).toBe('booked');
      expect(await page.getByTestId('table-counts').textContent()).toBe('1 free · 0 offered · 2 booked · 0 seated');
      await noSmallTargets(page);
      await screenshot(page, `to-seat-${vp.name}-past-slot`);
      await page.screenshot({ path: join(ARTIFACTS, `to-seat-${vp.name}-past-slot-full.png`), fullPage: true });

      // Ada's phone lost its page on the way (its session lasts an hour): the desk gives her a new
      // code from her line (a second tap, as in the queue), and the new link shows her table.
      const newCode = toSeat(page, 'Ada Lovelace').getByTestId('to-seat-new-token');
      await newCode.click();
      expect(await newCode.textContent()).toBe('Tap again: the old code stops working');
      await newCode.click();
      const token = (await page.getByTestId('queue-token').getAttribute('data-token', { timeout: STEP })) ?? '';
      expect(await page.getByTestId('token-card').textContent()).toContain('Ada Lovelace: their queue code');
      await screenshot(page, `to-seat-${vp.name}-new-code`);
      await page.getByTestId('token-done').click();
      const adaAgain = await context({ width: 390, height: 844 }, true);
      await adaAgain.goto(`${t.baseUrl}/q/#${token}`);
      await guestState(adaAgain, 'confirmed');

      // Ada arrives: seated from the list, off it, her table seated.
      await toSeat(page, 'Ada Lovelace').getByTestId('to-seat-seat').click();
      await toSeat(page, 'Ada Lovelace').waitFor({ state: 'detached', timeout: STEP });
      await page
        .locator(`[data-testid=table][data-table-id="${v.tableIds['T1']}"][data-state=occupied]`)
        .waitFor({ timeout: STEP });

      // Bea never comes: a no-show (a second tap), off the list, her table free.
      const noShow = toSeat(page, 'Bea Noshow').getByTestId('to-seat-no-show');
      await noShow.click();
      expect(await noShow.textContent()).toBe('Tap again: no-show');
      await noShow.click();
      await page.getByTestId('to-seat').waitFor({ state: 'detached', timeout: STEP });
      await page.locator(`[data-testid=table][data-table-id="${v.tableIds['T2']}"][data-state=free]`).waitFor({ timeout: STEP });
      const reservations = (await api().get(`/v1/venues/${v.id}/reservations`).set(owner.auth).expect(200)).body as Array<{
        entryId?: string;
        state: string;
      }>;
      expect(reservations.find((r) => r.entryId === bea.entry.id)?.state).toBe('CANCELLED');
      expect(reservations.find((r) => r.entryId === ada.entry.id)?.state).toBe('SEATED');

      // Cy confirms on his phone, then changes his mind: his page has Leave, with a second tap.
      await offer(v, cy, 'T3');
      const phone = await confirmOnPhone(cy);
      await toSeat(page, 'Cy Changes').waitFor({ timeout: STEP });
      await phone.getByTestId('leave').click();
      expect(await phone.locator('.leave').textContent()).toContain('Your table will be given up.');
      await screenshot(phone, `to-seat-${vp.name}-guest-confirmed-leave-ask`);
      await phone.getByTestId('leave-confirm').click();
      await guestState(phone, 'cancelled');
      await notice(page, 'Cy Changes left the queue from their phone. Their table is free again.');
      await page.getByTestId('to-seat').waitFor({ state: 'detached', timeout: STEP });
      await page.locator(`[data-testid=table][data-table-id="${v.tableIds['T3']}"][data-state=free]`).waitFor({ timeout: STEP });
      expect(errors).toEqual([]);
    }, 120_000);
  }
});
