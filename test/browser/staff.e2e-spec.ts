import { randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startApp, type TestApp } from '../support/test-app.js';
import { addMember, createVenue, signUp, type Staff } from '../support/staff.js';
import { describeWithChromium, launchChromium, newTablet, screenshot } from './chromium.js';

const d = describeWithChromium('the staff tab is tested in a real browser');

/** Issue 13, item 7: the Staff tab, invitation claims and the forced password change, in Chromium. */
d('staff tab in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let owner: Staff;
  let venueId: string;

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

  async function page(): Promise<Page> {
    const context = await newTablet(browser);
    contexts.push(context);
    return context.newPage();
  }

  async function signInOn(p: Page, email: string, password: string): Promise<void> {
    await p.goto(`${t.baseUrl}/board`);
    await p.fill('input[name=email]', email);
    await p.fill('input[name=password]', password);
    await p.click('button[type=submit]');
  }

  it('a manager invites someone from the Staff tab; the link, opened elsewhere, signs them in; then they are removed', async () => {
    const p = await page();
    await signInOn(p, owner.email, owner.password);
    await p.locator(`[data-venue-id="${venueId}"]`).waitFor();
    await p.goto(`${t.baseUrl}/board/venues/${venueId}/staff`);
    await p.locator(`[data-testid=member][data-email="${owner.email}"]`).waitFor();
    // The owner's own row offers no reset (the server refuses it: one's own password is changed under Account).
    expect(
      await p
        .locator(`[data-testid=member][data-email="${owner.email}"]`)
        .getByRole('button', { name: 'Reset password' })
        .count(),
    ).toBe(0);

    const email = `invited-${randomBytes(4).toString('hex')}@example.test`;
    const form = p.getByTestId('add-member');
    await form.locator('input[type=email]').fill(email);
    await form.locator('button[type=submit]').click();
    await p.getByTestId('members-note').waitFor();
    expect(await p.getByTestId('members-note').textContent()).toContain('nothing is granted until they accept');
    const link = (await p.getByTestId('invitation-link').textContent()) ?? '';
    expect(link).toMatch(/\/board\/#claim=[A-Za-z0-9_-]{43}$/);
    await screenshot(p, 'staff-invited');

    const q = await page();
    await q.goto(link);
    const claim = q.getByTestId('claim');
    await claim.locator('input[autocomplete=new-password]').fill('a long new password');
    await claim.locator('button[type=submit]').click();
    await q.locator(`[data-venue-id="${venueId}"]`).waitFor();
    // The secret left the address bar.
    expect(new URL(q.url()).hash).toBe('');

    await p.reload();
    const row = p.locator(`[data-testid=member][data-email="${email}"]`);
    await row.waitFor();
    p.once('dialog', (dialog) => void dialog.accept());
    await row.getByRole('button', { name: 'Remove' }).click();
    await row.waitFor({ state: 'detached' });
  });

  it("a manager is offered only what a manager may do: the hosts' rows, not the owner's", async () => {
    const manager = await addMember(t, venueId, owner, 'manager');
    const host = await addMember(t, venueId, manager, 'host');
    const p = await page();
    await signInOn(p, manager.email, manager.password);
    await p.locator(`[data-venue-id="${venueId}"]`).waitFor();
    await p.goto(`${t.baseUrl}/board/venues/${venueId}/staff`);
    const row = (email: string) => p.locator(`[data-testid=member][data-email="${email}"]`);
    await row(owner.email).waitFor();
    for (const email of [owner.email, manager.email]) {
      expect(await row(email).locator('select').count()).toBe(0);
      expect(await row(email).getByRole('button').count()).toBe(0);
      expect(await row(email).getByTestId('member-role').textContent()).toBe(email === owner.email ? 'owner' : 'manager');
    }
    expect(await row(host.email).getByRole('button', { name: 'Reset password' }).count()).toBe(1);
    expect(await row(host.email).getByRole('button', { name: 'Remove' }).count()).toBe(1);
    // A manager adds hosts only.
    expect(await p.getByTestId('add-member').locator('select option').allTextContents()).toEqual(['host']);
    await screenshot(p, 'staff-as-manager');
  });

  it('a password someone else chose: the page asks for a new one (the floor stays usable meanwhile)', async () => {
    const email = `provisioned-${randomBytes(4).toString('hex')}@example.test`;
    const p = await page();
    await signInOn(p, owner.email, owner.password);
    await p.locator(`[data-venue-id="${venueId}"]`).waitFor();
    await p.goto(`${t.baseUrl}/board/venues/${venueId}/staff`);
    const form = p.getByTestId('add-member');
    await form.locator('input[type=email]').fill(email);
    await form.locator('input[type=password]').fill('handed-over-1');
    await form.locator('button[type=submit]').click();
    const row = p.locator(`[data-testid=member][data-email="${email}"]`);
    await row.waitFor();
    // Still the venue's to reset: its holder has not chosen their own password.
    expect(await row.getByRole('button', { name: 'Reset password' }).count()).toBe(1);

    const q = await page();
    await signInOn(q, email, 'handed-over-1');
    await q.getByTestId('must-change').waitFor();
    // The venue list is there too: a host handed a password mid-service can work first.
    await q.locator(`[data-venue-id="${venueId}"]`).waitFor();
    await q.getByTestId('must-change').getByRole('button', { name: 'Change password' }).click();
    const change = q.getByTestId('change-password');
    await change.waitFor();
    const inputs = change.locator('input');
    await inputs.nth(0).fill('handed-over-1');
    await inputs.nth(1).fill('my own password');
    await inputs.nth(2).fill('my own password');
    await change.locator('button[type=submit]').click();
    await q.getByTestId('must-change').waitFor({ state: 'detached' });
    // A reload does not ask again.
    await q.reload();
    await q.locator(`[data-venue-id="${venueId}"]`).waitFor();
    expect(await q.getByTestId('must-change').count()).toBe(0);
    // Their password is their own now: the Staff tab no longer offers to reset it (the server would refuse).
    await p.reload();
    await row.waitFor();
    expect(await row.getByRole('button', { name: 'Remove' }).count()).toBe(1);
    expect(await row.getByRole('button', { name: 'Reset password' }).count()).toBe(0);
    // Signing in again with the handed-over password no longer works.
    const r = await page();
    await signInOn(r, email, 'handed-over-1');
    await r.getByTestId('login-error').waitFor();
  });
});
