import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { addMember, signUp, type Staff } from '../support/staff.js';
import { signInToVenueList } from './board-page.js';
import { describeWithChromium, launchChromium, newPhone, screenshot } from './chromium.js';

const d = describeWithChromium('Set up is tested in a real browser');

/**
 * A manager in Lisbon moves dinner from 18:00–23:00 to 19:00–23:30 on Set up, on a phone. Adding the
 * new hours first is refused, in the server's words: "This window overlaps the window 18:00–23:00 on
 * Monday, …" ("window" is nowhere on the screen, which says "Service hours"), and not what to do.
 */
d('Set up: changing service hours, on a phone', () => {
  let t: TestApp;
  let browser: Browser;
  let owner: Staff;
  let manager: Staff;
  let v: Sandbox;
  let context: BrowserContext;

  beforeAll(async () => {
    t = await startApp();
    browser = await launchChromium();
    owner = await signUp(t, 'hours-owner');
    v = await sandboxVenue(t, owner, {
      name: 'Tasca do Largo',
      timeZone: 'Europe/Lisbon',
      clock: '2026-11-20T12:00:00Z',
      windows: [{ days: [2, 3, 4, 5, 6], start: '18:00', end: '23:00', turnMinutes: 90 }],
      tables: [{ label: 'C4', capacity: 4 }],
    });
    manager = await addMember(t, v.id, owner, 'manager');
    context = await newPhone(browser);
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await t?.close();
  });

  it("the refusal names the hours in the list's words and says how to change them; remove, add, done", async () => {
    const p: Page = await context.newPage();
    await signInToVenueList(p, t.baseUrl, manager, v.id);
    await p.goto(`${t.baseUrl}/board/venues/${v.id}/setup`);
    const card = p.getByTestId('windows-setup');
    await card.scrollIntoViewIfNeeded();
    // The new hours, on the same evenings (Monday and Sunday off).
    for (const day of ['Mon', 'Sun']) await card.getByRole('button', { name: day, exact: true }).click();
    await card.locator('input[name=start]').fill('19:00');
    await card.locator('input[name=end]').fill('23:30');
    await p.getByTestId('add-window').click();
    const refusal = card.getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.innerText()).toBe(
      'These hours overlap the service hours Tue Wed Thu Fri Sat · 18:00–23:00. To change those, remove them above, then add these.',
    );
    await screenshot(p, 'setup-hours-overlap-phone');

    await p.getByTestId('remove-window').click();
    await p.getByTestId('remove-window').click();
    await card.getByTestId('window-line').waitFor({ state: 'detached' });
    await p.getByTestId('add-window').click();
    await card.getByTestId('window-line').waitFor();
    expect(await card.getByTestId('window-line').innerText()).toContain(
      'Tue Wed Thu Fri Sat · 19:00–23:30 · tables turn in 90 min',
    );
    const windows = (await request(t.baseUrl).get(`/v1/venues/${v.id}/service-windows`).set(manager.auth).expect(200))
      .body as Array<{ start: string; end: string; days: number[] }>;
    expect(windows.map((w) => [w.days, w.start, w.end])).toEqual([[[2, 3, 4, 5, 6], '19:00', '23:30']]);
  }, 120_000);
});
