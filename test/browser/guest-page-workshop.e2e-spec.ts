import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import {
  errorOf,
  exchange,
  joined,
  messages,
  moveClock,
  queueSession,
  sandboxVenue,
  type Sandbox,
} from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';
import { describeWithChromium, launchChromium, newPhone, screenshot } from './chromium.js';

/** The page polls every 3 s; a change must show within this. */
const SHOW_BOUND = 10_000;
const T0 = '2026-10-09T14:00:00.000Z'; // 09:00 in Chicago, the worksheet's first review
/** What a restaurant says and a seat pool has not: tables, seating, the host, a meal, a message it never sends. */
const RESTAURANT_WORDS = /\btables?\b|\bseated\b|\bseat you\b|\bhost\b|\bmeal\b|\bmessage you\b|\btext you\b/i;

const d = describeWithChromium('the guest page is tested in a real browser');

d('the guest page at a seat-pool (workshop) venue, on a 390×844 phone, speaks of held seats, not tables', () => {
  let t: TestApp;
  let owner: Staff;
  let browser: Browser;
  let v: Sandbox;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'owner');
    browser = await launchChromium();
    v = await sandboxVenue(t, owner, { clock: T0, preset: 'workshop', poolCapacity: 12 });
  });
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await t.close();
  });

  async function phone(): Promise<Page> {
    const context = await newPhone(browser);
    contexts.push(context);
    return context.newPage();
  }

  const state = (page: Page, s: string) =>
    page.locator(`[data-testid=guest-page][data-state=${s}]`).waitFor({ timeout: SHOW_BOUND });
  const shown = (page: Page): Promise<string> => page.locator('body').innerText();
  const promote = async (): Promise<{ offer: { id: string } | null }> =>
    (await request(t.baseUrl).post(`/v1/venues/${v.id}/promotions`).set(owner.auth).send({}).expect(201)).body as {
      offer: { id: string } | null;
    };

  it('a group waits, is held three seats, accepts its hold and is confirmed: no table, host or message on the way', async () => {
    const group = await joined(t, owner, v.id, {
      name: 'Ada Group',
      partySize: 3,
      email: 'ada@example.test',
      phone: '+13125550160',
    });
    const page = await phone();
    await page.goto(`${t.baseUrl}/q/#${group.queueToken ?? ''}`);
    await state(page, 'waiting');
    expect(await page.getByTestId('party').textContent()).toBe('Ada Group, group of 3');
    expect(await page.getByTestId('state').textContent()).toContain('When seats are held for your whole group');
    expect(await shown(page)).not.toMatch(RESTAURANT_WORDS);

    await promote();
    await state(page, 'offered');
    const offered = await page.getByTestId('state').textContent();
    expect(offered).toContain('3 seats held for your group');
    expect(offered).toContain('Please accept within');
    // The worksheet's 30-minute hold from 09:00 (the simulated clock stands still on a practice venue).
    expect(offered).toContain('the hold expires at 9:30 AM');
    expect(await page.getByTestId('confirm').textContent()).toBe('Accept the hold');
    expect(await shown(page)).not.toMatch(RESTAURANT_WORDS);
    await screenshot(page, 'guest-workshop-held');

    await page.getByTestId('confirm').click();
    await state(page, 'confirmed');
    expect(await page.getByTestId('state').textContent()).toContain('Your 3 seats are confirmed');
    expect(await page.getByTestId('leave').textContent()).toBe('Cancel my seats and leave');
    await page.getByTestId('leave').click();
    expect(await shown(page)).toContain('Cancel your reservation? Your seats will be released to the next group.');
    expect(await page.getByTestId('leave-keep').textContent()).toBe('Keep my seats');
    expect(await shown(page)).not.toMatch(RESTAURANT_WORDS);
    await screenshot(page, 'guest-workshop-confirmed');
    await page.getByTestId('leave-keep').click();
  });

  it('a hold that expires, and one the organizer withdraws, are told in seats; a late accept is refused in seats', async () => {
    const late = await joined(t, owner, v.id, { name: 'Bea Late', partySize: 2, email: 'bea@example.test' });
    const page = await phone();
    await page.goto(`${t.baseUrl}/q/#${late.queueToken ?? ''}`);
    await state(page, 'waiting');
    await promote();
    await state(page, 'offered');
    // Another group, held seats too, opens its session before the holds end and accepts at their expiry instant.
    const tooLate = await joined(t, owner, v.id, { name: 'Eve Too Late', partySize: 1, email: 'eve@example.test' });
    const held = await promote();
    const session = (await exchange(t, tooLate.queueToken ?? '').expect(201)).body as { sessionToken: string };
    await moveClock(t, owner, v.id, '2026-10-09T14:30:00.000Z');
    const refused = await request(t.baseUrl)
      .post('/v1/queue-session/accept')
      .set(queueSession(session.sessionToken))
      .send({ offerId: held.offer?.id })
      .expect(409);
    expect(errorOf(refused)).toMatchObject({
      code: 'WAITLIST_OFFER_EXPIRED',
      message: 'The hold expired and its seats were released.',
    });
    await state(page, 'expired');
    // The workshop policy: an expired group leaves the active queue; rejoining is a new position at the end.
    expect(await page.getByTestId('offer-ended').textContent()).toBe(
      'The hold expired and its seats were released. To join again, ask the organizer; a new request gets a new position at the end of the queue.',
    );
    expect(await shown(page)).not.toMatch(RESTAURANT_WORDS);
    await screenshot(page, 'guest-workshop-expired');

    const withdrawn = await joined(t, owner, v.id, { name: 'Cy Withdrawn', partySize: 1, phone: '+13125550161' });
    const page2 = await phone();
    await page2.goto(`${t.baseUrl}/q/#${withdrawn.queueToken ?? ''}`);
    await state(page2, 'waiting');
    const hold = await promote();
    await state(page2, 'offered');
    expect(await page2.getByTestId('state').textContent()).toContain('1 seat held for your group');
    await request(t.baseUrl).post(`/v1/venues/${v.id}/offers/${hold.offer?.id}/withdraw`).set(owner.auth).send({}).expect(200);
    await state(page2, 'expired');
    expect(await page2.getByTestId('offer-ended').textContent()).toContain('The organizer withdrew the seats held for you.');
    expect(await shown(page2)).not.toMatch(RESTAURANT_WORDS);
  });

  it('a waiting group reads its place in line, which moves up as the groups ahead are confirmed', async () => {
    // A pool of its own (9 seats, Auckland), so the groups of the other cases are not ahead.
    const pool = await sandboxVenue(t, owner, {
      clock: '2026-10-08T20:00:00.000Z',
      preset: 'workshop',
      poolCapacity: 9,
      timeZone: 'Pacific/Auckland',
    });
    const first = await joined(t, owner, pool.id, { name: 'Kea Group', partySize: 4, email: 'kea@example.test' });
    const second = await joined(t, owner, pool.id, { name: 'Tui Group', partySize: 3, email: 'tui@example.test' });
    const third = await joined(t, owner, pool.id, { name: 'Ruru Group', partySize: 2, email: 'ruru@example.test' });
    const page = await phone();
    await page.goto(`${t.baseUrl}/q/#${third.queueToken ?? ''}`);
    await state(page, 'waiting');
    const place = page.getByTestId('place');
    expect(await place.textContent()).toBe('Place in line: 3 (2 groups ahead).');
    const accept = async (group: { queueToken: string | null }): Promise<void> => {
      const held = (await request(t.baseUrl).post(`/v1/venues/${pool.id}/promotions`).set(owner.auth).send({}).expect(201))
        .body as { offer: { id: string } | null };
      const session = (await exchange(t, group.queueToken ?? '').expect(201)).body as { sessionToken: string };
      await request(t.baseUrl)
        .post('/v1/queue-session/accept')
        .set(queueSession(session.sessionToken))
        .send({ offerId: held.offer?.id })
        .expect(200);
    };
    await accept(first);
    await page.getByText('Place in line: 2 (1 group ahead).').waitFor({ timeout: SHOW_BOUND });
    await accept(second);
    await page.getByText('Your group is next in line.').waitFor({ timeout: SHOW_BOUND });
    expect(await shown(page)).not.toMatch(RESTAURANT_WORDS);
    await screenshot(page, 'guest-workshop-place');
  });

  it('a group that leaves reads how to join again in the workshop’s words, also after a reload', async () => {
    const group = await joined(t, owner, v.id, { name: 'Dee Leaves', partySize: 2, email: 'dee@example.test' });
    const page = await phone();
    await page.goto(`${t.baseUrl}/q/#${group.queueToken ?? ''}`);
    await state(page, 'waiting');
    await page.getByTestId('leave').click();
    await page.getByTestId('leave-confirm').click();
    await state(page, 'cancelled');
    expect(await page.getByTestId('state').textContent()).toContain('To join again, ask the organizer');
    await page.reload();
    await page.getByTestId('left').waitFor({ timeout: SHOW_BOUND });
    expect(await page.getByTestId('left').textContent()).toContain('To join again, ask the organizer');
    expect(await shown(page)).not.toMatch(RESTAURANT_WORDS);
  });

  it('the venue recorded no message for its groups, so the page promises none (and none speaks of tables)', async () => {
    const log = await messages(t, owner, v.id);
    for (const m of log) expect(`${m.subject} ${m.body}`).not.toMatch(RESTAURANT_WORDS);
    expect(log).toEqual([]);
  });

  /**
   * A workshop may hold seats for hours (Set up takes up to 1,440 minutes). The page counted them in
   * minutes alone, "123:00" for a two-hour hold and "1440:00" for a day's, while the board showed
   * "2:03:00 left". Past an hour it reads hours, minutes and seconds, as the board does. 7 seats, a
   * 2 h 3 min hold, Oslo time.
   */
  it('a hold of more than an hour counts down in hours, minutes and seconds', async () => {
    const long = await sandboxVenue(t, owner, {
      name: 'Fjord Loom Studio',
      timeZone: 'Europe/Oslo',
      clock: '2026-11-13T10:20:00+01:00',
      preset: 'workshop',
      poolCapacity: 7,
      patch: { policy: { holdSeconds: 7380 } },
    });
    const group = await joined(t, owner, long.id, { name: 'Ingrid Group', partySize: 4, email: 'ingrid@example.test' });
    await request(t.baseUrl).post(`/v1/venues/${long.id}/promotions`).set(owner.auth).send({}).expect(201);
    const page = await phone();
    await page.goto(`${t.baseUrl}/q/#${group.queueToken ?? ''}`);
    await state(page, 'offered');
    const left = page.getByTestId('countdown');
    expect(await left.innerText()).toBe('2:03:00 (practice clock)');
    await moveClock(t, owner, long.id, '2026-11-13T12:22:15+01:00');
    await page.reload();
    await state(page, 'offered');
    expect(await left.innerText()).toBe('0:45 (practice clock)');
    await screenshot(page, 'guest-workshop-long-hold');
  }, 60_000);
});
