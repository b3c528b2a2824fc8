import type { Browser, Page } from 'playwright-core';
import request from 'supertest';
import { joined, sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { addMember, signUp, type Staff } from '../support/staff.js';
import { boardLive, signInOnBoard } from './board-page.js';
import { describeWithChromium, launchChromium, screenshot } from './chromium.js';

/**
 * Layout defects testers found, measured in the page (bounding boxes, not pictures): on a 390 px
 * phone the action bar wrapped "Sweep expired offers" onto three lines and grew taller; at 1024×768
 * a new host's banners (a password someone else chose, joins that would be refused) squeezed "To be
 * seated" until its buttons were cut in half inside a scrolling panel; and two venues of the same
 * name looked the same in the venue list.
 */
const SIZES = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'portrait', width: 768, height: 1024 },
  { name: 'landscape', width: 1024, height: 768 },
] as const;
/**
 * Landscape tablets where both banners and three parties to seat pushed the queue off the screen;
 * how many of its rows must be in view (at 1024 px a row's acts go under the party: taller rows).
 */
const SHORT_LANDSCAPES = [
  { name: 'landscape-768', width: 1024, height: 768, rows: 1 },
  { name: 'landscape-720', width: 1280, height: 720, rows: 2 },
  { name: 'landscape-800', width: 1280, height: 800, rows: 2 },
  // A common cheap Android tablet: about 270 px were left for both lists.
  { name: 'landscape-600', width: 1024, height: 600, rows: 1 },
] as const;
/** A narrower phone than the testers': there the bar's buttons may wrap, but as whole buttons. */
const NARROW = { name: 'narrow-phone', width: 320, height: 640 } as const;
type Size = (typeof SIZES)[number] | (typeof SHORT_LANDSCAPES)[number] | typeof NARROW;
const CLOCK = '2026-10-09T23:00:00.000Z';
const NAME = 'The Test Kitchen';
const TO_SEAT = ['Ada Lovelace', 'Bea Noshow', 'Cy Changes'];

/**
 * The action bar's buttons: their boxes, the lines of text each one's label takes (distinct line
 * boxes of its text), whether the label spills out of the button, and the bar's own box.
 */
const ACTION_BAR = `(() => {
  const bar = document.querySelector('.action-bar');
  const b = bar.getBoundingClientRect();
  const buttons = [...bar.querySelectorAll('button')].map((e) => {
    const r = e.getBoundingClientRect();
    const range = document.createRange();
    range.selectNodeContents(e);
    const tops = new Set([...range.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top)));
    return {
      text: e.textContent,
      left: r.left, right: r.right, top: r.top, bottom: r.bottom, height: r.height,
      lines: tops.size,
      spills: e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1,
      fontSize: parseFloat(getComputedStyle(e).fontSize),
    };
  });
  return { top: b.top, bottom: b.bottom, height: b.height, buttons };
})()`;

/**
 * Every button in "To be seated": cut by a clipping ancestor (a panel that scrolls), or covered at
 * its middle by something else; and whether the panel itself scrolls.
 */
const TO_SEAT_BUTTONS = `(() => {
  const panel = document.querySelector('[data-testid=to-seat]');
  const out = [];
  for (const e of panel.querySelectorAll('button')) {
    const r = e.getBoundingClientRect();
    const name = e.closest('[data-testid=to-seat-party]').querySelector('.name').firstChild.textContent.trim() + ': ' + e.textContent.trim();
    for (let a = e.parentElement; a && a !== document.documentElement; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
      const c = a.getBoundingClientRect();
      if (r.top < c.top - 0.5 || r.bottom > c.bottom + 0.5 || r.left < c.left - 0.5 || r.right > c.right + 0.5)
        out.push(name + ' cut by ' + a.tagName.toLowerCase() + '.' + String(a.className).split(' ').join('.'));
    }
  }
  return { cut: out, panelScrolls: panel.scrollHeight > panel.clientHeight + 1, count: panel.querySelectorAll('button').length };
})()`;

/** Where the INDEXth button of "To be seated" lies: wholly between the top bar and the action bar, and is it what a tap at its middle reaches. */
const WHERE_BUTTON = `((e) => {
  const r = e.getBoundingClientRect();
  const top = document.querySelector('.top-bar').getBoundingClientRect().bottom;
  const bar = document.querySelector('.action-bar').getBoundingClientRect().top;
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return {
    text: e.textContent,
    inView: r.top >= top - 0.5 && r.bottom <= bar + 0.5 && r.left >= -0.5 && r.right <= innerWidth + 0.5,
    hit: hit === e || e.contains(hit),
  };
})(document.querySelectorAll('[data-testid=to-seat] button')[INDEX])`;

/**
 * The queue's first COUNT rows as the board opens: each wholly between the top bar and the action
 * bar, not cut by the panel that scrolls them, and what a tap at its middle reaches; and whether
 * the page or the board had to be scrolled.
 */
