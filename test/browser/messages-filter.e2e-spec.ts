import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import request from 'supertest';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { EVERY_DAY, sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';
import { signInToVenueList } from './board-page.js';
import { describeWithChromium, launchChromium, newTablet, screenshot } from './chromium.js';

const d = describeWithChromium('the Messages tab is tested in a real browser');

/** 55 parties join and leave: 110 messages, more than the first page (100) holds. */
const PARTIES = 55;

/**
 * The Messages tab's list shows only messages that match the filter on screen. A page of older
 * messages still on its way when the manager changed the filter was added to the new filter's list:
 * "Not delivered" then listed a hundred delivered ones under the one that failed.
 */
d('the Messages tab and its filters, in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let owner: Staff;
  let v: Sandbox;
  let failedId = '';
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    t = await startApp();
    browser = await launchChromium();
    owner = await signUp(t, 'messages');
    v = await sandboxVenue(t, owner, {
      clock: '2026-10-09T23:00:00.000Z',
      windows: [{ days: EVERY_DAY, start: '17:00', end: '23:00', turnMinutes: 60 }],
      tables: [{ label: 'T1', capacity: 4 }],
    });
    for (let i = 0; i < PARTIES; i++) {
      const r = await request(t.baseUrl)
        .post(`/v1/venues/${v.id}/queue`)
        .set(owner.auth)
        .send({ name: `Guest ${i}`, partySize: 2, email: `guest-${i}@example.test` })
        .expect(201);
      const entryId = (r.body as { entry: { id: string } }).entry.id;
      await request(t.baseUrl).post(`/v1/venues/${v.id}/queue/${entryId}/cancel`).set(owner.auth).expect(200);
    }
    // Delivered, as a provider would have left them (with none set up, "Not delivered" lists every
    // message: none left the building), then one email the provider refused for good (the relay's
    // path to it is tested in outbox-delivery).
    const ds = t.app.get<DataSource>(getDataSourceToken());
    await ds.query(`UPDATE outbox_messages SET status = 'sent', sent_at = now() WHERE venue_id = $1`, [v.id]);
    const [rows] = (await ds.query(
      `UPDATE outbox_messages SET status = 'failed', failure_reason = 'the provider refused the address'
        WHERE id = (SELECT id FROM outbox_messages WHERE venue_id = $1 ORDER BY created_at DESC, id DESC OFFSET 3 LIMIT 1)
        RETURNING id`,
      [v.id],
    )) as [Array<{ id: string }>, number];
    failedId = rows[0]?.id ?? '';
  }, 300_000);

  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await t?.close();
  });

  async function messagesTab(): Promise<Page> {
    const context = await newTablet(browser);
    contexts.push(context);
    const p = await context.newPage();
    await signInToVenueList(p, t.baseUrl, owner, v.id);
    await p.goto(`${t.baseUrl}/board/venues/${v.id}/messages`);
    await p.getByTestId('message').nth(99).waitFor();
    return p;
  }

  /** Holds the next older page's request (`before=`) until released: a slow network, on purpose. */
  async function holdOlderPage(p: Page): Promise<{ held: Promise<Route>; release: () => Promise<void> }> {
    let gotRoute: (r: Route) => void = () => undefined;
    const held = new Promise<Route>((resolve) => (gotRoute = resolve));
    await p.route(
      (url) => url.pathname.endsWith('/messages') && url.searchParams.has('before'),
      (route) => gotRoute(route),
    );
    return {
      held,
      release: async () => {
        const route = await held;
        const answered = p.waitForResponse((r) => r.url() === route.request().url());
        await route.continue();
        await (await answered).finished();
        // What the page does with it: its promise callbacks, then a render.
        await p.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
      },
    };
  }

  const shown = (p: Page): Promise<Array<{ id: string; status: string; to: string }>> =>
    p.evaluate(
      `[...document.querySelectorAll('[data-testid=message]')].map((m) => ({ id: m.dataset.id, status: m.dataset.status, to: m.querySelector('[data-testid=message-to]').textContent }))`,
    ) as Promise<Array<{ id: string; status: string; to: string }>>;

  /**
   * Polls an expression with page.evaluate until it holds. Not waitForFunction: its string predicate
   * is run through eval inside the page, which the page's CSP (no 'unsafe-eval') refused in a CI run;
   * page.evaluate goes through the DevTools protocol, which the CSP does not govern.
   */
  const until = async (p: Page, expression: string, ms = 15_000): Promise<void> => {
    const end = Date.now() + ms;
    while (!(await p.evaluate(expression))) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${expression}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  it('older messages of All arriving after Not delivered was chosen are not added to it', async () => {
    const p = await messagesTab();
    const older = await holdOlderPage(p);
    await p.getByTestId('messages-older').click();
    await older.held;
    await p.getByTestId('messages-failed-only').click();
    // The failed one alone, as read for Not delivered (not the All list emptied while it loads).
    await until(p, `document.querySelectorAll('[data-testid=message]').length === 1`);
    await older.release();
    await screenshot(p, 'messages-filter-changed-while-older-loading');
    expect(await shown(p)).toEqual([{ id: failedId, status: 'failed', to: expect.stringContaining('to Guest') as string }]);
    // And the button is not left reading forever: All again, then its older page, at once.
    await p.unrouteAll();
    await p.getByTestId('messages-all').click();
    await p.getByTestId('message').nth(99).waitFor();
    await p.getByTestId('messages-older').click();
    await p
      .getByTestId('message')
      .nth(2 * PARTIES - 1)
      .waitFor();
    expect(await p.getByTestId('message').count()).toBe(2 * PARTIES);
  }, 120_000);

  it('older messages of All arriving after a guest was searched for are not added to the guest’s', async () => {
    const p = await messagesTab();
    const older = await holdOlderPage(p);
    await p.getByTestId('messages-older').click();
    await older.held;
    await p.getByTestId('messages-recipient').fill('GUEST-7@example.test');
    await p.getByTestId('messages-find').click();
    await until(
      p,
      `(() => { const to = [...document.querySelectorAll('[data-testid=message-to]')].map((e) => e.textContent); return to.length === 2 && to.every((x) => x.includes('Guest 7 (')); })()`,
    );
    await older.release();
    const rows = await shown(p);
    expect(rows.map((r) => r.to.split(' · ')[0])).toEqual([
      'to Guest 7 (guest-7@example.test)',
      'to Guest 7 (guest-7@example.test)',
    ]);
  }, 120_000);
  it('a message’s time is the venue’s, and none is given before the page knows the venue’s zone', async () => {
    const context = await newTablet(browser);
    contexts.push(context);
    const p = await context.newPage();
    // The tab reads the messages itself, the venue (its time zone) in reads of its own: the last of
    // those answers only when the test says, here after the messages are on screen (a loaded server).
    let venueRead: () => void = () => undefined;
    const venueAnswers = new Promise<void>((r) => (venueRead = r));
    await p.route(new RegExp(`/v1/venues/${v.id}/service-windows$`), async (route) => {
      await venueAnswers;
      await route.continue();
    });
    await signInToVenueList(p, t.baseUrl, owner, v.id);
    await p.goto(`${t.baseUrl}/board/venues/${v.id}/messages`);
    const newest = p.getByTestId('message').first();
    await newest.waitFor();
    // This device's zone (UTC here) would give a time five hours off the venue's.
    expect(await newest.getByTestId('message-to').textContent()).not.toContain(' · ');
    venueRead();
    const id = await newest.getAttribute('data-id');
    const venue = (await request(t.baseUrl).get(`/v1/venues/${v.id}`).set(owner.auth).expect(200)).body as { timeZone: string };
    const listed = (await request(t.baseUrl).get(`/v1/venues/${v.id}/messages`).set(owner.auth).expect(200)).body as Array<{
      id: string;
      createdAt: string;
    }>;
    const createdAt = listed.find((m) => m.id === id)?.createdAt ?? '';
    const at = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: venue.timeZone }).format(
      new Date(createdAt),
    );
    await newest
      .getByTestId('message-to')
      .filter({ hasText: ` · ${at}` })
      .waitFor();
  });
});
