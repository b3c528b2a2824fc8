import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { joined, sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';
import { openVenueBoard } from './board-page.js';
import { describeWithChromium, launchChromium, newPhone, pauseClock as pauseClockAhead, screenshot } from './chromium.js';

/** The page polls every 3 s; an offer must show within this. */
const SHOW_BOUND = 10_000;
const T0 = '2026-10-09T23:00:00.000Z'; // 6 PM in Chicago

const d = describeWithChromium('the guest page is tested in a real browser');

d('the guest queue page at /q/ on a 390×844 phone', () => {
  let t: TestApp;
  let owner: Staff;
  let browser: Browser;
  let v: Sandbox;
  const contexts: BrowserContext[] = [];
  /** Every URL any phone asked for: the token must never be in one. */
  const urls: string[] = [];

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'owner');
    browser = await launchChromium();
    v = await sandboxVenue(t, owner, {
      clock: T0,
      windows: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '17:00', end: '23:59', turnMinutes: 30 }],
      tables: [
        { label: 'T1', capacity: 2 },
        { label: 'T2', capacity: 4 },
      ],
    });
  });
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await t.close();
  });

  async function phone(): Promise<Page> {
    const context = await newPhone(browser);
    contexts.push(context);
    const page = await context.newPage();
    page.on('request', (r) => urls.push(r.url()));
    return page;
  }

  const state = (page: Page, s: string) =>
    page.locator(`[data-testid=guest-page][data-state=${s}]`).waitFor({ timeout: SHOW_BOUND });

  const entryOf = async (id: string) => {
    const res = await request(t.baseUrl).get(`/v1/venues/${v.id}/queue`).set(owner.auth).expect(200);
    return (res.body as { entries: Array<{ id: string; status: string; version: number }> }).entries.find((e) => e.id === id);
  };

  it('a party opens its link, sees its state without spending the token, receives an offer live and confirms it', async () => {
    const party = await joined(t, owner, v.id, { name: 'Ada Phone', partySize: 2, phone: '+13125550150' });
    const token = party.queueToken ?? '';
    const page = await phone();
    await page.clock.install();
    await page.goto(`${t.baseUrl}/q/#${token}`);
    await state(page, 'waiting');
    await pauseClock(page);
    expect(await page.getByTestId('venue').textContent()).toBe('The Test Kitchen');
    expect(await page.getByTestId('party').textContent()).toBe('Ada Phone, party of 2');
    // The restaurant spec: the position is stated once, at join time; nothing later re-promises it.
    expect(await page.getByTestId('place').count()).toBe(0);
    // The fragment is wiped from the address bar once the page has kept the token.
    expect(page.url()).toBe(`${t.baseUrl}/q/`);
    await screenshot(page, 'guest-waiting');

    // Waiting spent nothing: the token still reads (and would still open a session).
    await request(t.baseUrl).post('/v1/queue-status').send({ token }).expect(200);

    // The host offers a table: the page shows it without a reload, with its countdown.
    const entry = await entryOf(party.entry.id);
    await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/offers`)
      .set(owner.auth)
      .send({ entryId: party.entry.id, entryVersion: entry?.version, tableIds: [v.tableIds['T1']] })
      .expect(201);
    await page.clock.runFor(3_100);
    await state(page, 'offered');
    // A practice venue's clock stands still until a manager moves it: so does the countdown (it used to
    // run on the phone's clock and jump back to 5:00 at every read), and it says why.
    const left = async (): Promise<number> => Number(await page.getByTestId('countdown').getAttribute('data-left-ms'));
    expect(await left()).toBe(5 * 60_000);
    // The phone's clock moves 1.5 s (its 250 ms countdown timer runs six times): the countdown does not.
    await page.clock.runFor(1_500);
    expect(await left()).toBe(5 * 60_000);
    expect(await page.getByTestId('countdown').textContent()).toBe('5:00 (practice clock)');
    expect(await page.getByTestId('state').textContent()).toContain('the offer expires at 6:05 PM');
    await screenshot(page, 'guest-offered');

    await page.getByTestId('confirm').click();
    await state(page, 'confirmed');
    await screenshot(page, 'guest-confirmed');
    const reservations = (await request(t.baseUrl).get(`/v1/venues/${v.id}/reservations`).set(owner.auth).expect(200))
      .body as Array<{
      entryId?: string;
      state: string;
    }>;
    expect(reservations.find((r) => r.entryId === party.entry.id)?.state).toBe('CONFIRMED');
    // The act spent the token: it reads nothing now; the page goes on with its session.
    await request(t.baseUrl).post('/v1/queue-status').send({ token }).expect(401);

    // A message's link (the page without a token) opens this party's page on this phone (the page's
    // clock runs with real time again: a page loaded under a paused one runs no timer, nor Preact's effects).
    await page.clock.resume();
    await page.goto(`${t.baseUrl}/q/`);
    await state(page, 'confirmed');
  });

  it('another party leaves from its page', async () => {
    const party = await joined(t, owner, v.id, { name: 'Bea Leaves', partySize: 4, email: 'bea@example.test' });
    const page = await phone();
    await page.goto(`${t.baseUrl}/q/#${party.queueToken ?? ''}`);
    await state(page, 'waiting');
    await page.getByTestId('leave').click();
    await screenshot(page, 'guest-leave-ask');
    await page.getByTestId('leave-confirm').click();
    await state(page, 'cancelled');
    expect(await entryOf(party.entry.id)).toBeUndefined();
    await screenshot(page, 'guest-left');

    // Leaving ended its session and link with the entry: opened again, the page still says the party
    // left (not that its link broke), and how to come back.
    await page.reload();
    await state(page, 'left');
    expect(await page.getByTestId('left').textContent()).toBe('You have left the queueTo join again, ask at the desk.');
    // A new link from the desk, opened on the same phone, opens the new place.
    const back = await joined(t, owner, v.id, { name: 'Bea Returns', partySize: 4, email: 'bea-back@example.test' });
    const opened = await page.context().newPage();
    await opened.goto(`${t.baseUrl}/q/#${back.queueToken ?? ''}`);
    await state(opened, 'waiting');
    expect(await opened.getByTestId('guest-page').textContent()).toContain('Bea Returns');
  });

  it('a replaced or expired link, and a page opened without one, show the way back', async () => {
    const party = await joined(t, owner, v.id, { name: 'Cy Replaced', partySize: 2, email: 'cy@example.test' });
    const page = await phone();
    await page.clock.install();
    await page.goto(`${t.baseUrl}/q/#${party.queueToken ?? ''}`);
    await state(page, 'waiting');
    await pauseClock(page);
    // The desk gives the party a new link: the old one stops working on the next read.
    await request(t.baseUrl).post(`/v1/venues/${v.id}/queue/${party.entry.id}/token`).set(owner.auth).send({}).expect(201);
    await page.clock.runFor(3_100);
    await state(page, 'gone');
    await screenshot(page, 'guest-gone');
    // The desk gives a new code only to a party still queued; one that left is added again.
    expect(await page.getByTestId('gone').textContent()).toContain('or adds you again if you are no longer in it');

    const fresh = await phone();
    await fresh.goto(`${t.baseUrl}/q/`);
    await state(fresh, 'no-link');
    expect(await fresh.getByTestId('no-link').textContent()).toMatch(/ask at the desk for a new queue link/i);

    // A link cut short in the middle of an escape: not a blank page, the same way back.
    const cut = await phone();
    await cut.goto(`${t.baseUrl}/q/#${(party.queueToken ?? '').slice(0, 20)}%E0%A4%A`);
    await state(cut, 'gone');
  });

  it('a link for another party takes this phone off its own place only if the party says so; a new link of its own is followed', async () => {
    const mine = await joined(t, owner, v.id, { name: 'Dee Own', partySize: 2, email: 'dee@example.test' });
    const other = await joined(t, owner, v.id, { name: 'Eve Sent', partySize: 4, email: 'eve@example.test' });
    const page = await phone();
    const tab = async (path: string): Promise<Page> => {
      // A link opened from a message: a new tab on the same phone (the same kept place).
      const p = await page.context().newPage();
      await p.goto(`${t.baseUrl}${path}`);
      return p;
    };
    const partyOn = async (p: Page): Promise<string | null> => {
      await state(p, 'waiting');
      return p.getByTestId('party').textContent();
    };
    await page.goto(`${t.baseUrl}/q/#${mine.queueToken ?? ''}`);
    expect(await partyOn(page)).toBe('Dee Own, party of 2');

    // Someone sends Dee a link to another entry: the page asks, and keeps Dee's place if told to.
    const sent = await tab(`/q/#${other.queueToken ?? ''}`);
    await state(sent, 'choose');
    const asked = (await sent.getByTestId('choose').textContent()) ?? '';
    expect(asked).toContain('Dee Own, party of 2');
    expect(asked).toContain('Eve Sent, party of 4');
    await screenshot(sent, 'guest-choose');
    await sent.getByTestId('keep-mine').click();
    expect(await partyOn(sent)).toBe('Dee Own, party of 2');
    expect(await partyOn(await tab('/q/'))).toBe('Dee Own, party of 2');

    // The desk gives Dee a new link (the old one is replaced): followed without a question.
    const fresh = (await request(t.baseUrl).post(`/v1/venues/${v.id}/queue/${mine.entry.id}/token`).set(owner.auth).expect(201))
      .body as { queueToken: string };
    expect(await partyOn(await tab(`/q/#${fresh.queueToken}`))).toBe('Dee Own, party of 2');

    // A party that chooses the other link follows it from then on.
    const chosen = await tab(`/q/#${other.queueToken ?? ''}`);
    await chosen.getByTestId('follow-link').click();
    expect(await partyOn(chosen)).toBe('Eve Sent, party of 4');
    expect(await partyOn(await tab('/q/'))).toBe('Eve Sent, party of 4');
  });

  it('the board marks a party its messages do not reach, and the Messages tab shows channel and status', async () => {
    const party = await joined(t, owner, v.id, { name: 'Dee Unreached', partySize: 2, phone: '+13125550160' });
    // The provider's refusal, as the relay records it (the relay itself is tested in sms-relay).
    await t.app
      .get<DataSource>(getDataSourceToken())
      .query(`UPDATE outbox_messages SET status = 'failed', failure_reason = '400: unreachable' WHERE entry_id = $1`, [
        party.entry.id,
      ]);
    const context = await browser.newContext({ viewport: { width: 1024, height: 768 }, hasTouch: true, locale: 'en-US' });
    contexts.push(context);
    const tablet = await context.newPage();
    await openVenueBoard(tablet, t.baseUrl, owner, v.id);
    await tablet
      .locator(`[data-testid=entry][data-entry-id="${party.entry.id}"] [data-testid=reach][data-reach=failed]`)
      .waitFor({ timeout: SHOW_BOUND });
    await screenshot(tablet, 'board-reach-failed');

    await tablet.getByRole('button', { name: 'Messages' }).click();
    const failed = tablet.locator('[data-testid=message][data-channel=sms][data-status=failed]');
    await failed.first().waitFor({ timeout: SHOW_BOUND });
    expect(await failed.locator('[data-testid=message-channel]').first().textContent()).toBe('Text');
    expect(await failed.locator('[data-testid=message-status]').first().textContent()).toBe('not delivered: 400: unreachable');
    expect(await tablet.locator('[data-testid=message][data-channel=email]').count()).toBeGreaterThan(0);
    await screenshot(tablet, 'messages-channels');
  });

  /** The board, signed in as the owner, on a screen of this size. */
  async function board(width: number, height: number): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height }, hasTouch: true, locale: 'en-US' });
    contexts.push(context);
    const page = await context.newPage();
    await openVenueBoard(page, t.baseUrl, owner, v.id);
    return page;
  }

  it('the QR on the token card holds the queue link, and Find by code takes that link back', async () => {
    const tablet = await board(1024, 768);
    await tablet.getByTestId('open-join').click();
    await tablet.fill('input[name=name]', 'Eli Scanned');
    await tablet.fill('input[name=partySize]', '2');
    await tablet.fill('input[name=email]', 'eli@example.test');
    await tablet.getByTestId('join-submit').click();
    const token = (await tablet.getByTestId('queue-token').getAttribute('data-token')) ?? '';
    const snapshot = (await request(t.baseUrl).get(`/v1/venues/${v.id}/board`).set(owner.auth).expect(200)).body as {
      queuePage?: string | null;
    };
    const link = `${snapshot.queuePage ?? `${t.baseUrl}/q/`}#${token}`;
    expect(await tablet.getByTestId('token-qr').getAttribute('data-link')).toBe(link);
    await tablet.locator('[data-testid=token-qr] svg').waitFor();
    // The card says what each is for: the page has no field to paste a code into, the desk does.
    expect(await tablet.getByTestId('token-card').textContent()).toContain(
      'The party scans the square to follow its place; the code finds them under Find by code.',
    );
    await tablet.getByTestId('token-done').click();

    // What a scanner reads off that QR (or a host pastes): the whole link, not just the code.
    await tablet.getByTestId('open-lookup').click();
    await tablet.fill('input[name=token]', link);
    await tablet.getByTestId('lookup-submit').click();
    await tablet.getByTestId('found').waitFor({ timeout: SHOW_BOUND });
    expect(await tablet.getByTestId('found-status').textContent()).toContain('waiting in line');
  });

  it('the Messages tab reads older pages after the Link header, newest first, each message once', async () => {
    const all = (await request(t.baseUrl).get(`/v1/venues/${v.id}/messages?limit=500`).set(owner.auth).expect(200))
      .body as Array<{ id: string }>;
    expect(all.length).toBeGreaterThan(4);
    const tablet = await board(1024, 768);
    // Pages of two (the server's own paging, with a smaller page than its default), so the
    // button has older pages to follow; the Link header carries the limit on.
    await tablet.route(/\/v1\/venues\/[^/]+\/messages$/, (route) => route.continue({ url: `${route.request().url()}?limit=2` }));
    await tablet.locator('[data-tab=messages]').click();
    await tablet.getByTestId('message').nth(1).waitFor({ timeout: SHOW_BOUND });
    for (let pages = 1; await tablet.getByTestId('messages-older').isVisible(); pages++) {
      expect(pages).toBeLessThan(all.length);
      await tablet.getByTestId('messages-older').click();
      await tablet
        .getByTestId('message')
        .nth(Math.min(all.length, (pages + 1) * 2) - 1)
        .waitFor({ timeout: SHOW_BOUND });
    }
    const shown: Array<string | null> = [];
    for (const el of await tablet.getByTestId('message').all()) shown.push(await el.getAttribute('data-id'));
    expect(shown).toEqual(all.map((m) => m.id));
  });

  it('on a 390×844 phone the floor shows the reach marker without anything running off the side', async () => {
    const page = await board(390, 844);
    const marker = page.locator('[data-testid=entry] [data-testid=reach][data-reach=failed]').first();
    await marker.waitFor({ timeout: SHOW_BOUND });
    // This venue turns away public joins (not published) and parties larger than its tables, and
    // takes every other join: the warnings say "some", not that joins are refused.
    expect(await page.getByTestId('join-warnings').locator('strong').textContent()).toBe('Some joins refused:');
    await screenshot(page, 'board-phone-reach');
    const box = await marker.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    const [scroll, inner] = (await page.evaluate('[document.documentElement.scrollWidth, window.innerWidth]')) as [
      number,
      number,
    ];
    expect(scroll).toBeLessThanOrEqual(inner);
  });

  it('a party that taps Confirm just after its offer ran out is told so, and the page keeps saying it', async () => {
    const party = await joined(t, owner, v.id, { name: 'Late Tap', partySize: 2, phone: '+13125550152' });
    const page = await phone();
    // The page's timers (its 3 s poll) run only when the test says: the tap must come before the
    // page has read that the offer ended, as when a guest taps in the last moment.
    await page.clock.install();
    await page.goto(`${t.baseUrl}/q/#${party.queueToken ?? ''}`);
    await state(page, 'waiting');
    await pauseClock(page);
    const entry = await entryOf(party.entry.id);
    await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/offers`)
      .set(owner.auth)
      .send({ entryId: party.entry.id, entryVersion: entry?.version, tableIds: [v.tableIds['T2']] })
      .expect(201);
    await page.clock.runFor(3_100);
    await state(page, 'offered');
    const clock = ((await request(t.baseUrl).get(`/v1/venues/${v.id}`).set(owner.auth).expect(200)).body as { clock: string })
      .clock;
    await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/clock`)
      .set(owner.auth)
      .send({ now: new Date(Date.parse(clock) + 6 * 60_000).toISOString() })
      .expect(200);
    await page.getByTestId('confirm').click();
    await state(page, 'waiting');
    // Said once, in the party's state (not again as an error under it: guest-phone-only).
    const ended = page.getByTestId('offer-ended');
    expect(await ended.textContent()).toContain('The offer expired and its table was released.');
    expect(await page.getByTestId('problem').count()).toBe(0);
    // Polls that find nothing new leave it there.
    await page.clock.runFor(6_200);
    expect(await ended.textContent()).toContain('The offer expired and its table was released.');
    await screenshot(page, 'guest-confirm-after-lapse');
  });

  /** A venue of its own, so moving its clock or its policy leaves the other tests' venue alone. */
  const ownVenue = (onOfferExpired: 'keep-place' | 'leave-queue'): Promise<Sandbox> =>
    sandboxVenue(t, owner, {
      clock: T0,
      windows: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '17:00', end: '23:59', turnMinutes: 30 }],
      tables: [{ label: 'T1', capacity: 4 }],
      patch: { policy: { onOfferExpired } },
    });
  const offerT1 = async (venue: Sandbox, entryId: string): Promise<string> => {
    const entry = (
      (await request(t.baseUrl).get(`/v1/venues/${venue.id}/queue`).set(owner.auth).expect(200)).body as {
        entries: Array<{ id: string; version: number }>;
      }
    ).entries.find((e) => e.id === entryId);
    const res = await request(t.baseUrl)
      .post(`/v1/venues/${venue.id}/offers`)
      .set(owner.auth)
      .send({ entryId, entryVersion: entry?.version, tableIds: [venue.tableIds['T1']] })
      .expect(201);
    return (res.body as { offer: { id: string } }).offer.id;
  };
  const withdrawOffer = (venue: Sandbox, offerId: string) =>
    request(t.baseUrl).post(`/v1/venues/${venue.id}/offers/${offerId}/withdraw`).set(owner.auth).send({}).expect(200);
  const ended = (page: Page, how: string) =>
    page.locator(`[data-testid=offer-ended][data-ended=${how}]`).waitFor({ timeout: SHOW_BOUND });

  it('a party whose offer the host withdrew, at a venue where that ends its place, is told the host withdrew it', async () => {
    const venue = await ownVenue('leave-queue');
    const party = await joined(t, owner, venue.id, { name: 'Wen Withdrawn', partySize: 2, email: 'wen@example.test' });
    const page = await phone();
    await page.clock.install();
    await page.goto(`${t.baseUrl}/q/#${party.queueToken ?? ''}`);
    await state(page, 'waiting');
    await pauseClock(page);
    const offerId = await offerT1(venue, party.entry.id);
    await page.clock.runFor(3_100);
    await state(page, 'offered');
    await withdrawOffer(venue, offerId);
    await page.clock.runFor(3_100);
    await state(page, 'expired');
    await ended(page, 'withdrawn');
    const said = (await page.getByTestId('state').textContent()) ?? '';
    expect(said).toContain('You are no longer in the queue');
    expect(said).toContain('The host withdrew the table offered to you. To join again, ask at the desk.');
    // Not the guest's hold: nothing on the page says the offer expired.
    expect(said).not.toContain('expired');
    await screenshot(page, 'guest-withdrawn-left-queue');
  });

  it('a party whose hold lapsed is told so and that it kept its place, until its next offer', async () => {
    const venue = await ownVenue('keep-place');
    const party = await joined(t, owner, venue.id, { name: 'Rae Lapsed', partySize: 3, email: 'rae@example.test' });
    const page = await phone();
    await page.clock.install();
    await page.goto(`${t.baseUrl}/q/#${party.queueToken ?? ''}`);
    await state(page, 'waiting');
    await pauseClock(page);
    // Before any offer the waiting page says nothing about one.
    expect(await page.getByTestId('offer-ended').count()).toBe(0);
    const first = await offerT1(venue, party.entry.id);
    await page.clock.runFor(3_100);
    await state(page, 'offered');

    // The hold's five minutes pass on the venue's clock (moved, not slept): the party is back waiting.
    await request(t.baseUrl)
      .post(`/v1/venues/${venue.id}/clock`)
      .set(owner.auth)
      .send({ now: new Date(Date.parse(T0) + 6 * 60_000).toISOString() })
      .expect(200);
    await page.clock.runFor(3_100);
    await state(page, 'waiting');
    await ended(page, 'expired');
    const said = async (): Promise<string> => (await page.getByTestId('state').textContent()) ?? '';
    expect(await said()).toContain(
      'The offer expired and its table was released. Nothing lost — the place was kept; watch for the next offer.',
    );
    expect(await said()).toContain('Nothing to do until then.');
    await screenshot(page, 'guest-lapsed-back-waiting');
    // A guest who looks away and back still reads it: the next poll keeps it.
    const polled = page.waitForResponse((r) => r.url().endsWith('/v1/queue-status'), { timeout: SHOW_BOUND });
    await page.clock.runFor(3_100);
    await polled;
    expect(await said()).toContain('The offer expired and its table was released.');

    // The next offer is the news now; once the host withdraws it, the page says that instead.
    const second = await offerT1(venue, party.entry.id);
    await page.clock.runFor(3_100);
    await state(page, 'offered');
    expect(await page.getByTestId('offer-ended').count()).toBe(0);
    expect(second).not.toBe(first);
    await withdrawOffer(venue, second);
    await page.clock.runFor(3_100);
    await ended(page, 'withdrawn');
    expect(await said()).toContain('The host withdrew the table offered to you; you keep your place in the queue.');
    expect(await said()).not.toContain('expired');
    await screenshot(page, 'guest-withdrawn-back-waiting');
  });

  it('a second phone on the same link, after the first confirmed, is told the truth: the link now works on that phone', async () => {
    const venue = await ownVenue('keep-place');
    const party = await joined(t, owner, venue.id, { name: 'Two Phones', partySize: 2, phone: '+13125550153' });
    const first = await phone();
    const second = await phone();
    for (const p of [first, second]) {
      await p.clock.install();
      await p.goto(`${t.baseUrl}/q/#${party.queueToken ?? ''}`);
      await state(p, 'waiting');
      await pauseClock(p);
    }
    await offerT1(venue, party.entry.id);
    await first.clock.runFor(3_100);
    await state(first, 'offered');
    await first.getByTestId('confirm').click();
    await state(first, 'confirmed');
    // The other phone's link was spent by the first one's confirm: it stops working at once (its next
    // poll), not "an hour after you first confirm", and the party's place is on the other phone.
    await second.clock.runFor(3_100);
    await state(second, 'gone');
    await screenshot(second, 'guest-gone-other-phone');
    const said = (await second.getByTestId('gone').textContent()) ?? '';
    expect(said).toContain('Once it is used to confirm or leave on one phone, it works on that phone only');
    expect(said).toContain('Their phone shows where you stand.');
    expect(said).not.toMatch(/an hour after you first confirm/);
  });

  it('a confirm that could not reach the server stops blaming the connection once the page reads again', async () => {
    const venue = await ownVenue('keep-place');
    const party = await joined(t, owner, venue.id, { name: 'No Signal', partySize: 2, phone: '+13125550154' });
    const page = await phone();
    await page.clock.install();
    await page.goto(`${t.baseUrl}/q/#${party.queueToken ?? ''}`);
    await state(page, 'waiting');
    await pauseClock(page);
    await offerT1(venue, party.entry.id);
    await page.clock.runFor(3_100);
    await state(page, 'offered');
    await page.context().setOffline(true);
    await page.getByTestId('confirm').click();
    const problem = page.getByTestId('problem');
    await problem.waitFor({ timeout: SHOW_BOUND });
    expect(await problem.textContent()).toContain('The server cannot be reached');
    // The connection is back: the next read gets through, and the offer is still there to confirm.
    await page.context().setOffline(false);
    await page.clock.runFor(3_100);
    await problem.waitFor({ state: 'detached', timeout: SHOW_BOUND });
    await state(page, 'offered');
    await page.getByTestId('confirm').click();
    await state(page, 'confirmed');
  });

  /**
   * Every state the page shows from now on, in order (a MutationObserver on its data-state): a state
   * shown for a moment and replaced is caught, which a look at the page now and then would miss.
   */
  const recordStates = (page: Page): Promise<unknown> =>
    page.evaluate(`(() => {
      const el = document.querySelector('[data-testid=guest-page]');
      window.__states = [];
      new MutationObserver(() => window.__states.push(el.dataset.state)).observe(el, { attributes: true, attributeFilter: ['data-state'] });
    })()`);
  const statesShown = async (page: Page): Promise<string[]> => (await page.evaluate('window.__states')) as string[];

  it('a poll whose answer comes back after the party confirmed does not put the offer back on the page', async () => {
    const venue = await ownVenue('keep-place');
    const party = await joined(t, owner, venue.id, { name: 'Slow Answer', partySize: 2, phone: '+13125550155' });
    const page = await phone();
    await page.clock.install();
    await page.goto(`${t.baseUrl}/q/#${party.queueToken ?? ''}`);
    await state(page, 'waiting');
    await pauseClock(page);
    await offerT1(venue, party.entry.id);
    await page.clock.runFor(3_100);
    await state(page, 'offered');
    // The next poll reads the offer, and its answer is held on its way back (a slow network) ...
    let deliver: () => void = () => undefined;
    const delivered = new Promise<void>((r) => (deliver = r));
    let read: () => void = () => undefined;
    const answered = new Promise<void>((r) => (read = r));
    await page.route('**/v1/queue-status', async (route) => {
      const answer = await route.fetch();
      read();
      await delivered;
      await route.fulfill({ response: answer });
    });
    await page.clock.runFor(3_100);
    await answered;
    // ... while the party confirms, and the page reads that it did.
    await page.getByTestId('confirm').click();
    await state(page, 'confirmed');
    await recordStates(page);
    const stale = page.waitForResponse((r) => r.url().endsWith('/v1/queue-status'));
    deliver();
    expect((await stale).status()).toBe(200);
    // The next poll (by the session now) answers after the stale one: the page never went back.
    const next = page.waitForResponse((r) => r.url().endsWith('/v1/queue-session'));
    await page.clock.runFor(3_100);
    await next;
    await state(page, 'confirmed');
    expect(await statesShown(page)).toEqual([]);
    await page.unrouteAll();
  });

  it('a poll that reaches the server after the party confirmed, its token spent by the confirm, does not say the link broke', async () => {
    const venue = await ownVenue('keep-place');
    const party = await joined(t, owner, venue.id, { name: 'Slow Request', partySize: 2, phone: '+13125550156' });
    const page = await phone();
    await page.clock.install();
    await page.goto(`${t.baseUrl}/q/#${party.queueToken ?? ''}`);
    await state(page, 'waiting');
    await pauseClock(page);
    await offerT1(venue, party.entry.id);
    await page.clock.runFor(3_100);
    await state(page, 'offered');
    // The next poll (by the token) is held on its way to the server ...
    let deliver: () => void = () => undefined;
    const delivered = new Promise<void>((r) => (deliver = r));
    let asked: () => void = () => undefined;
    const held = new Promise<void>((r) => (asked = r));
    await page.route('**/v1/queue-status', async (route) => {
      asked();
      await delivered;
      await route.continue();
    });
    await page.clock.runFor(3_100);
    await held;
    // ... while the party confirms: the token opens the session the confirm uses, and is spent.
    await page.getByTestId('confirm').click();
    await state(page, 'confirmed');
    await recordStates(page);
    const refused = page.waitForResponse((r) => r.url().endsWith('/v1/queue-status'));
    deliver();
    expect((await refused).status()).toBe(401);
    // The page goes on reading by its session (the next poll answers after the refusal), and never
    // said "This link no longer works" to a party that has just confirmed.
    const next = page.waitForResponse((r) => r.url().endsWith('/v1/queue-session'), { timeout: SHOW_BOUND }).catch(() => null);
    await page.clock.runFor(3_100);
    await next;
    expect(await statesShown(page)).toEqual([]);
    await state(page, 'confirmed');
    await page.unrouteAll();
  });

  it('a party still waiting when service ends is not promised a table "the moment it is ready"', async () => {
    // Dinner 17:00–22:30, the party joins at 22:00 and is still waiting at 22:35: no table can be offered.
    const venue = await sandboxVenue(t, owner, {
      clock: '2026-10-10T03:00:00.000Z', // 10 PM in Chicago
      windows: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '17:00', end: '22:30', turnMinutes: 30 }],
      tables: [{ label: 'T1', capacity: 4 }],
    });
    const party = await joined(t, owner, venue.id, { name: 'After Hours', partySize: 2, phone: '+13125550155' });
    const page = await phone();
    await page.clock.install();
    await page.goto(`${t.baseUrl}/q/#${party.queueToken ?? ''}`);
    await state(page, 'waiting');
    await pauseClock(page);
    expect(await page.getByTestId('state').textContent()).toContain('Your table will show here the moment it is ready');
    await request(t.baseUrl)
      .post(`/v1/venues/${venue.id}/clock`)
      .set(owner.auth)
      .send({ now: '2026-10-10T03:35:00.000Z' })
      .expect(200);
    // The host cannot offer a table now, and the page says so instead of promising one.
    const refused = await request(t.baseUrl)
      .post(`/v1/venues/${venue.id}/offers`)
      .set(owner.auth)
      .send({ entryId: party.entry.id, entryVersion: party.entry.version, tableIds: [venue.tableIds['T1']] });
    expect(refused.status).toBe(422);
    await page.clock.runFor(3_100);
    await page.getByTestId('no-service').waitFor({ timeout: SHOW_BOUND });
    const said = (await page.getByTestId('state').textContent()) ?? '';
    expect(said).toContain('No service is running now, so no table can be offered until the next one starts.');
    expect(said).not.toContain('the moment it is ready');
    await screenshot(page, 'guest-waiting-after-service');
  });

  it('no phone ever put a token in a URL', () => {
    expect(urls.length).toBeGreaterThan(10);
    for (const u of urls) expect(u).not.toMatch(/[A-Za-z0-9_-]{43}/);
  });
});

/**
 * From here the page's timers run only when the test moves them (`page.clock.runFor`). An installed
 * clock keeps running with real time until it is paused: on a loaded machine the page's 3 s poll
 * came between the test's move of the venue's clock and its tap, and the tap found its button gone.
 */
function pauseClock(page: Page): Promise<void> {
  return pauseClockAhead(page, 2_000);
}
