import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { parseNight } from '../../apps/replay/src/night.js';
import { ReplayClient } from '../../apps/replay/src/replay.host.js';
import { replayNight, type NightResult } from '../../apps/replay/src/replay.runner.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { addMember, signUp, type Staff } from '../support/staff.js';
import { signInToVenueList } from './board-page.js';
import { ARTIFACTS, describeWithChromium, launchChromium, newTablet } from './chromium.js';

const d = describeWithChromium('the Reports view is tested in a real browser');

/**
 * The quote report on the board: the shipped quiet-lunch night is replayed through the API (the same
 * runner as `npm run replay`), then a manager reads both models side by side and switches the model.
 */
d('Reports view in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let owner: Staff;
  let night: NightResult;

  async function signedIn(staff: Staff, path: string): Promise<Page> {
    const context = await newTablet(browser);
    contexts.push(context);
    const page = await context.newPage();
    await signInToVenueList(page, t.baseUrl, staff, night.venueId);
    await page.goto(`${t.baseUrl}${path}`);
    return page;
  }

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'reports-owner');
    const lunch = parseNight(JSON.parse(readFileSync('examples/nights/quiet-lunch.json', 'utf8')));
    night = await replayNight(new ReplayClient(t.baseUrl, owner.token), lunch);
    browser = await launchChromium();
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
  });

  it('the replayed night: the floor model well ahead of the formula', () => {
    expect(night.offered).toBeGreaterThan(10);
    expect(night.improvement).toBeGreaterThanOrEqual(30);
  });

  it('a manager sees both models side by side, with charts, and switches the model', async () => {
    const manager = await addMember(t, night.venueId, owner, 'manager');
    // Reached from the venue's tabs (the tab registry), not only by its address.
    const page = await signedIn(manager, `/board/venues/${night.venueId}`);
    await page.locator('[data-tab=reports]').click();
    await page.waitForURL(`${t.baseUrl}/board/venues/${night.venueId}/reports`);
    await page.locator('[data-testid=report-summary]').waitFor();
    expect(await page.locator('[data-testid=report-summary]').textContent()).toContain(
      `${night.offered} parties offered a table`,
    );
    for (const model of ['turns', 'floor'] as const) {
      expect(await page.locator(`[data-testid=mae-${model}]`).textContent()).toBe(
        `${night.models[model].maeMinutes?.toFixed(1)} min`,
      );
      await page.locator(`[data-testid=scatter-${model}] canvas`).first().waitFor();
      await page.locator(`[data-testid=histogram-${model}] canvas`).first().waitFor();
    }
    // The whole page (both histograms too): the README's picture of the view.
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'reports-view.png'), fullPage: true });
    expect(await page.locator('[data-testid=choose-turns]').getAttribute('aria-checked')).toBe('true');
    await page.click('[data-testid=choose-floor]');
    await page.locator('[data-testid=choose-floor][aria-checked=true]').waitFor();
    const venue = await request(t.baseUrl).get(`/v1/venues/${night.venueId}`).set(owner.auth).expect(200);
    expect((venue.body as { policy: { quoteModel: string } }).policy.quoteModel).toBe('floor');
  });

  // The tab registry shows a host no tab it cannot open: the reports address opens the venue's
  // first tab (the floor), with no Reports tab, and the API refuses the report itself.
  it('a host gets no Reports tab: the reports address opens the floor', async () => {
    const host = await addMember(t, night.venueId, owner, 'host');
    const page = await signedIn(host, `/board/venues/${night.venueId}/reports`);
    await page.locator('[data-tab=floor][aria-current=page]').waitFor();
    await page.locator('[data-testid=board]').waitFor();
    expect(await page.locator('[data-tab=reports]').count()).toBe(0);
    expect(await page.locator('[data-testid=reports]').count()).toBe(0);
    await request(t.baseUrl)
      .get(`/v1/venues/${night.venueId}/reports/quotes?from=2026-01-01&to=2026-01-02`)
      .set(host.auth)
      .expect(403);
  });
});
