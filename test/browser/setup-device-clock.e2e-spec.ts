import request from 'supertest';
import type { Browser, Page } from 'playwright-core';
import { EVERY_DAY, uniq } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';
import { boardLive, openVenueBoard, signInToVenueList } from './board-page.js';
import { describeWithChromium, launchChromium, newPhone, newTablet, screenshot } from './chromium.js';

const d = describeWithChromium('Set up is tested in a real browser');

/** How far the tablet's own clock is off from the server's: a tablet whose clock was never set. */
const DEVICE_AHEAD_MS = 8 * 3600_000;

/**
 * The board reads the server's time for what it says of service hours ("Joins are refused now:
 * No service is running now"); Set up said the same from the tablet's own clock. On a tablet whose
 * clock is hours off, Set up told the manager no service was running while the server took joins
 * and the board, on the same tablet, warned of nothing. Set up then read the whole board snapshot (the
 * most expensive read) as it opened only for its `now`; it now has the server's time from the venue's
 * read (`now`), which the page makes anyway.
 */
d('Set up on a tablet whose clock is off from the server’s', () => {
  let t: TestApp;
  let browser: Browser;
  let owner: Staff;
  let venueId: string;

  beforeAll(async () => {
    t = await startApp();
    browser = await launchChromium();
    owner = await signUp(t, 'setup-device-clock');
    const res = await request(t.baseUrl)
      .post('/v1/venues')
      .set(owner.auth)
      .send({ slug: `dc-${uniq()}`, name: 'The Test Kitchen', timeZone: 'UTC', preset: 'restaurant' })
      .expect(201);
    venueId = (res.body as { id: string }).id;
    // Service from two hours ago to two hours on, by the server's clock (UTC): running now, and not
    // eight hours on.
    const hour = new Date().getUTCHours();
    const at = (h: number): string => `${String((h + 24) % 24).padStart(2, '0')}:00`;
    await request(t.baseUrl)
      .post(`/v1/venues/${venueId}/service-windows`)
      .set(owner.auth)
      .send({ days: EVERY_DAY, start: at(hour - 2), end: at(hour + 2), turnMinutes: 20 })
      .expect(201);
    await request(t.baseUrl).post(`/v1/venues/${venueId}/tables`).set(owner.auth).send({ label: 'T1', capacity: 8 }).expect(201);
    await request(t.baseUrl).patch(`/v1/venues/${venueId}`).set(owner.auth).send({ published: true }).expect(200);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const textOf = async (page: Page, testId: string): Promise<string> => {
    // The warnings are drawn each second; give the page two.
    await page.waitForTimeout(2_000);
    const w = page.getByTestId(testId);
    return (await w.count()) === 0 ? '' : ((await w.textContent()) ?? '');
  };

  /** Counts the page's reads of the board snapshot (`GET /v1/venues/:venueId/board`) from now on. */
  const countSnapshotReads = (page: Page): { count: number } => {
    const seen = { count: 0 };
    page.on('request', (r) => {
      if (r.method() === 'GET' && new URL(r.url()).pathname === `/v1/venues/${venueId}/board`) seen.count++;
    });
    return seen;
  };

  it('Set up, like the board, does not say no service is running while the server takes joins', async () => {
    const page = await (await newTablet(browser)).newPage();
    await page.clock.install({ time: Date.now() + DEVICE_AHEAD_MS });
    await openVenueBoard(page, t.baseUrl, owner, venueId);
    await boardLive(page);
    const onBoard = await textOf(page, 'join-warnings');

    const snapshots = countSnapshotReads(page);
    await page.locator('.top-bar [data-tab=setup]').click();
    await page.getByTestId('windows-setup').waitFor();
    const onSetUp = await textOf(page, 'setup-warnings');
    await page.getByTestId('setup-ready').waitFor();
    await screenshot(page, 'setup-device-clock-off');
    expect({ onBoard, onSetUp, snapshotReads: snapshots.count }).toEqual({ onBoard: '', onSetUp: '', snapshotReads: 0 });
  });

  it('Set up opened by its address on a phone: the server’s time, and no board snapshot read', async () => {
    const page = await (await newPhone(browser)).newPage();
    await page.clock.install({ time: Date.now() + DEVICE_AHEAD_MS });
    await signInToVenueList(page, t.baseUrl, owner, venueId);
    const snapshots = countSnapshotReads(page);
    await page.goto(`${t.baseUrl}/board/venues/${venueId}/setup`);
    await page.getByTestId('windows-setup').waitFor();
    const onSetUp = await textOf(page, 'setup-warnings');
    await page.getByTestId('setup-ready').waitFor();
    await screenshot(page, 'setup-device-clock-off-phone');
    expect({ onSetUp, snapshotReads: snapshots.count }).toEqual({ onSetUp: '', snapshotReads: 0 });
  });
});
