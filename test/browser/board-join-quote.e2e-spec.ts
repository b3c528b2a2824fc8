import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { joined, moveClock, party, sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';
import { boardLive, openVenueBoard } from './board-page.js';
import { describeWithChromium, launchChromium, newPhone, newTablet, screenshot } from './chromium.js';

const STEP = 10_000;
const at = (hhmm: string): string => new Date(`2026-06-12T${hhmm}:00-05:00`).toISOString(); // Friday, Chicago

const d = describeWithChromium('the board page is tested in a real browser');

/**
 * What the host reads out at the desk after a join: the same wait the party's email states, and,
 * when that wait runs past the end of service, the same warning the email gives.
 */
d('the quote on the desk’s token card', () => {
  let t: TestApp;
  let owner: Staff;
  let browser: Browser;
  let v: Sandbox;
  let page: Page;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'join-quote-owner');
    browser = await launchChromium();
    // A bar with one 2-top, dinner to 22:00 with a 60-minute turn; a couple is seated at 21:30.
    v = await sandboxVenue(t, owner, {
      clock: at('21:30'),
      windows: [{ days: [5], start: '17:00', end: '22:00', turnMinutes: 60 }],
      tables: [{ label: 'B1', capacity: 2 }],
      patch: { policy: { quoteModel: 'floor' } },
    });
    const first = await joined(t, owner, v.id, party(2));
    const offered = await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/offers`)
      .set(owner.auth)
      .send({ entryId: first.entry.id, entryVersion: first.entry.version, tableIds: [v.tableIds['B1']] })
      .expect(201);
    const { offer, reservation } = offered.body as { offer: { id: string }; reservation: { id: string } };
    await request(t.baseUrl).post(`/v1/venues/${v.id}/offers/${offer.id}/accept`).set(owner.auth).send({}).expect(200);
    await request(t.baseUrl).post(`/v1/venues/${v.id}/reservations/${reservation.id}/seat`).set(owner.auth).send({}).expect(201);
    await moveClock(t, owner, v.id, at('21:40'));

    const context = await newTablet(browser);
    contexts.push(context);
    page = await context.newPage();
    await openVenueBoard(page, t.baseUrl, owner, v.id);
    await boardLive(page, STEP);
  }, 120_000);
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
  });

  it('a wait past the end of service says so', async () => {
    await page.getByTestId('open-join').click();
    await page.fill('input[name=name]', 'Late Couple');
    await page.fill('input[name=partySize]', '2');
    await page.fill('input[name=email]', 'late-couple@example.test');
    await page.getByTestId('join-submit').click();
    const card = page.getByTestId('token-card');
    await card.waitFor({ timeout: STEP });
    // B1 frees at 22:30 (50 minutes), after service ends at 22:00.
    expect(await card.locator('.quote').textContent()).toBe(
      'Number 1 in line, quoted ~50 min (approx). Service ends at 10:00 PM, before this wait is over: we may not be able to seat them.',
    );
    await page.getByTestId('token-done').click();
  }, 60_000);

  it('a number already in the queue names the party it belongs to, where the board lists it', async () => {
    // Ana joined earlier under her own name; her partner gives the same number at the desk.
    const ana = await joined(t, owner, v.id, { name: 'Ana Lima', partySize: 2, phone: '+13125550177' });
    await page.locator('[data-testid=entry]', { hasText: 'Ana Lima' }).waitFor({ timeout: STEP });
    const listed = (await request(t.baseUrl).get(`/v1/venues/${v.id}/queue`).set(owner.auth).expect(200)).body as {
      entries: Array<{ id: string; kindPosition: number }>;
    };
    const told = listed.entries.find((e) => e.id === ana.entry.id)?.kindPosition;
    expect(told).toBe(ana.position);
    await page.getByTestId('open-join').click();
    await page.fill('input[name=name]', 'Ben Lima');
    await page.fill('input[name=phone]', '(312) 555-0177');
    await page.getByTestId('join-submit').click();
    const error = page.getByTestId('join-error');
    await error.waitFor({ timeout: STEP });
    expect(await error.textContent()).toBe(
      `This contact is already in the queue for today. They are in the queue as Ana Lima, party of 2, number ${told} in line.`,
    );
  }, 60_000);

  it('a national number typed before the page has read the venue’s country joins: the server reads it with the country', async () => {
    const context = await newTablet(browser);
    contexts.push(context);
    const early = await context.newPage();
    // The board comes from its own read, the venue (its country) from reads of its own: the last of
    // those answers only once the join is sent, as on a loaded server that answered the board first.
    let venueRead: () => void = () => undefined;
    const venueAnswers = new Promise<void>((r) => (venueRead = r));
    await early.route(new RegExp(`/v1/venues/${v.id}/service-windows$`), async (route) => {
      await venueAnswers;
      await route.continue();
    });
    await openVenueBoard(early, t.baseUrl, owner, v.id);
    await boardLive(early, STEP);
    await early.getByTestId('open-join').click();
    await early.fill('input[name=name]', 'Early Desk');
    await early.fill('input[name=phone]', '(312) 555-0190');
    const sent = early.waitForRequest((r) => r.url().endsWith(`/v1/venues/${v.id}/queue`) && r.method() === 'POST', {
      timeout: STEP,
    });
    await early.getByTestId('join-submit').click();
    await sent;
    venueRead();
    await early.getByTestId('token-card').waitFor({ timeout: STEP });
    const listed = (await request(t.baseUrl).get(`/v1/venues/${v.id}/queue`).set(owner.auth).expect(200)).body as {
      entries: Array<{ id: string; name: string }>;
    };
    const entry = listed.entries.find((e) => e.name === 'Early Desk');
    const detail = (
      await request(t.baseUrl)
        .get(`/v1/venues/${v.id}/queue/${entry?.id ?? ''}`)
        .set(owner.auth)
        .expect(200)
    ).body as { contact: { phone: string | null } };
    expect(detail.contact.phone).toBe('+13125550190');
  }, 60_000);

  /**
   * An address typed without its ending ("yusuf@mailbox") was refused at the desk in the API's raw
   * words, "email must be an email address, such as name@example.com", where the party's More sheet
   * says the same thing as a sentence ("Email must be …"). On a 390×844 phone.
   */
  it('a refused join at the desk reads as a sentence, as the party sheet says it', async () => {
    const context = await newPhone(browser);
    contexts.push(context);
    const phone = await context.newPage();
    await openVenueBoard(phone, t.baseUrl, owner, v.id);
    await boardLive(phone, STEP);
    await phone.getByTestId('open-join').click();
    await phone.fill('input[name=name]', 'Yusuf Demir');
    await phone.fill('input[name=email]', 'yusuf@mailbox');
    await phone.getByTestId('join-submit').click();
    const error = phone.getByTestId('join-error');
    await error.waitFor({ timeout: STEP });
    expect(await error.textContent()).toBe('Email must be an email address, such as name@example.com');
    expect(await phone.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await screenshot(phone, 'board-join-email-refused-phone');
  }, 60_000);
});
