import type { Browser, Page } from 'playwright-core';
import request from 'supertest';
import { startApp, type TestApp } from '../support/test-app.js';
import { sandboxVenue } from '../support/restaurant.js';
import { signUp, type Staff } from '../support/staff.js';
import { openVenueBoard } from './board-page.js';
import { describeWithChromium, launchChromium, newPhone, newTablet, screenshot } from './chromium.js';

const d = describeWithChromium('the workshop set-up is tested in a real browser');

/**
 * A workshop's Set up, as its organizer reads it. At a seat pool valid group sizes are 1 to the
 * number of seats (the guide's rule; the server ignores `queuePartyCap` there), yet the form showed
 * the restaurant's "Largest party that may join" (8 by default): an organizer who set it to 4 saw a
 * group of 10 join all the same. The form says the rule that applies, and speaks of seats held for a
 * group, not of a table held for a party.
 */
d('a workshop’s Set up says the group sizes it takes', () => {
  let t: TestApp;
  let browser: Browser;
  let owner: Staff;
  let venueId: string;

  beforeAll(async () => {
    t = await startApp();
    browser = await launchChromium();
    owner = await signUp(t, 'organizer');
    venueId = (
      await sandboxVenue(t, owner, {
        name: 'Juniper Hall',
        preset: 'workshop',
        poolCapacity: 17,
        timeZone: 'Asia/Kathmandu',
        clock: '2026-12-10T14:10:00+05:45',
      })
    ).id;
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function setup(): Promise<Page> {
    const page = await (await newTablet(browser)).newPage();
    await openVenueBoard(page, t.baseUrl, owner, venueId);
    await page.goto(`${t.baseUrl}/board/venues/${venueId}/setup`);
    await page.getByTestId('settings').waitFor();
    return page;
  }

  it('shows no party-size cap that the seat pool would ignore, and says the sizes allowed', async () => {
    const page = await setup();
    const form = page.getByTestId('settings');
    expect(await form.locator('input[name=queuePartyCap]').count()).toBe(0);
    expect(await form.getByTestId('group-sizes').textContent()).toBe(
      'Groups of 1 to 17 people may join (the seats in all); a group is never split.',
    );
    expect(await form.textContent()).toContain('Minutes seats are held for a group');
    expect(await form.textContent()).not.toContain('a table is held');
    // Who is next, as the promotion decides it at a seat pool: nobody picks by hand.
    expect(await form.locator('fieldset.choice label').allTextContents()).toEqual([
      'The oldest group that fits (an older, larger group may be passed over)',
      'Strictly in order: only the oldest group, never skipped (seats may stay free until it fits)',
    ]);
    await screenshot(page, 'workshop-setup');
    // The server refuses a cap at a seat pool, and takes a group of 10 of its 17 seats.
    await request(t.baseUrl).patch(`/v1/venues/${venueId}`).set(owner.auth).send({ queuePartyCap: 4 }).expect(400);
    await request(t.baseUrl).post(`/v1/venues/${venueId}/queue`).set(owner.auth).send({ name: 'Ten', partySize: 10 }).expect(201);
    await page.context().close();
  }, 120_000);

  it('follows a changed number of seats in the sizes it states', async () => {
    // Its own venue: the first case's group fixed the first venue's policy.
    venueId = (
      await sandboxVenue(t, owner, {
        preset: 'workshop',
        poolCapacity: 17,
        timeZone: 'Asia/Kathmandu',
        clock: '2026-12-10T14:10:00+05:45',
      })
    ).id;
    const page = await setup();
    await page.fill('input[name=poolCapacity]', '9');
    expect(await page.getByTestId('group-sizes').textContent()).toBe(
      'Groups of 1 to 9 people may join (the seats in all); a group is never split.',
    );
    await page.context().close();
  }, 120_000);

  /**
   * The server now refuses `queuePartyCap` at a seat pool (it applies none), so the workshop form must
   * never send it: an organizer changing the seats, the hold and the venue's name together, then
   * switching the queue off, saves each time, and no request carries a cap.
   */
  it('saves the seats, the hold and the name without ever sending a party cap', async () => {
    const venue = await sandboxVenue(t, owner, {
      name: 'Kōwhai Room',
      preset: 'workshop',
      poolCapacity: 11,
      timeZone: 'Pacific/Chatham',
      clock: '2026-12-10T23:40:00+13:45',
    });
    const page = await (await newTablet(browser)).newPage();
    const sent: Array<Record<string, unknown>> = [];
    page.on('request', (r) => {
      if (r.method() === 'PATCH' && r.url().endsWith(`/v1/venues/${venue.id}`))
        sent.push(r.postDataJSON() as Record<string, unknown>);
    });
    await openVenueBoard(page, t.baseUrl, owner, venue.id);
    await page.goto(`${t.baseUrl}/board/venues/${venue.id}/setup`);
    const form = page.getByTestId('settings');
    await form.waitFor();
    await page.fill('input[name=poolCapacity]', '13');
    await page.fill('input[name=holdMinutes]', '7');
    await page.fill('input[name=venueName]', 'Kōwhai Room, evening');
    const patched = (): Promise<number> =>
      page
        .waitForResponse((r) => r.request().method() === 'PATCH' && r.url().endsWith(`/v1/venues/${venue.id}`))
        .then((r) => r.status());
    let answer = patched();
    await page.getByTestId('save-settings').click();
    expect(await answer).toBe(200);
    await page.locator('.toast', { hasText: 'Settings saved.' }).waitFor();
    await page.getByTestId('group-sizes').filter({ hasText: 'Groups of 1 to 13 people' }).waitFor();
    await page.uncheck('input[name=queueEnabled]');
    answer = patched();
    await page.getByTestId('save-settings').click();
    expect(await answer).toBe(200);
    expect(await form.locator('[role=alert]').count()).toBe(0);

    expect(sent).toEqual([
      { name: 'Kōwhai Room, evening', policy: { holdSeconds: 420, poolCapacity: 13 } },
      { queueEnabled: false },
    ]);
    const read = (await request(t.baseUrl).get(`/v1/venues/${venue.id}`).set(owner.auth).expect(200)).body as {
      name: string;
      queueEnabled: boolean;
      queuePartyCap: number;
      policy: { holdSeconds: number; poolCapacity: number };
    };
    expect(read).toMatchObject({ name: 'Kōwhai Room, evening', queueEnabled: false, queuePartyCap: 13 });
    expect(read.policy).toMatchObject({ holdSeconds: 420, poolCapacity: 13 });
    await page.context().close();
  }, 120_000);

  /**
   * Once a group has joined, the pool's seats, hold and order are fixed (the guide: the policy is chosen
   * and communicated before registration). Set up still offered them as steppers and choices: a changed
   * hold was refused "The policy is fixed once registration has opened." with the whole save, so a new
   * name or the queue switched off in the same save was lost too. They now read as fixed.
   */
  it('shows a pool’s policy as fixed once a group has joined, and saves the rest', async () => {
    const venue = await sandboxVenue(t, owner, {
      name: 'Kōwhai Room',
      preset: 'workshop',
      poolCapacity: 13,
      timeZone: 'America/St_Johns',
      clock: '2026-12-10T23:20:00-03:30',
      patch: { policy: { holdSeconds: 420 } },
    });
    await request(t.baseUrl)
      .post(`/v1/venues/${venue.id}/queue`)
      .set(owner.auth)
      .send({ name: 'Ngaio', partySize: 4 })
      .expect(201);
    const page = await (await newTablet(browser)).newPage();
    await openVenueBoard(page, t.baseUrl, owner, venue.id);
    await page.goto(`${t.baseUrl}/board/venues/${venue.id}/setup`);
    const form = page.getByTestId('settings');
    await form.getByTestId('policy-fixed').waitFor();
    expect(await form.getByTestId('policy-fixed').innerText()).toBe(
      'Fixed once registration opened: 13 seats in all, groups of 1 to 13; seats held for a group 7 minutes; strictly in order (only the oldest group, never skipped).',
    );
    for (const field of ['poolCapacity', 'holdMinutes', 'order'])
      expect(await form.locator(`input[name=${field}]`).count()).toBe(0);

    await page.fill('input[name=venueName]', 'Kōwhai Room, evening');
    await page.uncheck('input[name=queueEnabled]');
    await page.getByTestId('save-settings').click();
    await page.locator('.toast', { hasText: 'Settings saved.' }).waitFor();
    expect(await form.locator('[role=alert]').count()).toBe(0);
    const read = (await request(t.baseUrl).get(`/v1/venues/${venue.id}`).set(owner.auth).expect(200)).body as {
      name: string;
      queueEnabled: boolean;
    };
    expect(read).toMatchObject({ name: 'Kōwhai Room, evening', queueEnabled: false });
    await screenshot(page, 'workshop-setup-fixed');
    await page.context().close();
  }, 120_000);
  /**
   * Set up opened before the first group joined offers the seats, hold and order for editing. A group
   * then joins from another device; the organizer, on a 390×844 phone, renames the venue, switches the
   * queue off and lengthens the hold, and saves. The server refuses the hold ("The policy is fixed once
   * registration has opened."), and with it the whole save: the new name and the queue switch were
   * lost until the page was reloaded. Now the form reads the venue again, states the policy as fixed,
   * says plainly why the hold was not changed, and saves the name and the queue switch.
   */
  it('keeps the other edits when a group joins while the policy is being edited, and then states it as fixed', async () => {
    const venue = await sandboxVenue(t, owner, {
      name: 'Rimu Hall',
      preset: 'workshop',
      poolCapacity: 13,
      timeZone: 'Europe/Lisbon',
      clock: '2026-12-10T09:10:00Z',
      patch: { policy: { holdSeconds: 420 } },
    });
    const context = await newPhone(browser);
    const page = await context.newPage();
    await openVenueBoard(page, t.baseUrl, owner, venue.id);
    await page.goto(`${t.baseUrl}/board/venues/${venue.id}/setup`);
    const form = page.getByTestId('settings');
    await form.locator('input[name=holdMinutes]').waitFor();
    expect(await form.getByTestId('policy-fixed').count()).toBe(0);

    await page.fill('input[name=venueName]', 'Rimu Hall, upstairs');
    await page.uncheck('input[name=queueEnabled]');
    await page.fill('input[name=holdMinutes]', '11');
    // The first group joins from the desk's tablet while this form is open.
    await request(t.baseUrl)
      .post(`/v1/venues/${venue.id}/queue`)
      .set(owner.auth)
      .send({ name: 'Kahu', partySize: 6 })
      .expect(201);

    await page.getByTestId('save-settings').click();
    const kept = form.getByTestId('policy-kept');
    await kept.waitFor({ timeout: 10_000 });
    expect(await kept.innerText()).toBe(
      'A group has joined since this page opened, so the seats, hold and order are now fixed: your change to them was not saved. Your other changes were saved.',
    );
    expect(await form.getByTestId('policy-fixed').innerText()).toBe(
      'Fixed once registration opened: 13 seats in all, groups of 1 to 13; seats held for a group 7 minutes; strictly in order (only the oldest group, never skipped).',
    );
    for (const field of ['poolCapacity', 'holdMinutes', 'order'])
      expect(await form.locator(`input[name=${field}]`).count()).toBe(0);
    // No refusal is left standing over the form: what was refused is said above, the rest was saved.
    expect(await form.locator('[role=alert]').count()).toBe(0);
    expect(await form.locator('input[name=venueName]').inputValue()).toBe('Rimu Hall, upstairs');
    expect(await form.locator('input[name=queueEnabled]').isChecked()).toBe(false);
    await kept.scrollIntoViewIfNeeded();
    await screenshot(page, 'workshop-setup-fixed-while-open-phone');

    const read = (await request(t.baseUrl).get(`/v1/venues/${venue.id}`).set(owner.auth).expect(200)).body as {
      name: string;
      queueEnabled: boolean;
      policyFixed: boolean;
      policy: { holdSeconds: number; poolCapacity: number };
    };
    expect(read).toMatchObject({ name: 'Rimu Hall, upstairs', queueEnabled: false, policyFixed: true });
    expect(read.policy).toMatchObject({ holdSeconds: 420, poolCapacity: 13 });

    // A later save sends no policy: switching the queue back on saves at once.
    await page.check('input[name=queueEnabled]');
    await page.getByTestId('save-settings').click();
    await page.locator('.toast', { hasText: 'Settings saved.' }).waitFor();
    await kept.waitFor({ state: 'detached' });
    expect(
      ((await request(t.baseUrl).get(`/v1/venues/${venue.id}`).set(owner.auth).expect(200)).body as { queueEnabled: boolean })
        .queueEnabled,
    ).toBe(true);
    await context.close();
  }, 120_000);
  /**
   * A workshop's Set up at 390×844 and 1280×800, as its organizer reads it: its service hours asked for
   * "Minutes a table is used per party" and "Deposit required for bookings" and listed a window as
   * "tables turn in 90 min" (a pool quotes a place in line, never minutes, and books no table: neither
   * setting decides anything there), and it said parties where the rest of its page says groups. The
   * page never runs wider than the screen.
   */
  for (const size of [
    { name: 'phone', width: 390, height: 844 },
    { name: 'desktop', width: 1280, height: 800 },
  ]) {
    it(`${size.name} ${size.width}×${size.height}: speaks of groups, not tables, turns, deposits or parties`, async () => {
      const venue = await sandboxVenue(t, owner, {
        name: 'Tōtara Studio',
        preset: 'workshop',
        poolCapacity: 13,
        timeZone: 'America/Regina',
        clock: '2026-12-10T10:20:00-06:00',
        patch: { policy: { holdSeconds: 420 }, published: true },
      });
      const context =
        size.width < 600 ? await newPhone(browser, size) : await browser.newContext({ viewport: size, locale: 'en-US' });
      const page = await context.newPage();
      await openVenueBoard(page, t.baseUrl, owner, venue.id);
      await page.goto(`${t.baseUrl}/board/venues/${venue.id}/setup`);
      const windows = page.getByTestId('windows-setup');
      await windows.waitFor();
      expect(await windows.locator('input[name=turnMinutes]').count()).toBe(0);
      expect(await windows.innerText()).not.toMatch(/minutes|deposit/i);
      await page.fill('input[name=start]', '09:00');
      await page.fill('input[name=end]', '12:30');
      await page.getByTestId('add-window').click();
      await windows.getByTestId('window-line').waitFor();
      expect((await windows.getByTestId('window-line').innerText()).split('\n')[0]).toBe(
        'Mon Tue Wed Thu Fri Sat Sun · 09:00–12:30',
      );
      await page.getByTestId('setup-ready').waitFor();
      const text = await page.getByTestId('setup').innerText();
      expect(text).not.toMatch(/\btables?\b|\bpart(y|ies)\b/i);
      expect(text).toContain('Ready: groups can join now.');
      expect(text).toContain('Queue on (groups can join)');
      expect(await page.evaluate('document.scrollingElement.scrollWidth - innerWidth')).toBeLessThanOrEqual(0);
      await screenshot(page, `workshop-setup-words-${size.name}`);

      // The board's queue is searched for a group too.
      await page.goto(`${t.baseUrl}/board/venues/${venue.id}`);
      await page.locator('[data-testid=connection][data-state=live]').waitFor();
      expect(await page.locator('input[name=search]').getAttribute('placeholder')).toBe('Find a group');
      await context.close();
    }, 120_000);
  }
});
