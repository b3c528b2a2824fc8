import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startApp, type TestApp } from '../support/test-app.js';
import { addMember, chooseOwnPassword, createVenue, signIn, signUp, type Staff } from '../support/staff.js';
import { signInToVenueList } from './board-page.js';
import { describeWithChromium, launchChromium, newPhone, screenshot } from './chromium.js';

const d = describeWithChromium('the Staff tab is tested in a real browser');

/**
 * A workshop's manager on a 390×844 phone reads what the Staff tab did in plain words: a role change
 * named the member by their address and read "… is now manager."; a password change said "1 other
 * session(s) signed out." Now "Nia Brandt is now a manager." and "1 other session was signed out."
 */
d('the Staff tab says what it did in plain words', () => {
  let t: TestApp;
  let browser: Browser;
  let owner: Staff;
  let venueId: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    t = await startApp();
    browser = await launchChromium();
    owner = await signUp(t, 'owner');
    venueId = (await createVenue(t, owner, { preset: 'workshop', poolCapacity: 17, name: 'Birch Hall Letterpress' })).id;
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
  const notice = (p: Page, text: string) => p.locator('[data-testid=notice]', { hasText: text });

  it('phone 390×844: a role change names the member, a removal too', async () => {
    const host = await addMember(t, venueId, owner, 'host');
    // addMember names each member by their role: the name the tab shows is this one.
    const p = await phone();
    await signInToVenueList(p, t.baseUrl, owner, venueId);
    await p.goto(`${t.baseUrl}/board/venues/${venueId}/staff`);
    const row = p.locator(`[data-testid=member][data-email="${host.email}"]`);
    await row.locator('select').selectOption('manager');
    await notice(p, 'is now').waitFor();
    expect((await notice(p, 'is now').locator('span').first().textContent())?.trim()).toBe('host is now a manager.');
    await screenshot(p, 'staff-words-role');
    await row.getByTestId('remove-member').click();
    await row.getByTestId('remove-member').click();
    await notice(p, 'was removed').waitFor();
    expect((await notice(p, 'was removed').locator('span').first().textContent())?.trim()).toBe(
      'host was removed from the staff.',
    );
  }, 60_000);

  it('phone 390×844: a password change counts the other sessions in words', async () => {
    const manager = await chooseOwnPassword(t, await addMember(t, venueId, owner, 'manager'));
    // Signed in on a second device too: the change signs that one out.
    await signIn(t, manager.email, manager.password);
    const p = await phone();
    await signInToVenueList(p, t.baseUrl, manager, venueId);
    await p.goto(`${t.baseUrl}/board/venues/${venueId}/staff`);
    const panel = p.getByTestId('account-panel');
    const inputs = panel.locator('input[type=password]');
    await inputs.nth(0).fill(manager.password);
    await inputs.nth(1).fill('letterpress-type-17');
    await inputs.nth(2).fill('letterpress-type-17');
    await panel.locator('button[type=submit]').click();
    const said = panel.locator('[role=status]');
    await said.waitFor();
    // Two others: the one signed in above and the session chooseOwnPassword kept.
    expect((await said.textContent())?.trim()).toBe('Password changed. 2 other sessions were signed out.');
    await screenshot(p, 'staff-words-password');
  }, 60_000);
  it('phone 390×844: the only owner is offered no role change on their own row, a second owner is', async () => {
    const own = (await createVenue(t, owner, { preset: 'workshop', poolCapacity: 9, name: 'Alder Bindery' })).id;
    const p = await phone();
    await signInToVenueList(p, t.baseUrl, owner, own);
    await p.goto(`${t.baseUrl}/board/venues/${own}/staff`);
    const mine = p.locator(`[data-testid=member][data-email="${owner.email}"]`);
    await mine.waitFor();
    // Every choice there was refused "A venue keeps at least one owner."
    expect(await mine.locator('select').count()).toBe(0);
    expect((await mine.getByTestId('member-role').textContent())?.trim()).toBe('owner (the only one)');
    const other = await addMember(t, own, owner, 'owner');
    await p.reload();
    await mine.locator('select').waitFor();
    expect(await p.locator(`[data-testid=member][data-email="${other.email}"] select`).inputValue()).toBe('owner');
  }, 60_000);

  it.each([
    ['phone 390×844', 390, 844],
    ['tablet 1280×800', 1280, 800],
  ])(
    '%s: Your account keeps a gap under its heading and above Sign out everywhere',
    async (_, width, height) => {
      const host = await chooseOwnPassword(t, await addMember(t, venueId, owner, 'host'));
      const p = await phone();
      await p.setViewportSize({ width, height });
      await signInToVenueList(p, t.baseUrl, host, venueId);
      await p.goto(`${t.baseUrl}/board/venues/${venueId}/staff`);
      const panel = p.getByTestId('account-panel');
      await panel.waitFor();
      await panel.scrollIntoViewIfNeeded();
      await screenshot(p, `staff-account-${width}`);
      // The heading sat on the first label ("Your account" then "Current password" with no space between).
      const gaps = (await p.evaluate(
        `(() => { const a = document.querySelector('[data-testid=account-panel]'); const b = (s) => a.querySelector(s).getBoundingClientRect(); return { heading: Math.round(b('form label').top - b('h2').bottom), signOut: Math.round(b('[data-testid=sign-out-everywhere]').top - b('form').bottom) }; })()`,
      )) as { heading: number; signOut: number };
      expect(gaps.heading).toBeGreaterThanOrEqual(8);
      expect(gaps.signOut).toBeGreaterThanOrEqual(8);
    },
    60_000,
  );
});
