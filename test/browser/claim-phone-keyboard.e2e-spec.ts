import { randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { startApp, type TestApp } from '../support/test-app.js';
import { createVenue, signUp, type Staff } from '../support/staff.js';
import { describeWithChromium, launchChromium, newPhone } from './chromium.js';

const d = describeWithChromium('the invitation claim page is tested in a real browser');

/**
 * The claim page on a 390×844 phone, used by keyboard alone: a long right-to-left venue name and a
 * long given name stay inside the screen, and Enter pressed twice claims once (a second claim
 * would find the link spent and say it no longer works over a claim that went through).
 */
d('invitation claim page: keyboard, double Enter, long names', () => {
  let t: TestApp;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let owner: Staff;
  let venue: { id: string };
  const venueName = `مطعم الميناء الكبير Northern Harbourside Oyster & Chop House ${randomBytes(2).toString('hex')}`;

  beforeAll(async () => {
    t = await startApp();
    browser = await launchChromium();
    owner = await signUp(t, 'owner');
    venue = await createVenue(t, owner, { name: venueName });
  });
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser.close();
    await t.close();
  });

  async function phone(): Promise<Page> {
    const context = await newPhone(browser);
    contexts.push(context);
    return context.newPage();
  }

  it('Tab to the field, type, Enter twice: one claim, signed in, nothing wider than the phone', async () => {
    const email = `kbd-${randomBytes(4).toString('hex')}@example.test`;
    const res = await request(t.baseUrl)
      .post(`/v1/venues/${venue.id}/members`)
      .set(owner.auth)
      .send({ email, role: 'host', name: 'Bartholomew Aurelio Montgomery-Fitzwilliam' })
      .expect(201);
    const token = (res.body as { invitation: { token: string } }).invitation.token;
    const p = await phone();
    const claims: string[] = [];
    const errors: string[] = [];
    p.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/v1/auth/invitations/claim')) claims.push(r.url());
    });
    p.on('pageerror', (e) => errors.push(e.message));
    await p.goto(`${t.baseUrl}/board/#claim=${token}`);
    await p.getByTestId('claim-title').waitFor();
    expect(await p.evaluate('document.documentElement.scrollWidth - innerWidth')).toBe(0);

    for (let i = 0; i < 6; i++) {
      if ((await p.evaluate('document.activeElement && document.activeElement.getAttribute("autocomplete")')) === 'new-password')
        break;
      await p.keyboard.press('Tab');
    }
    expect(await p.evaluate('document.activeElement && document.activeElement.getAttribute("autocomplete")')).toBe(
      'new-password',
    );
    await p.keyboard.type('tidewater 5093');
    await p.keyboard.press('Enter');
    await p.keyboard.press('Enter');
    await p.locator(`[data-venue-id="${venue.id}"]`).waitFor();
    await new Promise((r) => setTimeout(r, 500));
    expect(claims).toHaveLength(1);
    expect(errors).toEqual([]);
    expect(await p.locator('[role=alert]').count()).toBe(0);
    await request(t.baseUrl).post('/v1/auth/sessions').send({ email, password: 'tidewater 5093' }).expect(201);
  });
});
