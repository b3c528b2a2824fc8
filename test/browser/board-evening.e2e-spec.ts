import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { startApp, type TestApp } from '../support/test-app.js';
import { addMember, signUp, type Staff } from '../support/staff.js';
import { boardLive, signInOnBoard } from './board-page.js';
import { describeWithChromium, launchChromium } from './chromium.js';

/**
 * Issue 15's evening, at each of the three screens: a manager sets a restaurant up from nothing on
 * the page (tables, a combination, service hours, published, queue on), then a host serves an
 * evening on it: a refused-then-corrected join, a walk-in seated in three taps, an offer, a lookup
 * by code that does not spend the code, accepting for the party, seat, move, clear, and the alert
 * when an offer runs out (the practice venue's clock is moved, never slept on). Every step also
 * checks there is no sideways scrolling and no page error; each view is photographed into docs/.
 */
const VIEWPORTS = [
  { name: 'tablet-landscape', width: 1024, height: 768 },
  { name: 'tablet-portrait', width: 768, height: 1024 },
  { name: 'phone', width: 390, height: 844 },
] as const;
const STEP = 8_000;
const SCREENS = join(dirname(fileURLToPath(import.meta.url)), '../../docs/screens');
const TZ = 'America/Chicago';

const d = describeWithChromium('the board page is tested in a real browser');