const FIRST_ROWS = `(() => {
  const top = document.querySelector('.top-bar').getBoundingClientRect().bottom;
  const bar = document.querySelector('.action-bar').getBoundingClientRect().top;
  const list = document.querySelector('[data-testid=queue]').getBoundingClientRect();
  const rows = [...document.querySelectorAll('[data-testid=queue] [data-testid=entry]')].slice(0, COUNT).map((e) => {
    const r = e.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + Math.min(r.height / 2, 12));
    return {
      name: e.querySelector('.name bdi').textContent.trim(),
      inView: r.top >= Math.max(top, list.top) - 0.5 && r.bottom <= Math.min(bar, list.bottom) + 0.5,
      hit: e.contains(hit),
    };
  });
  return { rows, scrolled: window.scrollY + document.querySelector('main.board').scrollTop };
})()`;

/** A venue's button in the list: its name, and the secondary text that tells it from another. */
const VENUE_BUTTON = `(() => {
  const e = document.querySelector('[data-venue-id="ID"]');
  const name = e.querySelector('.name');
  const where = e.querySelector('[data-testid=venue-where]');
  const box = e.getBoundingClientRect();
  const r = where && where.getBoundingClientRect();
  return {
    name: name.textContent,
    where: where ? where.textContent : null,
    smaller: where ? parseFloat(getComputedStyle(where).fontSize) < parseFloat(getComputedStyle(name).fontSize) : false,
    inside: r ? r.left >= box.left && r.right <= box.right + 0.5 && r.bottom <= box.bottom + 0.5 : false,
    whole: where ? where.scrollWidth <= where.clientWidth + 1 : false,
  };
})()`;

const d = describeWithChromium('the board page is tested in a real browser');

