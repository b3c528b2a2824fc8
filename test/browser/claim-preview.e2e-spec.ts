import { randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { StaffAccountService } from '@hostboard/auth';
import { startApp, type TestApp } from '../support/test-app.js';
import { createVenue, signUp, type Staff } from '../support/staff.js';
import { describeWithChromium, launchChromium, newPhone, screenshot } from './chromium.js';

const d = describeWithChromium('the invitation claim page is tested in a real browser');

/**
 * The claim page says what the link joins before a password is typed ("Join Corner Bistro as host"),
 * asks for a current password only when the claim will, and says a dead link is dead before anyone
 * chooses a password for nothing. On a phone, 390×844.
 */
d('invitation claim page on a phone', () => {
  let t: TestApp;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let owner: Staff;
  let venue: { id: string };
  const venueName = `Corner Bistro ${randomBytes(2).toString('hex')}`;

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

  async function invite(email: string, role: string, name?: string): Promise<{ id: string; token: string }> {
    const res = await request(t.baseUrl)
      .post(`/v1/venues/${venue.id}/members`)
      .set(owner.auth)
      .send({ email, role, ...(name ? { name } : {}) })
      .expect(201);
    const inv = (res.body as { invitation: { id: string; token: string } }).invitation;
    return { id: inv.id, token: inv.token };
  }

  const fits = async (p: Page): Promise<void> => {
    expect(await p.evaluate('document.documentElement.scrollWidth - innerWidth')).toBe(0);
  };

  it('names the venue and the role, asks for no current password a new account has not got, and joins', async () => {
    const email = `new-host-${randomBytes(4).toString('hex')}@example.test`;
    const { token } = await invite(email, 'host', 'Marisol Quint');
    const p = await phone();
    await p.goto(`${t.baseUrl}/board/#claim=${token}`);
    const title = p.getByTestId('claim-title');
    await title.waitFor();
    expect(await title.textContent()).toBe(`Join ${venueName} as host`);
    expect(await p.getByTestId('claim-name').textContent()).toBe('Invitation for Marisol Quint');
    const claim = p.getByTestId('claim');
    expect(await claim.locator('input[autocomplete=current-password]').count()).toBe(0);
    await fits(p);
    await screenshot(p, 'claim-preview-390');
    await claim.locator('input[autocomplete=new-password]').fill('river stone 417');
    await claim.locator('button[type=submit]').click();
    await p.locator(`[data-venue-id="${venue.id}"]`).waitFor();
    // A signed-in host of the venue now.
    await request(t.baseUrl).post('/v1/auth/sessions').send({ email, password: 'river stone 417' }).expect(201);
  });

  it('asks for the current password when the person already has one, and says so', async () => {
    const email = `has-account-${randomBytes(4).toString('hex')}@example.test`;
    const password = `pw-${randomBytes(8).toString('hex')}`;
    await t.app.get(StaffAccountService).ensureAccount({ email, password, name: 'Holder' }, 'owner-created');
    const { token } = await invite(email, 'manager', 'Dee Okafor');
    const p = await phone();
    await p.goto(`${t.baseUrl}/board/#claim=${token}`);
    await p
      .getByTestId('claim-title')
      .filter({ hasText: `Join ${venueName} as manager` })
      .waitFor();
    const claim = p.getByTestId('claim');
    await claim.locator('input[autocomplete=new-password]').fill('harbour light 2290');
    await claim.locator('input[autocomplete=current-password]').fill(password);
    await fits(p);
    await claim.locator('button[type=submit]').click();
    await p.locator(`[data-venue-id="${venue.id}"]`).waitFor();
  });

  it('a link read before its holder chose a password elsewhere: the claim asks for it, and the page shows the field', async () => {
    const email = `two-venues-${randomBytes(4).toString('hex')}@example.test`;
    const { token } = await invite(email, 'host', 'Sam Ferreira');
    const p = await phone();
    await p.goto(`${t.baseUrl}/board/#claim=${token}`);
    await p.getByTestId('claim-title').waitFor();
    const claim = p.getByTestId('claim');
    expect(await claim.locator('input[autocomplete=current-password]').count()).toBe(0);
    // Meanwhile another venue's link to the same address is claimed with a password of their own.
    const other = await signUp(t, 'other-owner');
    const otherVenue = await createVenue(t, other);
    const otherLink = (
      (
        await request(t.baseUrl)
          .post(`/v1/venues/${otherVenue.id}/members`)
          .set(other.auth)
          .send({ email, role: 'host' })
          .expect(201)
      ).body as { invitation: { token: string } }
    ).invitation.token;
    await request(t.baseUrl)
      .post('/v1/auth/invitations/claim')
      .send({ token: otherLink, password: 'my own 5521 pass' })
      .expect(201);

    await claim.locator('input[autocomplete=new-password]').fill('my own 5521 pass');
    await claim.locator('button[type=submit]').click();
    const current = claim.locator('input[autocomplete=current-password]');
    await current.waitFor();
    expect(await claim.getByRole('alert').textContent()).toBe(
      'You already have an account with a password. Enter your current password as well, then accept.',
    );
    await current.fill('my own 5521 pass');
    await claim.locator('button[type=submit]').click();
    await p.locator(`[data-venue-id="${venue.id}"]`).waitFor();
  });

  it('a dead link says so before any password is typed', async () => {
    const email = `cancelled-${randomBytes(4).toString('hex')}@example.test`;
    const { id, token } = await invite(email, 'host', 'Ines Park');
    await request(t.baseUrl).delete(`/v1/venues/${venue.id}/invitations/${id}`).set(owner.auth).expect(200);
    const p = await phone();
    await p.goto(`${t.baseUrl}/board/#claim=${token}`);
    const dead = p.getByTestId('claim-dead');
    await dead.waitFor();
    expect(await dead.locator('h1').textContent()).toBe('This invitation link does not work');
    expect(await dead.textContent()).toContain('This invitation link is not valid. Ask the venue for a new one.');
    // No form to fill, and nothing about the venue or the person.
    expect(await p.locator('input[type=password]').count()).toBe(0);
    expect(await dead.textContent()).not.toContain(venueName);
    expect(await dead.textContent()).not.toContain('Ines Park');
    await fits(p);
    await screenshot(p, 'claim-dead-390');
    // Its one button leads to the sign-in form, the dead link gone from the address bar.
    await dead.getByRole('button', { name: 'Go to sign in' }).click();
    await p.locator('input[name=email]').waitFor();
    expect(new URL(p.url()).hash).toBe('');
  });
});