d('an evening on the board, at three screen sizes', () => {
  let t: TestApp;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    t = await startApp();
    browser = await launchChromium();
    mkdirSync(SCREENS, { recursive: true });
  }, 120_000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
  });

  async function open(vp: (typeof VIEWPORTS)[number], staff: Staff): Promise<Page> {
    const context = await browser.newContext({
      viewport: { width: vp.width, height: vp.height },
      hasTouch: true,
      isMobile: vp.name === 'phone',
      locale: 'en-US',
      timezoneId: TZ,
    });
    contexts.push(context);
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(`${vp.name}: ${e.message}`));
    // The site root leads to the board.
    await signInOnBoard(page, t.baseUrl, staff, '/');
    await page.getByTestId('venues').waitFor({ state: 'attached' });
    return page;
  }

  /** The page is never wider than the screen. */
  async function noSidewaysScroll(page: Page, where: string): Promise<void> {
    const [scroll, inner] = (await page.evaluate('[document.documentElement.scrollWidth, window.innerWidth]')) as [
      number,
      number,
    ];
    expect({ where, scroll }).toEqual({ where, scroll: Math.min(scroll, inner) });
  }

  /** Every visible button is at least 44 px each way (a thumb, not a mouse). */
  async function bigTargets(page: Page, where: string): Promise<void> {
    const small = (await page.evaluate(`[...document.querySelectorAll('button')]
      .filter((b) => b.offsetParent !== null)
      .map((b) => ({ text: b.textContent.trim().slice(0, 30), r: b.getBoundingClientRect() }))
      .filter((x) => x.r.width > 0 && (x.r.width < 44 || x.r.height < 44))
      .map((x) => x.text + ' ' + Math.round(x.r.width) + 'x' + Math.round(x.r.height))`)) as string[];
    expect({ where, small }).toEqual({ where, small: [] });
  }

  /** A picture of the view for docs/, without the confirmations of earlier steps over it. */
  async function shot(page: Page, vp: (typeof VIEWPORTS)[number], name: string, fullPage = false): Promise<void> {
    await page.evaluate(
      `document.querySelectorAll('[data-testid=notice]:not([data-kind=alert]) button').forEach((b) => b.click())`,
    );
    await page.locator('[data-testid=notice]:not([data-kind=alert])').first().waitFor({ state: 'detached' });
    await page.screenshot({ path: join(SCREENS, `${vp.name}-${name}.png`), fullPage });
  }

  const hhmm = (ms: number): string =>
    new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: TZ }).format(new Date(ms));

  for (const vp of VIEWPORTS) {
    it(`${vp.name} ${vp.width}×${vp.height}: a manager sets a restaurant up, a host serves an evening`, async () => {
      const owner = await signUp(t, `evening-${vp.name}`);
      const api = () => request(t.baseUrl);

      // --- The manager, from nothing.
      const m = await open(vp, owner);
      await m.getByTestId('new-venue').click();
      await m.fill('input[name=venueName]', `Linden Bistro ${vp.name}`);
      await m.fill('input[name=timeZone]', TZ);
      await m.check('input[name=practice]');
      await m.getByTestId('create-venue').click();
      await m.getByTestId('setup').waitFor({ timeout: STEP });
      const venueId = /venues\/([0-9a-f-]{36})/.exec(m.url())?.[1] ?? '';
      expect(venueId).not.toBe('');
      // Before anything is set up, the page says why joins would be refused.
      await m.getByTestId('setup-warnings').getByText('No tables are set up yet.').waitFor({ timeout: STEP });
      expect(await m.getByTestId('setup-warnings').locator('strong').textContent()).toBe('Joins are refused now:');
      await noSidewaysScroll(m, 'setup, empty');

      for (const [label, seats] of [
        ['T1', 2],
        ['T2', 4],
        ['T3', 4],
      ] as const) {
        await m.fill('input[name=tableLabel]', label);
        await m.fill('input[name=tableCapacity]', String(seats));
        await m.getByTestId('add-table').click();
        await m.locator('[data-testid=table-line]').nth(['T1', 'T2', 'T3'].indexOf(label)).waitFor({ timeout: STEP });
      }
      await m.locator('[data-combo-table=T2]').click();
      await m.locator('[data-combo-table=T3]').click();
      await m.fill('input[name=comboCapacity]', '8');
      await m.getByTestId('add-combination').click();
      await m.getByTestId('combinations-setup').getByText('seats 8').waitFor({ timeout: STEP });

      const now = Date.now();
      // Hours typed wrong first: the manager removes them (tap, then tap again) and adds the right ones.
      await m.fill('input[name=start]', hhmm(now + 5 * 3_600_000));
      await m.fill('input[name=end]', hhmm(now + 6 * 3_600_000));
      await m.getByTestId('add-window').click();
      await m.getByTestId('window-line').waitFor({ timeout: STEP });
      await m.getByTestId('remove-window').click();
      await m.getByTestId('remove-window').getByText('Tap again to remove').waitFor({ timeout: STEP });
      await m.getByTestId('remove-window').click();
      await m.getByTestId('windows-setup').getByText('No service hours yet.').waitFor({ timeout: STEP });
      await m.fill('input[name=start]', hhmm(now - 3_600_000));
      await m.fill('input[name=end]', hhmm(now + 3 * 3_600_000));
      await m.getByTestId('add-window').click();
      await m.getByTestId('windows-setup').getByText('tables turn in 90 min').waitFor({ timeout: STEP });

      await m.check('input[name=published]');
      await m.check('input[name=queueEnabled]');
      await m.fill('input[name=queuePartyCap]', '8');
      await m.getByTestId('save-settings').click();
      await m.getByTestId('setup-ready').waitFor({ timeout: STEP });

      // Place T1 on the plan: tap it, then tap its spot.
      const t1 = (
        (await api().get(`/v1/venues/${venueId}/tables`).set(owner.auth).expect(200)).body as Array<{ id: string; label: string }>
      ).find((x) => x.label === 'T1')?.id;
      await m.locator(`[data-testid=plan-editor] [data-table-id="${t1}"]`).click();
      // Its top left, clear of the toasts at the bottom of the screen.
      await m.evaluate(`document.querySelector('[data-testid=plan-editor]').scrollIntoView({ block: 'center' })`);
      const plan = await m.getByTestId('plan-editor').boundingBox();
      await m.mouse.click((plan?.x ?? 0) + (plan?.width ?? 0) * 0.15, (plan?.y ?? 0) + (plan?.height ?? 0) * 0.25);
      // The position is saved with the table.
      await m.getByTestId('plan-editor').locator('[aria-pressed=true]').waitFor({ state: 'detached', timeout: STEP });
      const placedT1 = (
        (await api().get(`/v1/venues/${venueId}/tables`).set(owner.auth).expect(200)).body as Array<{
          id: string;
          x: number | null;
          y: number | null;
        }>
      ).find((x) => x.id === t1);
      expect(placedT1?.x).toBeGreaterThanOrEqual(10);
      expect(placedT1?.x).toBeLessThanOrEqual(20);
      expect(placedT1?.y).toBeGreaterThanOrEqual(20);
      expect(placedT1?.y).toBeLessThanOrEqual(30);
      await noSidewaysScroll(m, 'setup, done');
      await bigTargets(m, 'setup');
      await m.evaluate('window.scrollTo(0, 0)');
      await shot(m, vp, 'setup', true);
      const v = (await api().get(`/v1/venues/${venueId}`).set(owner.auth).expect(200)).body as {
        published: boolean;
        queueEnabled: boolean;
        queuePartyCap: number;
      };
      expect(v).toMatchObject({ published: true, queueEnabled: true, queuePartyCap: 8 });

      // --- The host serves the evening.
      const host = await addMember(t, venueId, owner, 'host');
      const h = await open(vp, host);
      await h.click(`[data-venue-id="${venueId}"]`);
      await boardLive(h, STEP);
      // Hosts see only the tabs they can open: the floor first, none of the managers' tabs (a tab
      // for everyone, like Staff, may follow).
      const tabs: string[] = [];
      for (const tab of await h.locator('[data-tab]').all()) tabs.push((await tab.getAttribute('data-tab')) ?? '');
      expect(tabs[0]).toBe('floor');
      expect(tabs.filter((tab) => ['messages', 'setup', 'reports'].includes(tab))).toEqual([]);
      // A venue set up as above has no reason to refuse a join: the board tells its host none. The
      // banner comes from the venue's own read, which may answer after the board is live (the count,
      // taken before it, was 0 whatever the venue): it is taken once the page has the venue (its
      // slug and zone in the top bar come from the same read).
      await h.getByTestId('title-detail').waitFor({ state: 'attached', timeout: STEP });
      expect(await h.getByTestId('join-warnings').count()).toBe(0);
      const table = (label: string) => h.locator('[data-testid=table]', { hasText: label });
      const row = (name: string) => h.locator('[data-testid=entry]', { hasText: name });

      // A join refused (no contact), then corrected: a fresh request, not a trap.
      await h.getByTestId('open-join').click();
      await h.fill('input[name=name]', 'Dorothy Vaughan');
      await h.getByTestId('join-submit').click();
      await h
        .getByTestId('join-error')
        .filter({ hasText: 'A queue party needs an email or a phone number.' })
        .waitFor({ timeout: STEP });
      await shot(h, vp, 'join-refused');
      // A typo in the number: its own hint, and the refusal about the contact is gone with the change.
      await h.fill('input[name=phone]', '12');
      await h.locator('input[name=name]').click();
      await h.locator('.field-error[data-testid=phone-hint]').waitFor({ timeout: STEP });
      expect(await h.getByTestId('join-error').count()).toBe(0);
      await h.fill('input[name=phone]', '+1 312 555 0123');
      await h.getByTestId('join-submit').click();
      const card = h.getByTestId('token-card');
      await card.waitFor({ timeout: STEP });
      const token = (await h.getByTestId('queue-token').getAttribute('data-token')) ?? '';
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(await h.getByTestId('queue-token').locator('span').count()).toBe(Math.ceil(token.length / 4));
      // A stray tap outside does not close it.
      await h.mouse.click(3, 3);
      expect(await card.isVisible()).toBe(true);
      await shot(h, vp, 'token-card');
      await h.getByTestId('token-done').click();
      await row('Dorothy Vaughan').waitFor({ timeout: STEP });

      // A walk-in at a free table, in three taps: the table, one more person, Seat now.
      await table('T2').click();
      await h.getByTestId('walkInSize-more').click();
      await h.getByTestId('seat-now').click();
      await h.locator('[data-testid=table][data-state=occupied]', { hasText: 'T2' }).waitFor({ timeout: STEP });
      await table('T2').getByTestId('turn').filter({ hasText: 'of 90 min' }).waitFor({ timeout: STEP });
      const seated = (await api().get(`/v1/venues/${venueId}/reservations`).set(owner.auth).expect(200)).body as Array<{
        partySize: number;
        state: string;
      }>;
      expect(seated).toEqual([expect.objectContaining({ partySize: 3, state: 'SEATED' })]);

      // Offer: the picker greys out the table in use and says why.
      await row('Dorothy Vaughan').getByTestId('offer-tables').click();
      const picker = h.getByTestId('table-picker');
      await picker.waitFor();
      const t2 = picker.locator('.table-pick', { hasText: 'T2' });
      expect(await t2.isDisabled()).toBe(true);
      expect(await t2.textContent()).toContain('is seated here');
      await picker.locator('.table-pick', { hasText: 'T3' }).click();
      await shot(h, vp, 'picker');
      await h.getByTestId('picker-submit').click();
      await h.locator('[data-testid=table][data-state=held]', { hasText: 'T3' }).waitFor({ timeout: STEP });
      await h.locator('[data-testid=entry][data-status=offered]', { hasText: 'Dorothy Vaughan' }).waitFor({ timeout: STEP });
      await noSidewaysScroll(h, 'board with an offer');
      await bigTargets(h, 'board');
      await shot(h, vp, 'board');

      // The party shows its code at the desk: found without using it up, accepted for them.
      await h.getByTestId('open-lookup').click();
      await h.fill('input[name=token]', token.replace(/(.{4})/g, '$1 '));
      await h.getByTestId('lookup-submit').click();
      await h.getByTestId('found').waitFor({ timeout: STEP });
      expect(await h.getByTestId('found-status').textContent()).toContain('a table is offered');
      expect(await h.locator('[data-testid=entry].opened', { hasText: 'Dorothy Vaughan' }).count()).toBe(1);
      await api().post(`/v1/venues/${venueId}/queue/lookup`).set(owner.auth).send({ token }).expect(200);
      await shot(h, vp, 'lookup');
      await h.getByTestId('found-accept').click();
      await h.getByTestId('found').getByText('their place is confirmed').waitFor({ timeout: STEP });
      await h.getByTestId('found').getByRole('button', { name: 'Done' }).click();
      // Still the party's: the code was not spent by the desk.
      await api().post(`/v1/venues/${venueId}/queue/lookup`).set(owner.auth).send({ token }).expect(200);

      // Seat, move, clear.
      await h.locator('[data-testid=table][data-state=booked]', { hasText: 'T3' }).click();
      await h.getByTestId('table-sheet').getByTestId('seat').click();
      await h.locator('[data-testid=table][data-state=occupied]', { hasText: 'T3' }).waitFor({ timeout: STEP });
      await table('T3').click();
      await h.getByTestId('move').click();
      await h.getByTestId('table-picker').locator('.table-pick', { hasText: 'T3' }).click();
      await h.getByTestId('table-picker').locator('.table-pick', { hasText: 'T1' }).click();
      await h.getByTestId('picker-submit').click();
      await h.locator('[data-testid=table][data-state=occupied]', { hasText: 'T1' }).waitFor({ timeout: STEP });
      await h.locator('[data-testid=table][data-state=free]', { hasText: 'T3' }).waitFor({ timeout: STEP });
      await table('T1').click();
      const clear = h.getByTestId('table-sheet').getByTestId('clear');
      await clear.click();
      await clear.click();
      await h.locator('[data-testid=table][data-state=free]', { hasText: 'T1' }).waitFor({ timeout: STEP });

      // Notes and tags on a party, then an offer that runs out: the host is told, the party is back in line.
      await api()
        .post(`/v1/venues/${venueId}/queue`)
        .set(owner.auth)
        .send({ name: 'Grace Hopper', partySize: 4, email: 'grace@example.test' })
        .expect(201);
      await row('Grace Hopper').getByTestId('entry-more').click();
      await h.locator('[data-testid=entry-sheet] [data-tag=wheelchair]').click();
      await h.fill('input[name=note]', 'Step-free entrance');
      await h.getByTestId('entry-save').click();
      await row('Grace Hopper').getByTestId('entry-details').getByText('Wheelchair').waitFor({ timeout: STEP });
      await row('Grace Hopper').getByTestId('offer-tables').click();
      await h.getByTestId('table-picker').locator('.table-pick', { hasText: 'T3' }).click();
      await h.getByTestId('picker-submit').click();
      await h.locator('[data-testid=entry][data-status=offered]', { hasText: 'Grace Hopper' }).waitFor({ timeout: STEP });
      const clock = ((await api().get(`/v1/venues/${venueId}`).set(owner.auth).expect(200)).body as { clock: string }).clock;
      await api()
        .post(`/v1/venues/${venueId}/clock`)
        .set(owner.auth)
        .send({ now: new Date(Date.parse(clock) + 6 * 60_000).toISOString() })
        .expect(200);
      await h
        .locator('[data-testid=notice][data-kind=alert]', {
          hasText: 'The table offer to Grace Hopper ran out. They are back in line.',
        })
        .waitFor({ timeout: STEP });
      await h.locator('[data-testid=entry][data-status=waiting]', { hasText: 'Grace Hopper' }).waitFor({ timeout: STEP });
      await noSidewaysScroll(h, 'after the lapse');
      await shot(h, vp, 'lapse-alert');

      // The manager's floor and messages.
      await m.locator('[data-tab=floor]').click();
      await m.getByTestId('board').waitFor({ timeout: STEP });
      await m.locator('[data-tab=messages]').click();
      await m.getByTestId('message').first().waitFor({ timeout: STEP });
      await noSidewaysScroll(m, 'messages');
      await shot(m, vp, 'messages');
      expect(errors).toEqual([]);
    }, 180_000);
  }
});
