import type { Browser, Page } from 'playwright-core';
import request from 'supertest';
import { EVERY_DAY, joined, sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';
import { boardLive, openVenueBoard } from './board-page.js';
import { describeWithChromium, launchChromium, screenshot } from './chromium.js';

/**
 * A busy evening's floor at the sizes a host uses (a UI review found tiles overlapping and clipped
 * on a phone and a landscape tablet, and only two or three parties in view): twelve tables where a
 * manager placed them, eight offered and three seated to parties with long names, twenty parties in
 * the queue. Everything is measured in the page with getBoundingClientRect.
 */
const VIEWPORTS = [
  { name: 'landscape', width: 1280, height: 800, rows: 6 },
  // The narrowest landscape tablet: an offered row's three acts go under the party there (beside
  // it the name would be a narrow column), so with the first rows all offered fewer fit.
  { name: 'landscape-1024', width: 1024, height: 768, rows: 3 },
  { name: 'portrait', width: 800, height: 1280, rows: 0 },
  { name: 'phone', width: 390, height: 844, rows: 0 },
] as const;
const CLOCK = '2026-10-09T23:00:00.000Z';
const PATIO = 'Patio corner booth by the window';
const TABLES: Array<[string, number]> = [
  ['T1', 2],
  ['T2', 2],
  ['T3', 2],
  ['T4', 4],
  ['T5', 4],
  ['T6', 4],
  ['T7', 4],
  ['T8', 6],
  ['T9', 6],
  ['B1', 2],
  ['B2', 2],
  // A long label of several words: it must not wrap over the tile's other lines.
  [PATIO, 8],
];
const NAMES = [
  'Wilhelmina "Billie" Featherstonehaugh',
  'Radia Perlman',
  'Donald Knuth',
  'Edsger Dijkstra',
  'Mary Jackson',
  'Grace Hopper',
  'Barbara Liskov',
  'Anita Borg',
  'Margaret Hamilton',
  'Alan Turing',
  'Frances Elizabeth Allen-Montgomery',
  'Katherine Johnson',
  'Dorothy Vaughan',
  'John Smith',
  'Hedy Lamarr',
  'Jean Bartik',
  'Ken Thompson',
  'Leslie Lamport',
  'Sophie Wilson',
  'Tim Berners-Lee',
];
/** Parties (by index in NAMES) offered a table, and the table: the first rows of the queue are busy ones. */
const OFFERS: Array<[number, string]> = [
  [0, 'T7'],
  [1, 'B1'],
  [2, 'T2'],
  [3, 'T3'],
  [5, 'T6'],
  [6, 'T8'],
  [8, 'T5'],
  [10, 'T4'],
];
const SEATED: Array<[string, string, number]> = [
  ['T1', 'Ada Lovelace-Byron of Ockham', 2],
  ['T9', 'Walk-in at T9', 5],
  [PATIO, 'Maximilian Oppenheimer-Rothschild', 8],
];

interface Measured {
  tiles: number;
  overlaps: string[];
  outsidePlan: string[];
  cut: string[];
  sideways: number;
  small: string[];
}

/**
 * In the page: pairs of tiles that overlap, tiles or their text outside the plan, text lines cut
 * (only a party's name or the table's label may end in an ellipsis, on one line: the table's sheet
 * and its accessible name show them whole), sideways scroll,
 * and buttons under 44 px.
 */
const MEASURE = `(() => {
  const r = (e) => e.getBoundingClientRect();
  const plan = r(document.querySelector('[data-testid=tables]'));
  const tiles = [...document.querySelectorAll('[data-testid=tables] [data-testid=table]')];
  const label = (t) => t.querySelector('strong').textContent;
  const overlaps = [];
  for (let i = 0; i < tiles.length; i++)
    for (let j = i + 1; j < tiles.length; j++) {
      const a = r(tiles[i]), b = r(tiles[j]);
      const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (w > 0.5 && h > 0.5) overlaps.push(label(tiles[i]) + '/' + label(tiles[j]));
    }
  const inside = (x, box) => x.left >= box.left - 0.5 && x.right <= box.right + 0.5 && x.top >= box.top - 0.5 && x.bottom <= box.bottom + 0.5;
  const outsidePlan = [];
  const cut = [];
  for (const t of tiles) {
    const box = r(t);
    if (!inside(box, plan)) outsidePlan.push(label(t) + ' ' + Math.round(box.left - plan.left) + ',' + Math.round(box.top - plan.top));
    if (t.scrollHeight > t.clientHeight + 1 || t.scrollWidth > t.clientWidth + 1) cut.push(label(t) + ': more than the tile holds');
    for (const line of t.querySelectorAll('strong, span')) {
      const text = line.textContent.trim();
      if (!inside(r(line), box) || !inside(r(line), plan)) cut.push(label(t) + ': "' + text + '" outside');
      const truncated = line.scrollWidth > line.clientWidth + 1;
      const mayEllipsis = (line.classList.contains('who') || line.tagName === 'STRONG') && getComputedStyle(line).textOverflow === 'ellipsis';
      if (truncated && !mayEllipsis) cut.push(label(t) + ': "' + text + '" truncated');
    }
  }
  const small = [...document.querySelectorAll('button')]
    .filter((b) => b.offsetParent !== null)
    .map((b) => ({ text: b.textContent.trim().slice(0, 30), r: r(b) }))
    .filter((x) => x.r.width > 0 && (x.r.width < 44 || x.r.height < 44))
    .map((x) => x.text + ' ' + Math.round(x.r.width) + 'x' + Math.round(x.r.height));
  return { tiles: tiles.length, overlaps, outsidePlan, cut, sideways: document.documentElement.scrollWidth - innerWidth, small };
})()`;

/** Queue rows wholly in view: inside the viewport above the action bar and inside every clipping ancestor. */
const ROWS_IN_VIEW = `(() => {
  const bar = document.querySelector('.action-bar').getBoundingClientRect().top;
  const top = document.querySelector('.top-bar').getBoundingClientRect().bottom;
  return [...document.querySelectorAll('[data-testid=entry]')].filter((row) => {
    const b = row.getBoundingClientRect();
    if (b.top < top - 0.5 || b.bottom > bar + 0.5) return false;
    for (let e = row.parentElement; e && e !== document.body; e = e.parentElement) {
      if (getComputedStyle(e).overflowY === 'visible') continue;
      const c = e.getBoundingClientRect();
      if (b.top < c.top - 0.5 || b.bottom > c.bottom + 0.5) return false;
    }
    return true;
  }).length;
})()`;

/** The floor plan wholly between the top bar and the action bar. */
const FLOOR_IN_VIEW = `(() => {
  const p = document.querySelector('[data-testid=tables]').getBoundingClientRect();
  const top = document.querySelector('.top-bar').getBoundingClientRect().bottom;
  const bar = document.querySelector('.action-bar').getBoundingClientRect().top;
  return { top: Math.round(p.top), bottom: Math.round(p.bottom), inView: p.top >= top - 0.5 && p.bottom <= bar + 0.5 };
})()`;

const d = describeWithChromium('the board page is tested in a real browser');

d('the board on a busy evening, at the sizes a host uses', () => {
  let t: TestApp;
  let browser: Browser;
  let owner: Staff;
  let v: Sandbox;

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'layout');
    browser = await launchChromium();
    const api = () => request(t.baseUrl);
    v = await sandboxVenue(t, owner, {
      clock: CLOCK,
      windows: [{ days: EVERY_DAY, start: '00:00', end: '23:59', turnMinutes: 90 }],
      tables: TABLES.map(([label, capacity]) => ({ label, capacity })),
      // Published with the queue on, as on a real evening: no "joins would be refused" box.
      patch: { published: true, queueEnabled: true, queuePartyCap: 8 },
    });
    // Where the review's manager placed them: four across, three rows.
    for (const [i, [label]] of TABLES.entries()) {
      await api()
        .patch(`/v1/venues/${v.id}/tables/${v.tableIds[label]}`)
        .set(owner.auth)
        .send({ x: 10 + (i % 4) * 25, y: 15 + Math.floor(i / 4) * 30 })
        .expect(200);
    }
    for (const [pair, capacity] of [
      [['T4', 'T5'], 8],
      [['T1', 'T2'], 4],
    ] as const) {
      await api()
        .post(`/v1/venues/${v.id}/combinations`)
        .set(owner.auth)
        .send({ tableIds: pair.map((l) => v.tableIds[l]), capacity })
        .expect(201);
    }
    const entries: Array<{ id: string }> = [];
    for (const [i, name] of NAMES.entries()) {
      const size = [2, 2, 2, 2, 4, 4, 6, 3, 4, 2, 4, 5, 2, 6, 2, 3, 4, 2, 2, 8][i] ?? 2;
      entries.push((await joined(t, owner, v.id, { name, partySize: size, email: `p${i}@example.test` })).entry);
    }
    await api()
      .put(`/v1/venues/${v.id}/queue/${entries[0]?.id}/details`)
      .set(owner.auth)
      .send({ tags: ['wheelchair', 'vip'], note: 'Step-free entrance, by the window if possible' })
      .expect(200);
    await api()
      .put(`/v1/venues/${v.id}/queue/${entries[4]?.id}/details`)
      .set(owner.auth)
      .send({ tags: ['high-chair'], note: null })
      .expect(200);
    for (const [i, label] of OFFERS) {
      const current = (await api().get(`/v1/venues/${v.id}/queue`).set(owner.auth).expect(200)).body as {
        entries: Array<{ id: string; version: number }>;
      };
      const e = current.entries.find((x) => x.id === entries[i]?.id);
      await api()
        .post(`/v1/venues/${v.id}/offers`)
        .set(owner.auth)
        .send({ entryId: e?.id, entryVersion: e?.version, tableIds: [v.tableIds[label]] })
        .expect(201);
    }
    for (const [label, name, partySize] of SEATED) {
      const r = await api()
        .post(`/v1/venues/${v.id}/reservations`)
        .set(owner.auth)
        .send({ name, partySize, start: CLOCK, tableIds: [v.tableIds[label]] })
        .expect(201);
      const body = r.body as { id?: string; reservation?: { id: string } };
      await api()
        .post(`/v1/venues/${v.id}/reservations/${body.reservation?.id ?? body.id}/seat`)
        .set(owner.auth)
        .expect(201);
    }
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** `venueLate`: the venue's last read (its service windows) answers 1.5 s late, as on a loaded server. */
  async function open(vp: (typeof VIEWPORTS)[number], venueLate = false): Promise<Page> {
    const context = await browser.newContext({
      viewport: { width: vp.width, height: vp.height },
      hasTouch: true,
      isMobile: vp.name === 'phone',
      locale: 'en-US',
    });
    const page = await context.newPage();
    if (venueLate)
      await page.route(new RegExp(`/v1/venues/${v.id}/service-windows$`), async (route) => {
        await new Promise((r) => setTimeout(r, 1_500));
        await route.continue();
      });
    await openVenueBoard(page, t.baseUrl, owner, v.id);
    await boardLive(page);
    await page
      .locator('[data-testid=entry]')
      .nth(NAMES.length - 1)
      .waitFor({ state: 'attached' });
    await page
      .locator('[data-testid=table][data-state=occupied]')
      .nth(SEATED.length - 1)
      .waitFor();
    // The board comes from its own read; the venue (its name and zone in the top bar, and with it the
    // Reports tab, a tables venue's only) from another, which may answer later.
    await page.getByTestId('title-detail').waitFor({ state: 'attached' });
    return page;
  }

  for (const vp of VIEWPORTS) {
    it(`${vp.name} ${vp.width}×${vp.height}: no tile overlaps another or is cut, no sideways scroll`, async () => {
      const page = await open(vp);
      expect(await page.locator('[data-testid=table][data-state=held]').count()).toBe(OFFERS.length);
      await page.locator('[data-testid=tables]').scrollIntoViewIfNeeded();
      await screenshot(page, `board-layout-${vp.name}`);
      const m = (await page.evaluate(MEASURE)) as Measured;
      expect(m).toEqual({ tiles: TABLES.length, overlaps: [], outsidePlan: [], cut: [], sideways: 0, small: [] });
      await page.context().close();
    });
  }

  it('long quotes read in hours: a 90-minute turn and fifteen ahead is "told ~22 h 30 min", never "~1350"; short ones in minutes', async () => {
    const page = await open(VIEWPORTS[0]);
    const rows = await page.locator('[data-testid=entry]').allTextContents();
    expect(rows.some((r) => /told ~\d+ h( \d+ min)?/.test(r))).toBe(true);
    expect(rows.filter((r) => /told ~\d{3,}/.test(r))).toEqual([]);
    // A quote under two hours names its unit too ("told ~60" read as nothing in particular).
    expect(rows.some((r) => /told ~\d{1,3} min/.test(r))).toBe(true);
    expect(rows.filter((r) => /told ~\d+(?!\d)(?! (h|min))/.test(r))).toEqual([]);
    await page.context().close();
  });

  for (const vp of VIEWPORTS.filter((x) => x.width > x.height)) {
    it(`${vp.name} ${vp.width}×${vp.height}: ${vp.rows}+ parties in view, and the queue scrolls under a floor that stays`, async () => {
      const page = await open(vp);
      expect(await page.evaluate(ROWS_IN_VIEW)).toBeGreaterThanOrEqual(vp.rows);
      expect(await page.evaluate(FLOOR_IN_VIEW)).toMatchObject({ inView: true });
      // A swipe over the queue scrolls the queue, down to its last party, and the floor stays.
      const queue = await page.getByTestId('queue').boundingBox();
      await page.mouse.move((queue?.x ?? 0) + 100, (queue?.y ?? 0) + 100);
      for (let i = 0; i < 12; i++) await page.mouse.wheel(0, 400);
      await page.waitForTimeout(300);
      await page.locator('[data-testid=entry]').last().scrollIntoViewIfNeeded();
      await screenshot(page, `board-layout-${vp.name}-scrolled`);
      expect(await page.evaluate(FLOOR_IN_VIEW)).toMatchObject({ inView: true });
      const last = await page.locator('[data-testid=entry]').last().boundingBox();
      const bar = await page.locator('.action-bar').boundingBox();
      expect((last?.y ?? 0) + (last?.height ?? 0)).toBeLessThanOrEqual((bar?.y ?? 0) + 0.5);
      await page.context().close();
    });
  }

  for (const vp of VIEWPORTS.filter((x) => x.width < x.height)) {
    it(`${vp.name} ${vp.width}×${vp.height}: scrolled down to the last party, the tabs are still at the top of the screen`, async () => {
      // All five tabs are measured, Reports too: it shows once the venue is read, here after the board.
      const page = await open(vp, true);
      // The page itself scrolls at this size (there is more than a screen of it).
      await page.locator('[data-testid=entry]').last().scrollIntoViewIfNeeded();
      const scrolled = (await page.evaluate('scrollY')) as number;
      expect(scrolled).toBeGreaterThan(200);
      const bar = await page.locator('.top-bar').boundingBox();
      expect(Math.round(bar?.y ?? -1)).toBe(0);
      // The tabs inside it, on the screen: a host switches to Messages without scrolling back up.
      const tab = await page.locator('.top-bar [data-tab=messages]').boundingBox();
      expect(tab?.y).toBeGreaterThanOrEqual(0);
      expect((tab?.y ?? 0) + (tab?.height ?? 0)).toBeLessThanOrEqual((bar?.height ?? 0) + 0.5);
      // Every tab whole on the screen (on a phone they keep to one row, so the bar stays two lines high).
      const tabs = (await page.evaluate(
        `[...document.querySelectorAll('.top-bar [data-tab]')].map((b) => { const r = b.getBoundingClientRect(); return { tab: b.dataset.tab, inside: r.left >= 0 && r.right <= innerWidth + 0.5, top: Math.round(r.top) }; })`,
      )) as Array<{ tab: string; inside: boolean; top: number }>;
      expect(tabs.length).toBe(5);
      expect(tabs.filter((x) => !x.inside)).toEqual([]);
      expect(new Set(tabs.map((x) => x.top)).size).toBe(1);
      // Nothing scrolls sideways, as before.
      expect(await page.evaluate('document.documentElement.scrollWidth - innerWidth')).toBe(0);
      await screenshot(page, `board-layout-${vp.name}-top-bar`);
      await page.context().close();
    });
  }
});