d('the board fits a phone and a tablet, with a new host’s banners', () => {
  let t: TestApp;
  let browser: Browser;
  let owner: Staff;
  let host: Staff;
  let v: Sandbox;
  let twin: Sandbox;
  const api = () => request(t.baseUrl);

  beforeAll(async () => {
    t = await startApp();
    browser = await launchChromium();
    owner = await signUp(t, 'fit-owner');
    // Not published, and no table seats the queue's largest party: two lines of warnings.
    v = await sandboxVenue(t, owner, {
      clock: CLOCK,
      tables: [
        { label: 'T1', capacity: 2 },
        { label: 'T2', capacity: 4 },
        { label: 'T3', capacity: 4 },
        { label: 'T4', capacity: 4 },
        { label: 'T5', capacity: 2 },
      ],
    });
    // The same name, another city.
    twin = await sandboxVenue(t, owner, { clock: CLOCK, timeZone: 'Europe/Lisbon' });
    // A new host, with a password their manager chose: the banner asking for their own.
    host = await addMember(t, v.id, owner, 'host');
    const names = [...TO_SEAT, 'Dee Offered', 'Eve Waiting-Featherstonehaugh', 'Fay Waiting', 'Gus Waiting'];
    const parties = [];
    for (const [i, name] of names.entries())
      parties.push(await joined(t, owner, v.id, { name, partySize: 2, email: `fit${i}@example.test` }));
    for (const [i, label] of ['T1', 'T2', 'T3', 'T4'].entries()) {
      const p = parties[i];
      const offer = await api()
        .post(`/v1/venues/${v.id}/offers`)
        .set(owner.auth)
        .send({ entryId: p?.entry.id, entryVersion: p?.entry.version, tableIds: [v.tableIds[label]] })
        .expect(201);
      if (i < TO_SEAT.length)
        await api()
          .post(`/v1/venues/${v.id}/offers/${(offer.body as { offer: { id: string } }).offer.id}/accept`)
          .set(owner.auth)
          .expect(200);
    }
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function signedIn(size: Size, who: Staff): Promise<Page> {
    const context = await browser.newContext({
      viewport: { width: size.width, height: size.height },
      hasTouch: true,
      isMobile: size.width < 500,
      locale: 'en-US',
    });
    const page = await context.newPage();
    await signInOnBoard(page, t.baseUrl, who);
    await page.locator(`[data-venue-id="${v.id}"]`).waitFor();
    return page;
  }

  async function board(size: Size): Promise<Page> {
    const page = await signedIn(size, host);
    await page.click(`[data-venue-id="${v.id}"]`);
    await boardLive(page);
    await page
      .locator('[data-testid=to-seat-party]')
      .nth(TO_SEAT.length - 1)
      .waitFor();
    await page.getByTestId('must-change').waitFor();
    await page.getByTestId('join-warnings').waitFor();
    return page;
  }

  for (const size of [...SIZES, NARROW]) {
    it(`${size.name} ${size.width}×${size.height}: the action bar's buttons are whole, two lines of text at most, one height, all in view`, async () => {
      const page = await board(size);
      await screenshot(page, `board-fit-${size.name}-bar`);
      const bar = (await page.evaluate(ACTION_BAR)) as {
        top: number;
        bottom: number;
        height: number;
        buttons: Array<{
          text: string;
          left: number;
          right: number;
          top: number;
          bottom: number;
          height: number;
          lines: number;
          spills: boolean;
          fontSize: number;
        }>;
      };
      // Every act is there, the spec's label word for word.
      expect(bar.buttons.map((b) => b.text)).toEqual(['Add to queue', 'Find by code', 'Sweep expired offers']);
      for (const b of bar.buttons) {
        expect({ text: b.text, lines: b.lines <= 2, spills: b.spills }).toEqual({ text: b.text, lines: true, spills: false });
        expect(b.left).toBeGreaterThanOrEqual(0);
        expect(b.right).toBeLessThanOrEqual(size.width + 0.5);
        expect(b.top).toBeGreaterThanOrEqual(bar.top);
        expect(b.bottom).toBeLessThanOrEqual(bar.bottom + 0.5);
        expect(b.fontSize).toBeGreaterThanOrEqual(16);
      }
      // One height for all of them, whatever their labels.
      expect(new Set(bar.buttons.map((b) => Math.round(b.height))).size).toBe(1);
      // No two overlap.
      const [a, b, c] = bar.buttons;
      for (const [x, y] of [
        [a, b],
        [b, c],
        [a, c],
      ] as const)
        expect(
          Math.min(x?.right ?? 0, y?.right ?? 0) - Math.max(x?.left ?? 0, y?.left ?? 0) <= 0.5 ||
            (x?.bottom ?? 0) <= (y?.top ?? 0) + 0.5 ||
            (y?.bottom ?? 0) <= (x?.top ?? 0) + 0.5,
        ).toBe(true);
      if (size.width >= 390) {
        // One row, as tall as on a tablet (76 px): it was 88 with the sweep on three lines.
        expect(new Set(bar.buttons.map((x) => Math.round(x.top))).size).toBe(1);
        expect(bar.height).toBeLessThanOrEqual(78);
      }
      // Scrolled to the end, the page's last content clears the bar, however tall it is.
      await page.evaluate(
        `for (const e of [document.scrollingElement, document.querySelector('main.board')]) e.scrollTop = e.scrollHeight`,
      );
      const lastBottom = (await page.evaluate(
        `Math.max(...[...document.querySelectorAll('main.board .panel')].map((p) => p.getBoundingClientRect().bottom))`,
      )) as number;
      const barTop = (await page.evaluate(`document.querySelector('.action-bar').getBoundingClientRect().top`)) as number;
      expect(lastBottom).toBeLessThanOrEqual(barTop + 0.5);
      await page.context().close();
    });
  }

  for (const size of SIZES) {
    it(`${size.name} ${size.width}×${size.height}: with a new host's banners, every button in "To be seated" is whole, uncovered and reachable`, async () => {
      const page = await board(size);
      await screenshot(page, `board-fit-${size.name}-to-seat`);
      const m = (await page.evaluate(TO_SEAT_BUTTONS)) as { cut: string[]; panelScrolls: boolean; count: number };
      // Seat them, No-show and New queue code for each party. On a landscape tablet with both banners
      // "To be seated" gives way to the queue's first rows: its own list scrolls, its first party
      // whole (the panel, its heading and count stay put); nothing else cuts a button.
      const listCut = size.name === 'landscape' ? m.cut.filter((c) => !c.startsWith(`${TO_SEAT[0]}:`)) : [];
      expect(listCut.every((c) => c.endsWith('cut by ol.rows'))).toBe(true);
      expect({ ...m, cut: m.cut.filter((c) => !listCut.includes(c)) }).toEqual({
        cut: [],
        panelScrolls: false,
        count: TO_SEAT.length * 3,
      });
      // Each one, brought into view, lies wholly between the top bar and the action bar and is what
      // a tap at its middle reaches.
      const buttons = page.locator('[data-testid=to-seat] button');
      const where = (i: number) =>
        page.evaluate(WHERE_BUTTON.replace('INDEX', String(i))) as Promise<{ text: string; inView: boolean; hit: boolean }>;
      // On a landscape tablet, the first party's as the board opens, without scrolling anything.
      if (size.name === 'landscape')
        for (let i = 0; i < 3; i++) expect(await where(i)).toEqual({ text: (await where(i)).text, inView: true, hit: true });
      for (let i = 0; i < m.count; i++) {
        await buttons.nth(i).scrollIntoViewIfNeeded();
        expect(await where(i)).toEqual({ text: (await where(i)).text, inView: true, hit: true });
      }
      await page.context().close();
    });
  }

  for (const size of SHORT_LANDSCAPES) {
    it(`${size.name} ${size.width}×${size.height}: with both banners and three parties to seat, the queue's first rows are in view without scrolling`, async () => {
      const page = await board(size);
      await screenshot(page, `board-fit-${size.name}-queue`);
      const m = (await page.evaluate(FIRST_ROWS.replace('COUNT', String(size.rows)))) as {
        rows: Array<{ name: string; inView: boolean; hit: boolean }>;
        scrolled: number;
      };
      expect(m.scrolled).toBe(0);
      expect(m.rows).toEqual(
        ['Dee Offered', 'Eve Waiting-Featherstonehaugh'].slice(0, size.rows).map((name) => ({ name, inView: true, hit: true })),
      );
      // "To be seated" keeps its first party whole in view, and every button of it, brought into
      // view (its list scrolls on a short screen), is whole, uncovered and reachable.
      const buttons = page.locator('[data-testid=to-seat] button');
      const where = (i: number) =>
        page.evaluate(WHERE_BUTTON.replace('INDEX', String(i))) as Promise<{ text: string; inView: boolean; hit: boolean }>;
      for (let i = 0; i < 3; i++) expect(await where(i)).toEqual({ text: (await where(i)).text, inView: true, hit: true });
      const count = await buttons.count();
      expect(count).toBe(TO_SEAT.length * 3);
      for (let i = 0; i < count; i++) {
        await buttons.nth(i).scrollIntoViewIfNeeded();
        expect(await where(i)).toEqual({ text: (await where(i)).text, inView: true, hit: true });
      }
      // Scrolling "To be seated" moved nothing else: the queue's first rows are still in view.
      const after = (await page.evaluate(FIRST_ROWS.replace('COUNT', String(size.rows)))) as typeof m;
      expect(after.rows.map((r) => r.inView)).toEqual(m.rows.map(() => true));
      await page.context().close();
    });
  }

  it('two venues of the same name are told apart in the venue list, in small secondary text', async () => {
    for (const size of [SIZES[0], SIZES[2]]) {
      const page = await signedIn(size, owner);
      await screenshot(page, `board-fit-${size.name}-venues`);
      const read = (id: string) =>
        page.evaluate(VENUE_BUTTON.replace('ID', id)) as Promise<{
          name: string;
          where: string | null;
          smaller: boolean;
          inside: boolean;
          whole: boolean;
        }>;
      const a = await read(v.id);
      const b = await read(twin.id);
      expect(a.name).toBe(NAME);
      expect(b.name).toBe(NAME);
      expect(a.where).toContain(v.slug);
      expect(a.where).toContain('America/Chicago');
      expect(b.where).toContain(twin.slug);
      expect(b.where).toContain('Europe/Lisbon');
      expect(a.where).not.toBe(b.where);
      expect([a, b].map((x) => ({ smaller: x.smaller, inside: x.inside, whole: x.whole }))).toEqual([
        { smaller: true, inside: true, whole: true },
        { smaller: true, inside: true, whole: true },
      ]);
      await page.context().close();
    }
  });

  it('an open venue says which of two same-named venues it is: beside the name on a tablet, in the menu on a phone, in the tab title', async () => {
    for (const size of [SIZES[2], SIZES[0]]) {
      const page = await signedIn(size, owner);
      await page.click(`[data-venue-id="${twin.id}"]`);
      await page.getByTestId('title').filter({ hasText: NAME }).waitFor();
      // Polled with page.title(): the page's CSP refuses waitForFunction's evaluated predicate.
      for (let i = 0; i < 100 && !(await page.title()).includes('Lisbon'); i++) await page.waitForTimeout(100);
      expect(await page.title()).toBe(`${NAME} (${twin.slug} · Europe/Lisbon) · hostboard`);
      const detail = page.getByTestId('title-detail');
      if (size.width > 520) {
        expect(await detail.isVisible()).toBe(true);
        expect(await detail.textContent()).toBe(`${twin.slug} · Europe/Lisbon`);
        // The name whole beside a manager's five tabs: the slug and zone give way first.
        expect(
          await page.evaluate(
            `(() => { const e = document.querySelector('[data-testid=title]'); return e.scrollWidth <= e.clientWidth + 1; })()`,
          ),
        ).toBe(true);
        await screenshot(page, `board-fit-${size.name}-title`);
      } else {
        // The name takes the bar's two lines on a phone: the menu says which venue is open.
        expect(await detail.isVisible()).toBe(false);
        await page.getByTestId('menu').click();
        expect(await page.getByTestId('menu-venue').textContent()).toBe(`Open: ${NAME} · ${twin.slug} · Europe/Lisbon`);
        await screenshot(page, `board-fit-${size.name}-title-menu`);
      }
      await page.context().close();
    }
  });
});
