import type { Browser, BrowserContext, Locator, Page, Route } from 'playwright-core';
import request from 'supertest';
import { sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { addMember, chooseOwnPassword, signUp, type Staff } from '../support/staff.js';
import { boardLive, signInOnBoard } from './board-page.js';
import { describeWithChromium, launchChromium, newPhone, newTablet, screenshot } from './chromium.js';

const d = describeWithChromium('the board page is tested in a real browser');

/**
 * Two screens on one party: the tablet at the desk seats a party while the phone in the other
 * host's hand, its board not yet redrawn, taps Seat them too. The phone was told "A SEATED
 * reservation cannot be seated; confirm it first.": a code word, and an act that cannot be done.
 */
d('a party seated on another screen first', () => {
  let t: TestApp;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let owner: Staff;
  let host: Staff;
  let v: Sandbox;
  const api = () => request(t.baseUrl);

  beforeAll(async () => {
    t = await startApp();
    browser = await launchChromium();
    owner = await signUp(t, 'owner');
    v = await sandboxVenue(t, owner, {
      timeZone: 'Australia/Adelaide',
      // 18:40 in Adelaide (ACDT) on a Friday.
      clock: '2026-12-04T08:10:00Z',
      windows: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '17:00', end: '01:00', turnMinutes: 75 }],
      tables: [
        { label: 'W2', capacity: 4 },
        { label: 'W3', capacity: 4 },
        { label: 'W4', capacity: 2 },
        { label: 'W5', capacity: 2 },
        { label: 'W6', capacity: 2 },
        { label: 'W7', capacity: 3 },
      ],
    });
    host = await chooseOwnPassword(t, await addMember(t, v.id, owner, 'host'));
  }, 120_000);
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser.close();
    await t.close();
  });

  async function boardOf(phone: boolean): Promise<Page> {
    const context = phone ? await newPhone(browser) : await newTablet(browser);
    contexts.push(context);
    const p = await context.newPage();
    if (!phone) await p.setViewportSize({ width: 1280, height: 800 });
    await signInOnBoard(p, t.baseUrl, host, `/board/venues/${v.id}`);
    await boardLive(p, 10_000);
    return p;
  }

  /** A party joined with `tel` and offered `table` by the other screen (the owner's, over the API). */
  async function offered(
    name: string,
    partySize: number,
    tel: string,
    table: string,
  ): Promise<{ entryId: string; queueToken: string; offer: { id: string; reservationId: string } }> {
    const joined = (
      await api().post(`/v1/venues/${v.id}/queue`).set(owner.auth).send({ name, partySize, phone: tel }).expect(201)
    ).body as { entry: { id: string; version: number }; queueToken: string };
    const offer = (
      (
        await api()
          .post(`/v1/venues/${v.id}/offers`)
          .set(owner.auth)
          .send({ entryId: joined.entry.id, entryVersion: joined.entry.version, tableIds: [v.tableIds[table]] })
          .expect(201)
      ).body as { offer: { id: string; reservationId: string } }
    ).offer;
    return { entryId: joined.entry.id, queueToken: joined.queueToken, offer };
  }

  /**
   * Holds this screen's Accept on its way while `elsewhere` runs (the other screen accepting), then lets
   * it go once the push of that acceptance has moved the party to To be seated here.
   */
  async function acceptRacing(p: Page, accept: Locator, name: string, elsewhere: () => Promise<unknown>): Promise<string[]> {
    let sent: () => void = () => undefined;
    const tapped = new Promise<void>((r) => (sent = r));
    let release: () => void = () => undefined;
    const released = new Promise<void>((r) => (release = r));
    await p.route(/\/offers\/[^/]+\/accept$/, async (route) => {
      sent();
      await released;
      await route.continue();
    });
    await accept.click();
    await tapped;
    await elsewhere();
    await p.locator('[data-testid=to-seat-party]', { hasText: name }).waitFor();
    release();
    await p.locator('[data-testid=notice][data-kind=error], [data-testid=notice][data-kind=info]').first().waitFor();
    await p.waitForTimeout(500);
    return (await p.locator('[data-testid=notice] span').allInnerTexts()).map((x) => x.trim());
  }

  it.each([
    ['phone 390×844', true, 'W2', 'Tobias Lindgren', '+61412000302'],
    ['tablet 1280×800', false, 'W3', 'Saoirse Delacroix-Byrne', '+61412000304'],
  ])(
    '%s: Seat them after another screen seated the party says so in plain words',
    async (_, phone, table, name, tel) => {
      const { offer } = await offered(name, 3, tel, table);
      await api().post(`/v1/venues/${v.id}/offers/${offer.id}/accept`).set(owner.auth).send({}).expect(200);
      const p = await boardOf(phone);
      const row = p.locator('[data-testid=to-seat-party]', { hasText: name });
      await row.getByTestId('to-seat-seat').waitFor();
      // This screen's board is not redrawn yet (its read of the board held) as the other one seats them.
      const held: Route[] = [];
      await p.route(/\/v1\/venues\/[^/]+\/board$/, (route) => void held.push(route));
      await api().post(`/v1/venues/${v.id}/reservations/${offer.reservationId}/seat`).set(owner.auth).send({}).expect(201);
      // The API's words for it changed (as a later server might word them): the board reads its
      // `details.reason` and `details.state`, not the words.
      await p.route(/\/reservations\/[^/]+\/seat$/, async (route) => {
        const res = await route.fetch();
        const body = (await res.json()) as { error?: { message: string } };
        if (body.error) body.error.message = 'This party is seated already.';
        await route.fulfill({ response: res, json: body });
      });
      await row.getByTestId('to-seat-seat').click();
      const refusal = p.locator('[data-testid=notice][data-kind=error]');
      await refusal.waitFor();
      await screenshot(p, `two-screens-seated-${phone ? 'phone' : 'tablet'}`);
      expect((await refusal.locator('span').innerText()).trim()).toBe('They are already seated: another screen seated them.');
      await p.unroute(/\/v1\/venues\/[^/]+\/board$/);
      for (const r of held) await r.continue().catch(() => undefined);
    },
    60_000,
  );

  it.each([
    ['phone 390×844', true, 'W4', 'Imelda Vasquez-Thornbury', '+61412000306'],
    ['tablet 1280×800', false, 'W5', 'Kwame Mensah', '+61412000307'],
  ])(
    '%s: Accept tapped as another screen accepts the party says they were accepted',
    async (_, phone, table, name, tel) => {
      const { offer } = await offered(name, 2, tel, table);
      const p = await boardOf(phone);
      const accept = p.locator('[data-testid=entry]', { hasText: name }).getByTestId('accept');
      await accept.waitFor();
      // This screen's tap is on its way (held) as the other screen's acceptance lands and is pushed here.
      const said = await acceptRacing(p, accept, name, () =>
        api().post(`/v1/venues/${v.id}/offers/${offer.id}/accept`).set(owner.auth).send({}).expect(200),
      );
      await screenshot(p, `two-screens-accepted-${phone ? 'phone' : 'tablet'}`);
      // The host hears that the party was accepted, not only that "This offer is no longer open."
      expect(said.filter((x) => x.includes(name) && x.includes('to be seated'))).toHaveLength(1);
    },
    60_000,
  );

  it.each([
    ['phone 390×844', true, 'W6', 'Oksana Petrenko-Hale', '+61412000311'],
    ['tablet 1280×800', false, 'W7', 'Rangi Parata', '+61412000312'],
  ])(
    '%s: Accept for them, in the code lookup, as another screen accepts says they were accepted',
    async (_, phone, table, name, tel) => {
      const { offer, queueToken } = await offered(name, 2, tel, table);
      const p = await boardOf(phone);
      await p.getByTestId('open-lookup').click();
      await p.fill('input[name=token]', queueToken);
      await p.getByTestId('lookup-submit').click();
      await p.getByTestId('found-accept').waitFor();
      const said = await acceptRacing(p, p.getByTestId('found-accept'), name, () =>
        api().post(`/v1/venues/${v.id}/offers/${offer.id}/accept`).set(owner.auth).send({}).expect(200),
      );
      expect(said.filter((x) => x.includes(name) && x.includes('accepted on another screen'))).toHaveLength(1);
      expect(await p.getByTestId('found').textContent()).toContain('Accepted: their place is confirmed.');
    },
    60_000,
  );
});
