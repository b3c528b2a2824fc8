import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { joined, sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';
import { boardLive, openVenueBoard, signInToVenueList } from './board-page.js';
import { describeWithChromium, launchChromium, newPhone, pauseClock, screenshot } from './chromium.js';

/**
 * What testers found at phone size: the desk's join form kept a server refusal beside the hint of
 * the field the host was already fixing; a hold of 25½ minutes read "1530 seconds" in its messages
 * (and "26" on Set up); and a guest holding the phone sideways (640×360) had to scroll to reach
 * the offer's Confirm.
 */
const STEP = 8_000;
/** The guest page polls every 3 s; an offer must show within this. */
const SHOW_BOUND = 10_000;
const T0 = '2026-10-09T23:00:00.000Z'; // 6 PM in Chicago

const d = describeWithChromium('the board and guest pages are tested in a real browser');

d('the desk, the hold length and the guest’s offer at phone size', () => {
  let t: TestApp;
  let owner: Staff;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'screens-owner');
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
  });
  afterEach(() => expect(errors.splice(0)).toEqual([]));

  const venue = (patch: Record<string, unknown> = {}): Promise<Sandbox> =>
    sandboxVenue(t, owner, {
      clock: T0,
      windows: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '17:00', end: '23:59', turnMinutes: 30 }],
      tables: [
        { label: 'T1', capacity: 2 },
        { label: 'T2', capacity: 4 },
      ],
      published: true,
      patch,
    });

  async function phone(size: { width: number; height: number } = { width: 390, height: 844 }): Promise<Page> {
    const context = await newPhone(browser, size);
    contexts.push(context);
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    return page;
  }

  async function signedIn(v: Sandbox, tab = ''): Promise<Page> {
    const page = await phone();
    await signInToVenueList(page, t.baseUrl, owner, v.id, STEP);
    if (tab) await page.goto(`${t.baseUrl}/board/venues/${v.id}/${tab}`);
    else await page.click(`[data-venue-id="${v.id}"]`);
    return page;
  }

  const shot = async (page: Page, name: string): Promise<void> => {
    const path = await screenshot(page, `screens-${name}`);
    mkdirSync('/tmp/screens-shots', { recursive: true });
    await page.screenshot({ path: `/tmp/screens-shots/${name}.png` });
    expect(path).toContain(name);
  };

  it('390×844: the server’s refusal clears when the host changes what it was about, and a resubmit shows only the current answer', async () => {
    const v = await venue();
    const h = await signedIn(v);
    await boardLive(h, STEP);
    await h.getByTestId('open-join').click();
    const refusal = h.getByTestId('join-error');
    const hint = h.getByTestId('phone-hint');

    // No contact: refused by the server, about the contact.
    await h.fill('input[name=name]', 'Dorothy Vaughan');
    await h.getByTestId('join-submit').click();
    await refusal.filter({ hasText: 'A queue party needs an email or a phone number.' }).waitFor({ timeout: STEP });
    // The host types a number (a typo): the refusal was about the contact, which has changed.
    await h.fill('input[name=phone]', '12');
    await h.locator('input[name=name]').click();
    await h.locator('.field-error[data-testid=phone-hint]').waitFor({ timeout: STEP });
    await shot(h, 'join-typo');
    expect(await refusal.count()).toBe(0);
    // Submitting the typo answers with the number's own hint only.
    await h.getByTestId('join-submit').click();
    expect(await refusal.count()).toBe(0);
    expect(await hint.getAttribute('class')).toBe('field-error');

    // The number fixed, a party no table seats (within the cap of 8, which the stepper keeps to):
    // refused about the party size.
    const unseatable = 'No table or approved combination here seats a party of 6; the largest seats 4.';
    await h.fill('input[name=phone]', '+1 312 555 0123');
    await h.fill('input[name=partySize]', '6');
    await h.locator('input[name=name]').click();
    await h.getByTestId('join-submit').click();
    await refusal.filter({ hasText: unseatable }).waitFor({ timeout: STEP });
    // Changing the phone does not answer it: it stays.
    await h.fill('input[name=phone]', '+1 312 555 0124');
    expect(await refusal.textContent()).toBe(unseatable);
    expect(await hint.getAttribute('class')).toBe('muted hint');
    await shot(h, 'join-size-refused');
    // One fewer: what it was about has changed, so it goes.
    await h.getByTestId('partySize-less').click();
    expect(await refusal.count()).toBe(0);
    await shot(h, 'join-size-fixed');
    // A size the tables seat: joined.
    await h.fill('input[name=partySize]', '4');
    await h.locator('input[name=name]').click();
    await h.getByTestId('join-submit').click();
    await h.getByTestId('token-card').waitFor({ timeout: STEP });
  });

  it('390×844: a hold of 25½ minutes reads "25 minutes 30 seconds" in its messages and on Set up, never "1530 seconds"', async () => {
    const v = await venue({ policy: { holdSeconds: 1530 } });
    const j = await joined(t, owner, v.id, {
      name: 'Hedy Lamarr',
      partySize: 2,
      phone: '+13125550188',
      email: 'hedy@example.test',
    });
    await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/offers`)
      .set(owner.auth)
      .send({ entryId: j.entry.id, entryVersion: j.entry.version, tableIds: [v.tableIds['T1']] })
      .expect(201);

    const m = await signedIn(v, 'messages');
    const ready = m.locator('[data-testid=message][data-template=table-ready]');
    await ready.nth(1).waitFor({ timeout: STEP });
    const bodies = await ready.locator('pre.body').allTextContents();
    expect(bodies).toHaveLength(2);
    for (const body of bodies) {
      expect(body).toMatch(/confirm within 25 minutes 30 seconds\b/);
      expect(body).not.toContain('1530');
    }
    await ready.first().scrollIntoViewIfNeeded();
    await shot(m, 'hold-messages');

    await m.goto(`${t.baseUrl}/board/venues/${v.id}/setup`);
    await m.getByTestId('settings').waitFor({ timeout: STEP });
    expect(await m.locator('input[name=holdMinutes]').inputValue()).toBe('25');
    expect(await m.getByTestId('hold-now').textContent()).toBe(
      'Held now for 25 minutes 30 seconds; a change here sets whole minutes.',
    );
    await m.locator('input[name=holdMinutes]').scrollIntoViewIfNeeded();
    await shot(m, 'hold-setup');
    // Changed here, it is whole minutes; the old length's words go.
    await m.getByTestId('holdMinutes-more').click();
    expect(await m.getByTestId('hold-now').count()).toBe(0);
  });

  it('390×844: one confirmation of the host’s own acts at a time, so none covers the row the host is acting on', async () => {
    const v = await venue();
    await joined(t, owner, v.id, { name: 'Alan Turing', partySize: 3, email: 'alan@example.test' });
    const h = await phone();
    // The toasts' fade (3.5 s) runs only when the test says: three acts in a row, however slow the machine.
    await h.clock.install();
    await openVenueBoard(h, t.baseUrl, owner, v.id);
    await boardLive(h, STEP);
    await pauseClock(h, 1_000);
    const own = h.locator('[data-testid=notice][data-kind=ok]');

    const row = h.locator('[data-testid=entry]', { hasText: 'Alan Turing' });
    await row.getByTestId('offer-tables').click();
    await h.locator(`.table-pick[data-table-id="${v.tableIds['T2'] ?? ''}"]`).click();
    await h.getByTestId('picker-submit').click();
    await own.filter({ hasText: 'Table offered to Alan Turing.' }).waitFor({ timeout: STEP });
    await row.getByTestId('accept').click();
    await own.filter({ hasText: 'Alan Turing accepted: to be seated.' }).waitFor({ timeout: STEP });
    expect(await own.allTextContents()).toEqual(['Alan Turing accepted: to be seated.OK']);
    // No-show asks for a second tap: the question is on the screen, not under the toasts.
    const party = h.locator('[data-testid=to-seat-party]', { hasText: 'Alan Turing' });
    const noShow = party.getByTestId('to-seat-no-show');
    await noShow.click();
    await noShow.filter({ hasText: 'Tap again: no-show' }).waitFor({ timeout: STEP });
    await shot(h, 'no-show-asks');
    const reached = (await h.evaluate(`(() => {
      const e = document.querySelector('[data-testid=to-seat-no-show]');
      const r = e.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return hit !== null && e.contains(hit);
    })()`)) as boolean;
    expect(reached).toBe(true);
    await noShow.click();
    await party.waitFor({ state: 'detached', timeout: STEP });
    expect(await own.allTextContents()).toEqual(['Alan Turing marked as a no-show; T2 released.OK']);
  });

  for (const size of [
    { width: 640, height: 360 },
    { width: 360, height: 640 },
    { width: 568, height: 320 },
  ]) {
    it(`${size.width}×${size.height}: the guest sees the offer and its Confirm without scrolling`, async () => {
      // A venue's name and a party's name as long as real ones get.
      const v = await venue({ name: 'Linden Bistro & Wine Bar on Halsted' });
      const j = await joined(t, owner, v.id, { name: 'Katherine Coleman Goble Johnson', partySize: 2, phone: '+13125550189' });
      await request(t.baseUrl)
        .post(`/v1/venues/${v.id}/offers`)
        .set(owner.auth)
        .send({ entryId: j.entry.id, entryVersion: j.entry.version, tableIds: [v.tableIds['T1']] })
        .expect(201);
      const g = await phone(size);
      await g.goto(`${t.baseUrl}/q/#${j.queueToken ?? ''}`);
      await g.locator('[data-testid=guest-page][data-state=offered]').waitFor({ timeout: SHOW_BOUND });
      await shot(g, `guest-offer-${size.width}x${size.height}`);
      const seen = (await g.evaluate(`(() => {
        const box = (e) => { const r = e.getBoundingClientRect(); return { top: r.top, bottom: r.bottom }; };
        const state = document.querySelector('[data-testid=state]');
        return {
          scrollY: window.scrollY,
          height: window.innerHeight,
          title: box(state.querySelector('h2')),
          deadline: box(state.querySelector('p')),
          confirm: box(document.querySelector('[data-testid=confirm]')),
          venue: box(document.querySelector('[data-testid=venue]')),
        };
      })()`)) as Record<string, { top: number; bottom: number }> & { scrollY: number; height: number };
      expect(seen.scrollY).toBe(0);
      for (const k of ['venue', 'title', 'deadline', 'confirm'] as const)
        expect({ k, top: seen[k].top >= 0, bottom: seen[k].bottom <= seen.height }).toEqual({ k, top: true, bottom: true });
      await g.getByTestId('confirm').click();
      await g.locator('[data-testid=guest-page][data-state=confirmed]').waitFor({ timeout: SHOW_BOUND });
    });
  }
});
