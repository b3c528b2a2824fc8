import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { EVERY_DAY, exchange, joined, moveClock, sandboxVenue, uniq, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';
import { signInToVenueList } from './board-page.js';
import { describeWithChromium, launchChromium, newPhone, screenshot } from './chromium.js';

/** The page polls every 3 s; a state must show within this. */
const SHOW_BOUND = 10_000;
const T0 = '2026-12-05T06:00:00.000Z'; // 7 PM in Auckland (NZDT, UTC+13)

const d = describeWithChromium('the guest page is tested in a real browser');

/**
 * A guest who has only a phone, at a venue far from UTC (Auckland), with a 7-minute hold and a
 * 35-minute turn: paths its phone meets that the other guest page tests do not.
 */
d('a phone-only guest at a venue in Auckland, on a 360×640 phone', () => {
  let t: TestApp;
  let owner: Staff;
  let browser: Browser;
  let v: Sandbox;
  const contexts: BrowserContext[] = [];
  let n = 0;
  const nextPhone = (): string => `021 3${String(100000 + ++n)}`;

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'owner');
    browser = await launchChromium();
    v = await sandboxVenue(t, owner, {
      clock: T0,
      timeZone: 'Pacific/Auckland',
      windows: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '17:00', end: '23:00', turnMinutes: 35 }],
      tables: [
        { label: 'T1', capacity: 2 },
        { label: 'T2', capacity: 4 },
      ],
      patch: { policy: { holdSeconds: 420 } },
    });
  });
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await t?.close();
  });

  async function phone(): Promise<Page> {
    const context = await newPhone(browser, { width: 360, height: 640, locale: 'en-NZ' });
    contexts.push(context);
    return context.newPage();
  }

  const state = (page: Page, s: string) =>
    page.locator(`[data-testid=guest-page][data-state=${s}]`).waitFor({ timeout: SHOW_BOUND });

  it('a queue link opened in the tab that already shows the queue page is followed, and wiped from the address bar', async () => {
    // The guest tapped the text's plain /q/ link first (this phone keeps no link yet), then opens
    // the link from the desk's code in that same tab: only the fragment changes, the page stays.
    const party = await joined(t, owner, v.id, { name: 'Tama Same-Tab', partySize: 2, phone: nextPhone() });
    const page = await phone();
    await page.goto(`${t.baseUrl}/q/`);
    await state(page, 'no-link');
    await page.goto(`${t.baseUrl}/q/#${party.queueToken ?? ''}`);
    await state(page, 'waiting');
    expect(await page.getByTestId('party').textContent()).toBe('Tama Same-Tab, party of 2');
    expect(page.url()).toBe(`${t.baseUrl}/q/`);

    // Another party's link opened in the same tab is asked about, as when it opens a new page.
    const other = await joined(t, owner, v.id, { name: 'Hine Other', partySize: 2, phone: nextPhone() });
    await page.goto(`${t.baseUrl}/q/#${other.queueToken ?? ''}`);
    await page.getByTestId('choose').waitFor({ timeout: SHOW_BOUND });
    expect(page.url()).toBe(`${t.baseUrl}/q/`);
    await screenshot(page, 'guest-phone-only-same-tab-choose');
    await page.getByTestId('keep-mine').click();
    await state(page, 'waiting');
    expect(await page.getByTestId('party').textContent()).toBe('Tama Same-Tab, party of 2');
  }, 60_000);

  /**
   * Where each character of `needle` is drawn (its left edge), in the first text node under a
   * `testid` element that holds it: the visual order, which the bidi algorithm decides.
   */
  const drawnAt = (page: Page, testid: string, needle: string): Promise<number[] | null> =>
    page.evaluate(`(() => {
      for (const el of document.querySelectorAll('[data-testid=${testid}]')) {
        const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        for (let node = walk.nextNode(); node; node = walk.nextNode()) {
          const at = node.data.indexOf(${JSON.stringify(needle)});
          if (at < 0) continue;
          return [...${JSON.stringify(needle)}].map((_, k) => {
            const r = document.createRange();
            r.setStart(node, at + k);
            r.setEnd(node, at + k + 1);
            return r.getBoundingClientRect().left;
          });
        }
      }
      return null;
    })()`);

  const rising = (xs: number[] | null): boolean => xs !== null && xs.every((x, i) => i === 0 || x > (xs[i - 1] ?? 0));

  it("a right-to-left name does not turn the number after it around on the manager's phone (Messages) or the board's queue", async () => {
    // A visitor's number from abroad: shown with + and the country code (a number of the venue's own
    // country is shown in its national form, which has no + to be turned around).
    const number = '+44 7911 123456';
    const party = await joined(t, owner, v.id, { name: 'نور الهدى', partySize: 2, phone: number });
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      locale: 'en-NZ',
    });
    contexts.push(context);
    const page = await context.newPage();
    await signInToVenueList(page, t.baseUrl, owner, v.id);
    await page.goto(`${t.baseUrl}/board/venues/${v.id}/messages`);
    await page.getByTestId('message-to').filter({ hasText: number }).first().waitFor({ timeout: SHOW_BOUND });
    await screenshot(page, 'guest-phone-only-messages-rtl-name');
    // "(+44 7911 123456)" drawn left to right, not "(44 7911 123456+)".
    expect(rising(await drawnAt(page, 'message-to', number))).toBe(true);

    // The queue row: "2 people" after the name, not its "2" drawn before the name.
    await page.goto(`${t.baseUrl}/board/venues/${v.id}`);
    const row = page.getByTestId('entry').filter({ hasText: party.entry.name });
    await row.waitFor({ timeout: SHOW_BOUND });
    const [name, size] = (await page.evaluate(`(() => {
      const el = [...document.querySelectorAll('[data-testid=entry] .name')].find((e) => e.textContent.includes(${JSON.stringify(party.entry.name)}));
      const size = el.querySelector('.size');
      const r = document.createRange();
      r.setStartBefore(el.firstChild);
      r.setEndBefore(size);
      return [r.getBoundingClientRect().right, size.getBoundingClientRect().left];
    })()`)) as [number, number];
    await screenshot(page, 'guest-phone-only-queue-rtl-name');
    expect(size).toBeGreaterThanOrEqual(name - 1);
  }, 60_000);

  it('a seated party’s page left open at the table keeps “You are seated” after the hour its confirm opened, on a 390×844 phone', async () => {
    const party = await joined(t, owner, v.id, { name: 'Wiremu Seated', partySize: 2, phone: nextPhone() });
    const context = await newPhone(browser, { locale: 'en-NZ' });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`${t.baseUrl}/q/#${party.queueToken ?? ''}`);
    await state(page, 'waiting');
    const offered = await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/offers`)
      .set(owner.auth)
      .send({ entryId: party.entry.id, entryVersion: party.entry.version, tableIds: [v.tableIds['T2']] })
      .expect(201);
    const { reservation } = offered.body as { reservation: { id: string } };
    await state(page, 'offered');
    // The party confirms on its phone (its token is spent for a 60-minute session), and is seated.
    await page.getByTestId('confirm').click();
    await state(page, 'confirmed');
    await request(t.baseUrl).post(`/v1/venues/${v.id}/reservations/${reservation.id}/seat`).set(owner.auth).expect(201);
    await state(page, 'seated');
    // Still dining 65 minutes later (a 35-minute turn run long), the phone on the table: nothing the
    // page could learn now changes where the party is, and "This link no longer works … Ask at the
    // desk for a new code" would send a seated party to the desk for nothing.
    await moveClock(t, owner, v.id, new Date(Date.parse(T0) + 65 * 60_000).toISOString());
    await page.waitForTimeout(7_000);
    await screenshot(page, 'guest-phone-only-seated-after-the-hour');
    expect(await page.getByTestId('guest-page').getAttribute('data-state')).toBe('seated');
    expect(await page.getByTestId('state').textContent()).toBe('You are seatedEnjoy your meal.');
  }, 60_000);

  it('Confirm is off once the countdown reads 0:00 while the phone cannot read (a weak signal): a tap then spent the link on a lapsed hold', async () => {
    // A live venue in Denver (the real clock, all day) with a 17-second hold, so the hold really lapses.
    const created = await request(t.baseUrl)
      .post('/v1/venues')
      .set(owner.auth)
      .send({ slug: `live-${uniq()}`, name: 'Larkspur Grill', timeZone: 'America/Denver', preset: 'restaurant' })
      .expect(201);
    const live = (created.body as { id: string }).id;
    for (const [start, end] of [
      ['00:00', '12:00'],
      ['12:00', '00:00'],
    ])
      await request(t.baseUrl)
        .post(`/v1/venues/${live}/service-windows`)
        .set(owner.auth)
        .send({ days: EVERY_DAY, start, end, turnMinutes: 35 })
        .expect(201);
    const table = (
      (await request(t.baseUrl).post(`/v1/venues/${live}/tables`).set(owner.auth).send({ label: 'L1', capacity: 2 }).expect(201))
        .body as { id: string }
    ).id;
    await request(t.baseUrl)
      .patch(`/v1/venues/${live}`)
      .set(owner.auth)
      .send({ policy: { holdSeconds: 17 } })
      .expect(200);
    const party = await joined(t, owner, live, { name: 'Kai Weak Signal', partySize: 2, phone: '(720) 555-0163' });
    const context = await newPhone(browser);
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`${t.baseUrl}/q/#${party.queueToken ?? ''}`);
    await state(page, 'waiting');
    await request(t.baseUrl)
      .post(`/v1/venues/${live}/offers`)
      .set(owner.auth)
      .send({ entryId: party.entry.id, entryVersion: party.entry.version, tableIds: [table] })
      .expect(201);
    await state(page, 'offered');
    // The signal goes: the page's reads get no answer while the 17 seconds run out on its countdown.
    let release: () => void = () => undefined;
    const released = new Promise<void>((r) => (release = r));
    await page.route('**/v1/queue-status', async (route) => {
      await released;
      await route.continue();
    });
    await page.locator('[data-testid=countdown][data-left-ms="0"]').waitFor({ timeout: 30_000 });
    await screenshot(page, 'guest-phone-only-countdown-ran-out');
    const exchanges: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/v1/queue-sessions')) exchanges.push(r.url());
    });
    // The guest taps Confirm anyway.
    await page.getByTestId('confirm').click({ force: true });
    await page.waitForTimeout(1_500);
    expect(exchanges).toEqual([]);
    expect(await page.getByTestId('confirm').isDisabled()).toBe(true);
    release();
    await state(page, 'waiting');
    await page.getByTestId('offer-ended').waitFor({ timeout: SHOW_BOUND });
    await page.unrouteAll();
    // Its link was not spent on the lapsed hold: it still opens the party's place (a spent one opens
    // a session that ends within the hour, and the page then says the link no longer works while the
    // party still waits).
    await exchange(t, party.queueToken ?? '').expect(201);
  }, 90_000);

  it('a tap on Confirm just after the hold lapsed reads the lapse once, in the state, not again as an error under it', async () => {
    const party = await joined(t, owner, v.id, { name: 'Late Tap', partySize: 2, phone: nextPhone() });
    const page = await phone();
    await page.goto(`${t.baseUrl}/q/#${party.queueToken ?? ''}`);
    await state(page, 'waiting');
    const entry = (await request(t.baseUrl).get(`/v1/venues/${v.id}/queue/${party.entry.id}`).set(owner.auth).expect(200))
      .body as { entry: { version: number } };
    const offered = await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/offers`)
      .set(owner.auth)
      .send({ entryId: party.entry.id, entryVersion: entry.entry.version, tableIds: [v.tableIds['T1']] })
      .expect(201);
    const expiresAt = (offered.body as { offer: { expiresAt: string } }).offer.expiresAt;
    await state(page, 'offered');
    // The page's reads wait (a slow network) while the seven minutes pass; the tap gets through.
    let release: () => void = () => undefined;
    const released = new Promise<void>((r) => (release = r));
    await page.route('**/v1/queue-status', async (route) => {
      await released;
      await route.continue();
    });
    await moveClock(t, owner, v.id, new Date(Date.parse(expiresAt) + 1000).toISOString());
    const refused = page.waitForResponse((r) => r.url().endsWith('/v1/queue-status/accept'));
    await page.getByTestId('confirm').click();
    expect((await refused).status()).toBe(409);
    release();
    await state(page, 'waiting');
    await page.getByTestId('offer-ended').waitFor({ timeout: SHOW_BOUND });
    await screenshot(page, 'guest-phone-only-late-tap');
    const said = (await page.locator('main').innerText()).split('The offer expired and its table was released.').length - 1;
    expect(said).toBe(1);
    expect(await page.getByTestId('problem').count()).toBe(0);
    await page.unrouteAll();
  }, 60_000);
});
