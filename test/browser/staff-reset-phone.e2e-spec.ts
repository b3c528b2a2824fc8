import { randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { startApp, type TestApp } from '../support/test-app.js';
import { addMember, chooseOwnPassword, createVenue, signIn, signUp, type Staff } from '../support/staff.js';
import { signInToVenueList } from './board-page.js';
import { describeWithChromium, launchChromium, newPhone, screenshot } from './chromium.js';

const d = describeWithChromium('the Staff tab is tested in a real browser');

/**
 * The Staff tab's Reset password form on a 390×844 phone: a member with a long address, used by
 * keyboard alone, the form sent twice in a row (one request), and a host offered none of it.
 */
d('Reset password on a phone', () => {
  let t: TestApp;
  let browser: Browser;
  let owner: Staff;
  let venueId: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    t = await startApp();
    browser = await launchChromium();
    owner = await signUp(t, 'owner');
    venueId = (await createVenue(t, owner)).id;
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
  const overflow = (p: Page): Promise<number> =>
    p.evaluate('document.documentElement.scrollWidth - innerWidth') as Promise<number>;

  it('a long address, keyboard only, Enter pressed twice: one request, the page as wide as the phone', async () => {
    const manager = await chooseOwnPassword(t, await addMember(t, venueId, owner, 'manager'));
    const email = `rosalind.quartermaine-${randomBytes(3).toString('hex')}@northern-harbourside-hospitality-group.example.test`;
    const first = `pw-${randomBytes(8).toString('hex')}`;
    await request(t.baseUrl)
      .post(`/v1/venues/${venueId}/members`)
      .set(manager.auth)
      .send({ email, password: first, role: 'host', name: 'Rosalind' })
      .expect(201);
    const host = await signIn(t, email, first);

    const p = await phone();
    const posts: string[] = [];
    p.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith(`/members/${host.userId}/password`)) posts.push(r.url());
    });
    await signInToVenueList(p, t.baseUrl, manager, venueId);
    await p.goto(`${t.baseUrl}/board/venues/${venueId}/staff`);
    const row = p.locator(`[data-testid=member][data-email="${email}"]`);
    await row.waitFor();
    expect(await overflow(p)).toBe(0);

    // Keyboard only: the row's button by focus and Enter; the field takes the cursor.
    await row.getByRole('button', { name: 'Reset password' }).focus();
    await p.keyboard.press('Enter');
    const form = p.locator(`[data-testid=reset-password-row][data-email="${email}"]`).getByTestId('reset-password-form');
    await form.waitFor({ timeout: 3_000 });
    expect(await p.evaluate('document.activeElement && document.activeElement.getAttribute("autocomplete")')).toBe(
      'new-password',
    );
    expect(await overflow(p)).toBe(0);
    await screenshot(p, 'staff-reset-password-phone');

    await p.keyboard.type('harbour-4172');
    await p.keyboard.press('Enter');
    await p.keyboard.press('Enter');
    await form.waitFor({ state: 'detached' });
    await new Promise((r) => setTimeout(r, 500));
    expect(posts).toHaveLength(1);
    await request(t.baseUrl).post('/v1/auth/sessions').send({ email, password: 'harbour-4172' }).expect(201);
  });

  it('a host sees no Reset password on any row', async () => {
    const host = await chooseOwnPassword(t, await addMember(t, venueId, owner, 'host'));
    await addMember(t, venueId, owner, 'host');
    const p = await phone();
    await signInToVenueList(p, t.baseUrl, host, venueId);
    await p.goto(`${t.baseUrl}/board/venues/${venueId}/staff`);
    await p.waitForTimeout(1500);
    expect(await p.getByRole('button', { name: 'Reset password' }).count()).toBe(0);
    expect(await overflow(p)).toBe(0);
  });
});
