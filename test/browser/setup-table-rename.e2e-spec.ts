import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';
import { openVenueBoard } from './board-page.js';
import { describeWithChromium, launchChromium, newPhone, newTablet, screenshot } from './chromium.js';

const d = describeWithChromium('Set up is tested in a real browser');

/**
 * A manager renames the tables between services. A name already used is refused; the refusal came
 * up beside the confirmation of the rename before it ("Table Bar 1 saved." and "A table named Bar 1
 * already exists" on screen together), as if the second had been saved too.
 */
d('renaming a table to a name already used', () => {
  let t: TestApp;
  let browser: Browser;
  let owner: Staff;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    t = await startApp();
    browser = await launchChromium();
    owner = await signUp(t, 'setup-rename');
  }, 120_000);
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await t?.close();
  });

  /**
   * The API's refusal as another server would word it: `change` edits its `error` (words reworded, or
   * `details.reason` left out as a server from before it gave one).
   */
  const refusalChanged =
    (change: (error: { message: string; details: Record<string, unknown> }) => void) => async (route: Route) => {
      const res = await route.fetch();
      const body = (await res.json().catch(() => null)) as {
        error?: { message: string; details: Record<string, unknown> };
      } | null;
      if (!res.ok() && body?.error) change(body.error);
      await route.fulfill({ response: res, json: body });
    };

  async function setUp(v: Sandbox, phone: boolean): Promise<Page> {
    const context = phone ? await newPhone(browser) : await newTablet(browser);
    contexts.push(context);
    const page = await context.newPage();
    if (!phone) await page.setViewportSize({ width: 1280, height: 800 });
    await openVenueBoard(page, t.baseUrl, owner, v.id);
    await page.locator('.top-bar [data-tab=setup]').click();
    await page.getByTestId('tables-setup').waitFor();
    return page;
  }

  it.each([
    ['phone 390×844', true],
    ['tablet 1280×800', false],
  ])(
    '%s: the refusal replaces the rename before it, not beside it',
    async (size, phone) => {
      const v = await sandboxVenue(t, owner, {
        clock: '2026-10-09T23:00:00.000Z',
        tables: [
          { label: 'B7', capacity: 3 },
          { label: 'B8', capacity: 3 },
        ],
      });
      const p = await setUp(v, phone);
      // The rename's refusal as a server that gives no `details.reason`: read by its words.
      await p.route(
        /\/tables\/[^/]+$/,
        refusalChanged((e) => delete e.details['reason']),
      );
      // The new table's as one that words it otherwise: read by its `details.reason`, not its words.
      await p.route(
        /\/tables$/,
        refusalChanged((e) => (e.message = 'Label B7 is in use here.')),
      );
      const line = (id: string | undefined) => p.locator(`[data-testid=table-line][data-table-id="${id}"]`);
      await line(v.tableIds['B7']).locator('input[name=label]').fill('Bar 1');
      await line(v.tableIds['B7']).getByRole('button', { name: 'Save' }).click();
      await p.locator('[data-testid=notice]', { hasText: 'Table Bar 1 saved.' }).waitFor();
      await line(v.tableIds['B8']).locator('input[name=label]').fill('Bar 1');
      await line(v.tableIds['B8']).getByRole('button', { name: 'Save' }).click();
      await p.locator('[data-testid=notice][data-kind=error]').waitFor();
      await screenshot(p, `setup-rename-taken-${phone ? 'phone' : 'tablet'}`);
      const notices = (await p.locator('[data-testid=notice] span').allInnerTexts()).map((s) => s.trim());
      expect({ size, notices: notices.filter((n) => n.includes('saved')) }).toEqual({ size, notices: [] });
      expect(notices).toHaveLength(1);
      // In the words of the field ("Table name"): it read "A table with this label already exists at this venue."
      expect(notices[0]).toBe('Another table already has this name: choose a different one.');
      // What was typed stays, to be corrected.
      expect(await line(v.tableIds['B8']).locator('input[name=label]').inputValue()).toBe('Bar 1');
      // A new table with that name (the API's words changed): the same words, under the form.
      await p.fill('input[name=tableLabel]', 'Bar 1');
      await p.getByTestId('add-table').click();
      const refusal = p.getByTestId('tables-setup').locator('form .error');
      await refusal.waitFor();
      expect((await refusal.innerText()).trim()).toBe('Another table already has this name: choose a different one.');
    },
    60_000,
  );
});
