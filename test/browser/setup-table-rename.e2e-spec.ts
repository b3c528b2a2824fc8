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

  /**
   * The list was sorted by name on every save: a table renamed from "Alto 1" to "Zimbro" jumped to
   * the foot and the row under it moved up as the manager typed into it. Each table now keeps its
   * place until Set up is opened again, where the renamed one is found under its new name.
   */
  it.each([
    ['phone 390×844', true],
    ['tablet 1280×800', false],
  ])(
    '%s: a rename keeps every row in its place while the manager types in the next one',
    async (size, phone) => {
      const v = await sandboxVenue(t, owner, {
        clock: '2026-10-09T23:00:00.000Z',
        tables: [
          { label: 'Alto 1', capacity: 2 },
          { label: 'Alto 2', capacity: 6 },
          { label: 'Alto 3', capacity: 2 },
          { label: 'Alto 4', capacity: 5 },
        ],
      });
      const p = await setUp(v, phone);
      const ids = async (): Promise<string[]> =>
        (await p.evaluate(
          `[...document.querySelectorAll('[data-testid=table-line]')].map((e) => e.getAttribute('data-table-id'))`,
        )) as string[];
      const line = (label: string) => p.locator(`[data-testid=table-line][data-table-id="${v.tableIds[label]}"]`);
      const before = await ids();
      expect(before).toEqual(['Alto 1', 'Alto 2', 'Alto 3', 'Alto 4'].map((l) => v.tableIds[l]));
      await line('Alto 1').locator('input[name=label]').fill('Zimbro');
      await line('Alto 1').getByRole('button', { name: 'Save' }).click();
      // Straight on to the next row, as the save is on its way.
      const next = line('Alto 2').locator('input[name=label]');
      await next.click();
      await next.fill('Alto 2 janela');
      await p.locator('[data-testid=notice]', { hasText: 'Table Zimbro saved.' }).waitFor();
      await p.waitForTimeout(400);
      await next.pressSequentially(' sul');
      await screenshot(p, `setup-rename-order-${phone ? 'phone' : 'tablet'}`);
      expect({ size, order: await ids(), typed: await next.inputValue() }).toEqual({
        size,
        order: before,
        typed: 'Alto 2 janela sul',
      });
      expect(await line('Alto 1').locator('input[name=label]').inputValue()).toBe('Zimbro');
      // Set up opened again: by name, the renamed table at its new place.
      await reopen(p);
      expect(await ids()).toEqual(['Alto 2', 'Alto 3', 'Alto 4', 'Alto 1'].map((l) => v.tableIds[l]));
    },
    60_000,
  );

  async function reopen(p: Page): Promise<void> {
    await p.locator('.top-bar [data-tab=floor]').click();
    await p.getByTestId('board').waitFor();
    await p.locator('.top-bar [data-tab=setup]').click();
    await p.getByTestId('tables-setup').waitFor();
  }
});
