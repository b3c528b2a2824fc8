import type { Browser, Page } from 'playwright-core';
import { sandboxVenue } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';
import { openVenueBoard } from './board-page.js';
import { describeWithChromium, launchChromium, newPhone, screenshot } from './chromium.js';

const d = describeWithChromium('the floor plan editor is tested in a real browser');

/** Thirteen tables with names of a word and a number, as a restaurant calls them. */
const TABLES = [
  'Patio 7',
  'Patio 12',
  'Window 3',
  'Bar 10',
  'Booth 11',
  'Corner 4',
  'Garden 9',
  'Deck 14',
  'Alcove 2',
  'Snug 5',
  'Loft 8',
  'Porch 13',
  'Hearth 6',
].map((label, i) => ({ label, capacity: 2 + (i % 5) }));

/**
 * Each tile of the plan editor: its label as the page shows it, whether the label or the seats line
 * is cut (wider or taller than its box, or drawn past the tile), and overlaps between tiles.
 */
const TILES = `(() => {
  const r = (e) => e.getBoundingClientRect();
  const tiles = [...document.querySelectorAll('[data-testid=plan-editor] .table-spot')];
  const cut = (e, tile) => e.scrollWidth > e.clientWidth + 0.5 || e.scrollHeight > e.clientHeight + 0.5
    || r(e).bottom > r(tile).bottom + 0.5 || r(e).top < r(tile).top - 0.5 || r(e).right > r(tile).right + 0.5;
  const overlaps = [];
  for (let i = 0; i < tiles.length; i++)
    for (let j = i + 1; j < tiles.length; j++) {
      const a = r(tiles[i]), b = r(tiles[j]);
      if (Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5)
        overlaps.push(tiles[i].title + ' / ' + tiles[j].title);
    }
  // A word drawn over two lines ("Windo" / "w 3"): its text has more than one box.
  const splitWords = (e) => {
    const text = e.firstChild;
    const out = [];
    let at = 0;
    for (const word of text.data.split(' ')) {
      const range = document.createRange();
      range.setStart(text, at);
      range.setEnd(text, at + word.length);
      if ([...range.getClientRects()].filter((b) => b.width > 0).length > 1) out.push(word);
      at += word.length + 1;
    }
    return out;
  };
  return {
    tiles: tiles.map((t) => {
      const label = t.querySelector('strong');
      const seats = t.querySelector('.spot-line');
      return { label: t.title, labelCut: cut(label, t), seatsCut: cut(seats, t), splitWords: splitWords(label), width: Math.round(r(t).width) };
    }),
    overlaps,
  };
})()`;

/**
 * A manager sets up the floor on a 390×844 phone: the plan editor drew every tile at its narrowest
 * (72 px), its label on one line cut with an ellipsis: "Patio 7" read "Pati…", the whole name only in a
 * title a touch screen cannot show. The label now wraps onto a second line where it must, and the
 * tile is tall enough for it and its seats; a 1280×800 screen keeps its layout.
 */
d('Set up’s floor plan names each table in full on a phone', () => {
  let t: TestApp;
  let browser: Browser;
  let owner: Staff;
  let venueId: string;

  beforeAll(async () => {
    t = await startApp();
    browser = await launchChromium();
    owner = await signUp(t, 'manager');
    venueId = (
      await sandboxVenue(t, owner, {
        name: 'Harakeke House',
        timeZone: 'America/Halifax',
        clock: '2026-12-10T19:20:00-04:00',
        tables: TABLES,
      })
    ).id;
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function plan(size: { width: number; height: number }): Promise<Page> {
    const context =
      size.width < 600 ? await newPhone(browser, size) : await browser.newContext({ viewport: size, locale: 'en-US' });
    const page = await context.newPage();
    await openVenueBoard(page, t.baseUrl, owner, venueId);
    await page.goto(`${t.baseUrl}/board/venues/${venueId}/setup`);
    await page.getByTestId('plan-editor').waitFor();
    await page.getByTestId('plan-setup').scrollIntoViewIfNeeded();
    return page;
  }

  for (const size of [
    { name: 'phone', width: 390, height: 844 },
    { name: 'desktop', width: 1280, height: 800 },
  ]) {
    it(`${size.name} ${size.width}×${size.height}: every label and its seats are shown whole, and no tile covers another`, async () => {
      const page = await plan(size);
      await screenshot(page, `setup-plan-labels-${size.name}`);
      const shown = (await page.evaluate(TILES)) as {
        tiles: Array<{ label: string; labelCut: boolean; seatsCut: boolean; splitWords: string[]; width: number }>;
        overlaps: string[];
      };
      expect(shown.tiles.map((x) => x.label).sort()).toEqual(TABLES.map((x) => x.label).sort());
      for (const tile of shown.tiles)
        expect({ label: tile.label, labelCut: tile.labelCut, seatsCut: tile.seatsCut, splitWords: tile.splitWords }).toEqual({
          label: tile.label,
          labelCut: false,
          seatsCut: false,
          splitWords: [],
        });
      expect(shown.overlaps).toEqual([]);
      // What the tile says, read as a screen reader or a test reads the page: the whole name.
      const patio = page.locator('[data-testid=plan-editor] .table-spot', { hasText: 'Patio 7' }).locator('strong');
      expect((await patio.innerText()).replace(/\s+/g, ' ')).toBe('Patio 7');
      await page.context().close();
    }, 120_000);
  }
});
