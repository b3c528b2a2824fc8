import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { EVERY_DAY, moveClock, sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';
import { signInToVenueList } from './board-page.js';
import { describeWithChromium, launchChromium, screenshot } from './chromium.js';

const d = describeWithChromium('the back office is tested in a real browser');

/** The sizes a manager reads the back office at: a phone, and the desk's tablet. */
const SIZES = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'tablet', width: 1024, height: 768 },
] as const;

/** Fri Oct 9 2026, 18:00 in Chicago. */
const T0 = Date.parse('2026-10-09T23:00:00.000Z');
const PARTIES = 8;

/**
 * What a manager reads on Messages and Reports, at a phone's and a tablet's size, after an evening of
 * joins and offers (a review with screenshots of such an evening): the words on the screen are a
 * manager's, and nothing needs a sideways swipe nobody would guess.
 */
d('the back office in a manager’s words, on a phone and a tablet', () => {
  let t: TestApp;
  let browser: Browser;
  let owner: Staff;
  let v: Sandbox;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    t = await startApp();
    browser = await launchChromium();
    owner = await signUp(t, 'words');
    v = await sandboxVenue(t, owner, {
      clock: new Date(T0).toISOString(),
      windows: [{ days: EVERY_DAY, start: '17:00', end: '23:00', turnMinutes: 90 }],
      tables: Array.from({ length: PARTIES }, (_, i) => ({ label: `T${i + 1}`, capacity: i % 2 === 0 ? 2 : 4 })),
    });
    const joined: Array<{ id: string; version: number }> = [];
    for (let i = 0; i < PARTIES; i++) {
      const r = await request(t.baseUrl)
        .post(`/v1/venues/${v.id}/queue`)
        .set(owner.auth)
        .send({ name: `Guest ${i}`, partySize: i % 2 === 0 ? 2 : 4, phone: `+1312555${String(200 + i).padStart(4, '0')}` })
        .expect(201);
      joined.push((r.body as { entry: { id: string; version: number } }).entry);
    }
    // Twenty minutes later every party is offered a table; half leave while offered.
    await moveClock(t, owner, v.id, new Date(T0 + 20 * 60_000).toISOString());
    for (const [i, e] of joined.entries()) {
      await request(t.baseUrl)
        .post(`/v1/venues/${v.id}/offers`)
        .set(owner.auth)
        .send({ entryId: e.id, entryVersion: e.version, tableIds: [v.tableIds[`T${i + 1}`]] })
        .expect(201);
      if (i % 2 === 1) await request(t.baseUrl).post(`/v1/venues/${v.id}/queue/${e.id}/cancel`).set(owner.auth).expect(200);
    }
    // One text the provider refused for good (the relay's path to it is tested in outbox-delivery).
    await t.app.get<DataSource>(getDataSourceToken()).query(
      `UPDATE outbox_messages SET status = 'failed', failure_reason = 'the provider refused the number'
          WHERE id = (SELECT id FROM outbox_messages WHERE venue_id = $1 ORDER BY created_at DESC, id DESC OFFSET 2 LIMIT 1)`,
      [v.id],
    );
  }, 300_000);

  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await t?.close();
  });

  async function open(size: (typeof SIZES)[number], tab: string): Promise<Page> {
    const context = await browser.newContext({
      viewport: { width: size.width, height: size.height },
      hasTouch: true,
      isMobile: size.name === 'phone',
      locale: 'en-US',
    });
    contexts.push(context);
    const p = await context.newPage();
    await signInToVenueList(p, t.baseUrl, owner, v.id);
    await p.goto(`${t.baseUrl}/board/venues/${v.id}/${tab}`);
    return p;
  }

  it('Reports on a phone: the table by daypart and party size fits the screen, no column hidden past its edge', async () => {
    const p = await open(SIZES[0], 'reports');
    await p.getByTestId('breakdown').waitFor();
    const frame = (await p.evaluate(
      `(() => { const f = document.querySelector('.breakdown-frame'); return { scroll: f.scrollWidth, client: f.clientWidth }; })()`,
    )) as { scroll: number; client: number };
    expect(frame.scroll).toBeLessThanOrEqual(frame.client);
    // Its figures stay whole: "+520.0" is not broken over two lines.
    const broken = (await p.evaluate(
      `[...document.querySelectorAll('[data-testid=breakdown] td')].filter((td) => td.children.length > 0 && [...td.children].some((s) => s.getClientRects().length > 1)).length`,
    )) as number;
    expect(broken).toBe(0);
    await p.getByTestId('breakdown').scrollIntoViewIfNeeded();
    await screenshot(p, 'backoffice-words-breakdown-phone');
  }, 60_000);

  it('on a phone the venue’s whole name is in the top bar, on two lines, and the bar grows no taller', async () => {
    const name = 'Harbor & Vine Bistro at the Old Pier';
    await request(t.baseUrl).patch(`/v1/venues/${v.id}`).set(owner.auth).send({ name }).expect(200);
    try {
      for (const tab of ['messages', 'reports', 'setup', 'staff']) {
        const p = await open(SIZES[0], tab);
        await p.getByTestId('title').filter({ hasText: name }).waitFor();
        const title = (await p.evaluate(
          `(() => { const h = document.querySelector('[data-testid=title]'); const menu = document.querySelector('[data-testid=menu]').getBoundingClientRect(); const b = h.getBoundingClientRect(); return { cut: h.scrollWidth > h.clientWidth + 1 || h.scrollHeight > h.clientHeight + 1, lines: Math.round(b.height / parseFloat(getComputedStyle(h).lineHeight)), taller: b.height > menu.height + 0.5 }; })()`,
        )) as { cut: boolean; lines: number; taller: boolean };
        expect([tab, title]).toEqual([tab, { cut: false, lines: 2, taller: false }]);
        if (tab === 'messages') await screenshot(p, 'backoffice-words-title-phone');
      }
    } finally {
      await request(t.baseUrl).patch(`/v1/venues/${v.id}`).set(owner.auth).send({ name: 'The Test Kitchen' }).expect(200);
    }
  }, 120_000);

  it('Set up on a phone: Published does not promise guests a page to join from, which the pilot does not have', async () => {
    // The spec's "Pilot reality: this pilot has no public queue page for guests. The join command
    // itself is public": publishing opens that command; guests' phones find nothing to join from.
    const p = await open(SIZES[0], 'setup');
    const published = p
      .locator('label')
      .filter({ has: p.locator('input[type=checkbox]') })
      .first();
    await published.waitFor();
    const label = (await published.textContent()) ?? '';
    expect(label).toContain('Published');
    expect(label).not.toMatch(/phones?/);
    expect(label).toContain('the public join adds to the queue without the desk');
    const warnings = (await p.getByTestId('setup-warnings').textContent()) ?? '';
    expect(warnings).not.toMatch(/phones?/);
    expect(warnings).toContain('The venue is not published: the public join is refused; only the desk adds to the queue.');
    await screenshot(p, 'backoffice-words-published-phone');
  }, 60_000);

  it('Messages: Not delivered with nothing to show says "undelivered", the filter’s word, not "failed"', async () => {
    const p = await open(SIZES[0], 'messages');
    await p.getByTestId('message').first().waitFor();
    // A number no message went to: with no provider set up, every message recorded for a party's
    // number is itself undelivered ("Not delivered" lists what will never be sent, too).
    await p.getByTestId('messages-recipient').fill('(312) 555-0299');
    await p.getByTestId('messages-find').click();
    await p.getByTestId('messages-failed-only').click();
    await p.locator('.empty').waitFor();
    expect(await p.locator('.empty').textContent()).toBe('No undelivered messages to (312) 555-0299.');
  }, 60_000);

  it('Staff: adding someone whose invitation is still open says the new one replaces it, and as what', async () => {
    const email = 'pat.invited@example.test';
    const first = await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/members`)
      .set(owner.auth)
      .send({ email, name: 'Pat', role: 'manager' })
      .expect(201);
    expect((first.body as { outcome: string }).outcome).toBe('invited');
    const p = await open(SIZES[0], 'staff');
    const form = p.getByTestId('add-member');
    // The open invitations are read with the tab: the form knows Pat's role once they are listed.
    await p.locator(`[data-testid=invitation][data-email="${email}"]`).waitFor();
    await form.locator('input[type=email]').fill(email);
    // The form starts on the role of the open invitation; the manager picks host on purpose here.
    expect(await form.getByTestId('add-member-role').inputValue()).toBe('manager');
    await form.getByTestId('add-member-role').selectOption('host');
    await form.locator('button[type=submit]').click();
    await p.getByTestId('members-note').getByTestId('invitation-link').waitFor();
    expect(await p.getByTestId('members-note').locator('p').first().textContent()).toContain(
      'It replaces the invitation sent earlier as manager, whose link no longer works.',
    );
    const open_ = (await request(t.baseUrl).get(`/v1/venues/${v.id}/invitations`).set(owner.auth).expect(200)).body as Array<{
      email: string;
      role: string;
    }>;
    expect(open_.filter((i) => i.email === email).map((i) => i.role)).toEqual(['host']);
    await screenshot(p, 'backoffice-words-staff-replaced-phone');
  }, 60_000);

  for (const size of SIZES) {
    describe(`${size.name} ${size.width}×${size.height}`, () => {
      it('Reports: the switch between the models says "mean error", as the cards do, not "MAE"', async () => {
        const p = await open(size, 'reports');
        await p.getByTestId('report-summary').waitFor();
        const turns = (await p.getByTestId('choose-turns').textContent()) ?? '';
        const mae = (await p.getByTestId('mae-turns').textContent()) ?? '';
        expect(turns).toBe(`Formula (turns) · mean error ${mae}`);
        expect(await p.getByTestId('choose-floor').textContent()).toBe(
          `Floor-aware · mean error ${(await p.getByTestId('mae-floor').textContent()) ?? ''}`,
        );
        expect(await p.locator('main').textContent()).not.toContain('MAE');
        await screenshot(p, `backoffice-words-reports-${size.name}`);
      }, 60_000);

      it('Reports: the dates of the report read as dates ("Oct 9, 2026"), not "2026-10-09"', async () => {
        const p = await open(size, 'reports');
        await p.getByTestId('report-summary').waitFor();
        const summary = (await p.getByTestId('report-summary').textContent()) ?? '';
        // The default range: the four weeks to the venue's today (its practice clock's Oct 9).
        expect(summary).toMatch(/^\d+ parties offered a table between Sep 12, 2026 and Oct 9, 2026; /);
        expect(summary).not.toMatch(/\d{4}-\d{2}-\d{2}/);
      }, 60_000);

      it('Messages: each message’s status in the words of the filter: "will not be sent" with no provider, "not delivered: why"', async () => {
        const p = await open(size, 'messages');
        await p.getByTestId('message').first().waitFor();
        const statuses = await p.getByTestId('message-status').allTextContents();
        expect(statuses.length).toBeGreaterThan(PARTIES);
        expect(statuses.filter((s) => s === 'not delivered: the provider refused the number')).toHaveLength(1);
        // No text provider is set up in this app: a manager is told the texts will not be sent, not
        // "not sent yet" for ever.
        expect(statuses.filter((s) => s === 'not sent yet')).toEqual([]);
        expect(statuses.filter((s) => s === 'will not be sent')).toHaveLength(statuses.length - 1);
        // Why, once above the list: on every row it wrapped to two lines of small type on a phone.
        expect(await p.getByTestId('messages-no-provider').allTextContents()).toEqual([
          'No text message provider is set up, so texts are only recorded here: they will not be sent.',
        ]);
        await screenshot(p, `backoffice-words-messages-${size.name}`);
      }, 60_000);
    });
  }
});
