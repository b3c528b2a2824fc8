import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { joined, sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { addMember, chooseOwnPassword, signUp, type Staff } from '../support/staff.js';
import { boardLive, openVenueBoard } from './board-page.js';
import { describeWithChromium, launchChromium, screenshot } from './chromium.js';

/**
 * The sheets a host opens over the board (the table picker, Find by code), as a black-box review
 * met them on a busy evening: a long party name squeezed the picker's Close button until its word
 * spilled out of it on a phone; the picker's reasons a table cannot be offered ("Offered to …")
 * were greyed to about 2:1, too faint to read at a glance; and after a refused lookup the sheet no
 * longer answered Escape (its button, disabled while the request ran, dropped the focus to the page).
 */
const STEP = 8_000;
const CLOCK = '2026-10-09T23:00:00.000Z';
const LONG_NAME = 'Bartholomew Featherstonehaugh-Cholmondeley and friends from the office';

const d = describeWithChromium('the board page is tested in a real browser');

d('sheets over the board', () => {
  let t: TestApp;
  let browser: Browser;
  let owner: Staff;
  let host: Staff;
  let v: Sandbox;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    t = await startApp();
    browser = await launchChromium();
    owner = await signUp(t, 'owner');
    v = await sandboxVenue(t, owner, {
      clock: CLOCK,
      published: true,
      tables: [
        { label: 'T1', capacity: 2 },
        { label: 'T2', capacity: 4 },
        { label: 'T3', capacity: 4 },
        { label: 'T4', capacity: 4 },
      ],
    });
    host = await chooseOwnPassword(t, await addMember(t, v.id, owner, 'host'));
    await joined(t, owner, v.id, { name: LONG_NAME, partySize: 2, phone: '+13125550177' });
    const grace = await joined(t, owner, v.id, { name: 'Grace Hopper', partySize: 2, phone: '+13125550178' });
    await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/offers`)
      .set(owner.auth)
      .send({ entryId: grace.entry.id, entryVersion: grace.entry.version, tableIds: [v.tableIds['T2']] })
      .expect(201);
    const walkIn = await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/reservations`)
      .set(owner.auth)
      .send({ name: 'Walk-in at T3', partySize: 2, start: CLOCK, tableIds: [v.tableIds['T3']] })
      .expect(201);
    const booked = walkIn.body as { id?: string; reservation?: { id: string } };
    await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/reservations/${booked.reservation?.id ?? booked.id}/seat`)
      .set(owner.auth)
      .expect(201);
  }, 120_000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
  });

  async function board(viewport: { width: number; height: number }, phone: boolean): Promise<Page> {
    const context = await browser.newContext({ viewport, hasTouch: true, isMobile: phone, locale: 'en-US' });
    contexts.push(context);
    const page = await context.newPage();
    await openVenueBoard(page, t.baseUrl, host, v.id);
    await boardLive(page, STEP);
    return page;
  }

  it("phone: a long party name does not squeeze the picker's Close button", async () => {
    const page = await board({ width: 390, height: 844 }, true);
    await page.locator('[data-testid=entry]', { hasText: 'Bartholomew' }).getByRole('button', { name: 'Offer a table' }).click();
    const close = page.getByRole('dialog').getByRole('button', { name: 'Close' });
    await close.waitFor({ timeout: STEP });
    await screenshot(page, 'sheets-phone-picker-long-name');
    const fit = (await page.evaluate(`(() => {
      const b = [...document.querySelectorAll('[role=dialog] button')].find((x) => x.textContent.trim() === 'Close');
      const r = b.getBoundingClientRect();
      return { spills: b.scrollWidth > b.clientWidth + 1, inside: r.left >= 0 && r.right <= window.innerWidth };
    })()`)) as { spills: boolean; inside: boolean };
    expect(fit).toEqual({ spills: false, inside: true });
  });

  it('the picker says why a table cannot be offered in text that reads at 4.5:1 or better', async () => {
    const page = await board({ width: 1024, height: 768 }, false);
    await page.locator('[data-testid=entry]', { hasText: 'Bartholomew' }).getByRole('button', { name: 'Offer a table' }).click();
    const taken = page.getByRole('dialog').getByRole('button', { name: /^T2/ });
    await taken.waitFor({ timeout: STEP });
    expect(await taken.isDisabled()).toBe(true);
    expect(await taken.locator('.why').textContent()).toBe('Offered to Grace Hopper');
    // The colour as seen: text and the button's background, each through the opacities of the
    // button and its ancestors, over the sheet's own background.
    const ratio = (await page.evaluate(`(() => {
      const el = [...document.querySelectorAll('[role=dialog] button .why')].find((x) => x.textContent === 'Offered to Grace Hopper');
      const rgb = (c) => (c.match(/[\\d.]+/g) ?? []).slice(0, 3).map(Number);
      const lum = ([r, g, b]) => {
        const lin = (x) => ((x /= 255) <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4);
        return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
      };
      const sheet = el.closest('.modal');
      const button = el.closest('button');
      let alpha = 1;
      for (let e = el; e && e !== sheet; e = e.parentElement) alpha *= Number(getComputedStyle(e).opacity);
      const under = rgb(getComputedStyle(sheet).backgroundColor);
      const mix = (c) => c.map((x, i) => alpha * x + (1 - alpha) * under[i]);
      const fg = lum(mix(rgb(getComputedStyle(el).color)));
      const bg = lum(mix(rgb(getComputedStyle(button).backgroundColor)));
      return (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
    })()`)) as number;
    expect(ratio).toBeGreaterThanOrEqual(4.5);
  });

  it("the queue's status chips read at 4.5:1 or better ('Waiting' was 4.3:1, green on green)", async () => {
    const page = await board({ width: 1024, height: 768 }, false);
    await page.locator('[data-testid=entry]', { hasText: 'Bartholomew' }).getByText('Waiting').waitFor({ timeout: STEP });
    const low = (await page.evaluate(`(() => {
      const rgb = (c) => (c.match(/[\\d.]+/g) ?? []).slice(0, 3).map(Number);
      const lum = ([r, g, b]) => {
        const lin = (x) => ((x /= 255) <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4);
        return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
      };
      return [...document.querySelectorAll('[data-testid=entry] .chip')].map((el) => {
        const fg = lum(rgb(getComputedStyle(el).color));
        const bg = lum(rgb(getComputedStyle(el).backgroundColor));
        return [el.textContent.trim(), (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05)];
      }).filter(([, ratio]) => ratio < 4.5).map(([text, ratio]) => text + ' ' + ratio.toFixed(2));
    })()`)) as string[];
    expect(low).toEqual([]);
  });

  it('after a refused lookup the sheet still closes with Escape and keeps the focus inside it', async () => {
    const page = await board({ width: 1024, height: 768 }, false);
    await page.getByTestId('open-lookup').click();
    const dialog = page.getByRole('dialog');
    await dialog.locator('input').first().fill('abcd efgh ijkl');
    await page.getByTestId('lookup-submit').click();
    await page.getByTestId('lookup-error').waitFor({ timeout: STEP });
    // Tab moves within the sheet (not to the board behind it), and Escape closes it.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(`document.querySelector('[role=dialog]').contains(document.activeElement)`)).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached', timeout: STEP });
  });

  it('moving a party: its own table alone is no move, and a table tapped beside it says to unpick theirs', async () => {
    const page = await board({ width: 1024, height: 768 }, false);
    await page.locator('[data-testid=table]', { hasText: 'T3' }).click();
    await page.getByTestId('move').click();
    const picker = page.getByTestId('table-picker');
    const submit = picker.getByTestId('picker-submit');
    const fit = picker.getByTestId('picker-fit');
    // As it opens, their own table is picked: moving there changes nothing (it was confirmed as "moved").
    await fit.getByText('They are at T3 now: tap it to unpick, then tap where they move to.').waitFor({ timeout: STEP });
    expect(await submit.isDisabled()).toBe(true);
    // A new table tapped beside it: what to do, in words.
    await picker.locator('.table-pick', { hasText: 'T4' }).click();
    expect(await fit.textContent()).toBe('These tables are not an approved combination. Tap T3 (their table now) to unpick it.');
    expect(await submit.isDisabled()).toBe(true);
    await picker.locator('.table-pick', { hasText: 'T3' }).click();
    expect(await fit.textContent()).toBe('T4: fits.');
    await submit.click();
    await page.locator('[data-testid=table][data-state=occupied]', { hasText: 'T4' }).waitFor({ timeout: STEP });
    await page.locator('[data-testid=table][data-state=free]', { hasText: 'T3' }).waitFor({ timeout: STEP });
  });

  it("after offering from a party's row, the focus is back on that row (its button was replaced), not lost to the page", async () => {
    const page = await board({ width: 1024, height: 768 }, false);
    const row = page.locator('[data-testid=entry]', { hasText: 'Bartholomew' });
    const entryId = await row.getAttribute('data-entry-id');
    await row.getByRole('button', { name: 'Offer a table' }).focus();
    await page.keyboard.press('Enter');
    const picker = page.getByTestId('table-picker');
    await picker.locator('.table-pick', { hasText: 'T1' }).click();
    await picker.getByTestId('picker-submit').click();
    await picker.waitFor({ state: 'detached', timeout: STEP });
    await row.getByRole('button', { name: /^Accept/ }).waitFor({ timeout: STEP });
    const focused = (await page.evaluate(
      `document.activeElement?.closest('[data-entry-id]')?.getAttribute('data-entry-id') ?? document.activeElement?.tagName`,
    )) as string;
    expect(focused).toBe(entryId);
  });
});
