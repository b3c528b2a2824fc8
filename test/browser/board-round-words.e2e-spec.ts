import { randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { joined, messages, sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { addMember, signUp, type Staff } from '../support/staff.js';
import { boardLive, openVenueBoard } from './board-page.js';
import { describeWithChromium, launchChromium, newTablet, screenshot } from './chromium.js';

const STEP = 10_000;
const T0 = '2026-10-09T23:00:00.000Z'; // 6 PM in Chicago

const d = describeWithChromium('the board page is tested in a real browser');

/**
 * What testers read differently on two screens: the wait on the token card, the queue row and the
 * text; a message no provider will ever send; the role a re-invited manager starts on.
 */
d('the board: one wait everywhere, unsent messages said plainly, re-invites keep the role', () => {
  let t: TestApp;
  let owner: Staff;
  let browser: Browser;
  let v: Sandbox;
  let page: Page;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'round-owner');
    browser = await launchChromium();
    v = await sandboxVenue(t, owner, {
      clock: T0,
      windows: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '17:00', end: '23:59', turnMinutes: 50 }],
      tables: [{ label: 'T1', capacity: 4 }],
    });
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

  it('a 100-minute quote reads "100 min" on the token card, the queue row and the text', async () => {
    await joined(t, owner, v.id, { name: 'First Pair', partySize: 2, phone: '+13125550181' });
    await page.getByTestId('open-join').click();
    await page.fill('input[name=name]', 'Second Pair');
    await page.fill('input[name=partySize]', '2');
    await page.fill('input[name=phone]', '(312) 555-0182');
    await page.getByTestId('join-submit').click();
    const card = page.getByTestId('token-card');
    await card.waitFor({ timeout: STEP });
    expect(await card.locator('.quote').textContent()).toBe('Number 2 in line, quoted ~100 min (approx).');
    await screenshot(page, 'token-card-100-min');
    await page.getByTestId('token-done').click();
    const row = page.locator('[data-testid=entry]', { hasText: 'Second Pair' });
    await row.waitFor({ timeout: STEP });
    expect(await row.textContent()).toContain('told ~100 min');
    const text = (await messages(t, owner, v.id)).find((m) => m.partyName === 'Second Pair' && m.channel === 'sms');
    expect(text?.body).toContain('Quoted wait about 100 min (approx)');
  }, 60_000);

  it('with no text provider set up, the Messages tab says a text will not be sent, not "not sent yet"', async () => {
    await page.goto(`${t.baseUrl}/board/venues/${v.id}/messages`);
    const item = page.locator('[data-testid=message][data-channel=sms]').first();
    await item.waitFor({ timeout: STEP });
    expect(await item.getByTestId('message-status').textContent()).toBe('will not be sent');
    expect(await page.getByTestId('messages-no-provider').textContent()).toBe(
      'No text message provider is set up, so texts are only recorded here: they will not be sent.',
    );
    const api = (await request(t.baseUrl).get(`/v1/venues/${v.id}/messages`).set(owner.auth).expect(200)).body as Array<{
      status: string;
      noProvider?: boolean;
    }>;
    expect(api.every((m) => m.status === 'recorded' && m.noProvider === true)).toBe(true);
  }, 60_000);

  it('re-adding a manager with an open invitation, or a member who is a manager, starts the form on "manager"', async () => {
    const invited = `mgr-${randomBytes(4).toString('hex')}@example.test`;
    await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/members`)
      .set(owner.auth)
      .send({ email: invited, name: 'Mara Manager', role: 'manager' })
      .expect(201);
    const member = await addMember(t, v.id, owner, 'manager');
    await page.goto(`${t.baseUrl}/board/venues/${v.id}/staff`);
    const form = page.getByTestId('add-member');
    const role = form.getByTestId('add-member-role');
    await page.locator(`[data-testid=invitation][data-email="${invited}"]`).waitFor({ timeout: STEP });
    expect(await role.inputValue()).toBe('host');

    // Typed again by hand: the open invitation's role.
    await form.locator('input[type=email]').fill(invited.toUpperCase());
    expect(await role.inputValue()).toBe('manager');
    // A manager already on the staff: their role.
    await form.locator('input[type=email]').fill(member.email);
    expect(await role.inputValue()).toBe('manager');
    // Someone new: the form's own default.
    await form.locator('input[type=email]').fill(`new-${randomBytes(4).toString('hex')}@example.test`);
    expect(await role.inputValue()).toBe('host');

    // "Invite again" on the pending invitation fills the form with the person and the role.
    await page.locator(`[data-testid=invitation][data-email="${invited}"]`).getByTestId('invite-again').click();
    // The form fills on the page's next render, not within the click: read it once it has (up to 5 s).
    const email = form.locator('input[type=email]');
    for (let i = 0; i < 50 && (await email.inputValue()) !== invited; i++) await page.waitForTimeout(100);
    expect(await email.inputValue()).toBe(invited);
    expect(await role.inputValue()).toBe('manager');
    await form.locator('button[type=submit]').click();
    await page.getByTestId('members-note').waitFor({ timeout: STEP });
    const open = (await request(t.baseUrl).get(`/v1/venues/${v.id}/invitations`).set(owner.auth).expect(200)).body as Array<{
      email: string;
      role: string;
    }>;
    expect(open.filter((i) => i.email === invited)).toEqual([expect.objectContaining({ role: 'manager' })]);
  }, 60_000);
});
