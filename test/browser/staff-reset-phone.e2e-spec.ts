import { randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { startApp, type TestApp } from '../support/test-app.js';
import { addMember, chooseOwnPassword, createVenue, signIn, signUp, type Staff } from '../support/staff.js';
import { signInToVenueList } from './board-page.js';
import { describeWithChromium, launchChromium, newPhone, screenshot } from './chromium.js';
import { uncovered } from './uncovered.js';

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

  it.each([
    ['phone 390×844', 390, 844],
    ['tablet 1280×800', 1280, 800],
  ])('%s: the refusal of a short password is read above three stacked notices, not under them', async (_, width, height) => {
    const manager = await chooseOwnPassword(t, await addMember(t, venueId, owner, 'manager'));
    const gone = [await addMember(t, venueId, owner, 'host'), await addMember(t, venueId, owner, 'host')];
    const moved = await addMember(t, venueId, owner, 'host');
    const target = await addMember(t, venueId, owner, 'host');
    const p = await phone();
    await p.setViewportSize({ width, height });
    await signInToVenueList(p, t.baseUrl, manager, venueId);
    await p.goto(`${t.baseUrl}/board/venues/${venueId}/staff`);
    const rowOf = (s: Staff) => p.locator(`[data-testid=member][data-email="${s.email}"]`);
    await rowOf(target).waitFor();
    // Two hosts removed on another screen meanwhile: Remove here is refused twice (the refusals stay
    // until dismissed), then a third act is confirmed: three notices stacked over the page's foot.
    for (const g of gone) {
      await request(t.baseUrl).delete(`/v1/venues/${venueId}/members/${g.userId}`).set(owner.auth).expect(204);
      await rowOf(g).getByTestId('remove-member').click();
      await rowOf(g).getByTestId('remove-member').click();
      await rowOf(g).waitFor({ state: 'detached' });
    }
    await rowOf(moved).getByTestId('remove-member').click();
    await rowOf(moved).getByTestId('remove-member').click();
    await p.locator('[data-testid=notice]').nth(2).waitFor();
    expect(await p.locator('[data-testid=notice]').count()).toBe(3);

    // The manager opens the target's form, then scrolls it to the lower half of the phone, its
    // field just above the notices, and sends it from the keyboard.
    await rowOf(target).getByTestId('reset-password').click();
    const form = p.locator(`[data-testid=reset-password-row][data-email="${target.email}"]`).getByTestId('reset-password-form');
    const input = form.locator('input[autocomplete=new-password]');
    await input.fill('brief6!');
    // A string, as the page runs it (these files are not typed against the DOM).
    await p.evaluate(
      `(() => { const i = document.querySelector('[data-testid=reset-password-form] input'); window.scrollBy(0, i.getBoundingClientRect().bottom - (document.querySelector('.toasts').getBoundingClientRect().top - 12)); })()`,
    );
    await input.press('Enter');
    const refusal = form.getByTestId('reset-password-error');
    await refusal.waitFor();
    await p.waitForTimeout(400);
    await screenshot(p, 'staff-reset-refused-under-notices');
    // The refusal and the form's buttons are on the screen and nothing lies over them.
    for (const part of ['[data-testid=reset-password-error]', '.reset-acts .btn-primary', '.reset-acts .btn-secondary'])
      expect({ part, uncovered: await uncovered(p, `[data-testid=reset-password-form] ${part}`) }).toEqual({
        part,
        uncovered: true,
      });
    expect((await refusal.innerText()).trim()).toContain('8 characters');
    expect(await overflow(p)).toBe(0);
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
