import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { addMember, chooseOwnPassword, signUp, type Staff } from '../support/staff.js';
import { boardLive, signInOnBoard } from './board-page.js';
import { describeWithChromium, launchChromium, newTablet, screenshot } from './chromium.js';

const d = describeWithChromium('a removed host’s board is tested in a real browser');

/**
 * A manager's evening: a host leaves mid-shift and is removed from the staff. Their tablet, still
 * open on the floor, was told "You are no longer on the staff" but went on showing the whole queue
 * (guests' names, party sizes, waits frozen at the moment of removal) and the tables with who sat
 * at them, with "More" still opening a party's sheet: access lost on paper, not on the screen.
 */
d('a host removed mid-shift', () => {
  let t: TestApp;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let owner: Staff;
  let v: Sandbox;
  const api = () => request(t.baseUrl);

  beforeAll(async () => {
    t = await startApp();
    browser = await launchChromium();
    owner = await signUp(t, 'owner');
    v = await sandboxVenue(t, owner, {
      timeZone: 'Australia/Adelaide',
      // 17:00 in Adelaide (ACDT, UTC+10:30) on a Friday evening.
      clock: '2026-12-04T06:30:00Z',
      windows: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '17:00', end: '01:00', turnMinutes: 30 }],
      tables: [{ label: 'T1', capacity: 2 }],
    });
  });
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser.close();
    await t.close();
  });

  async function boardOf(host: Staff, size = { width: 1024, height: 768 }): Promise<Page> {
    const context = await newTablet(browser);
    contexts.push(context);
    const p = await context.newPage();
    await p.setViewportSize(size);
    await signInOnBoard(p, t.baseUrl, host, `/board/venues/${v.id}`);
    await boardLive(p, 10_000);
    return p;
  }

  it('their tablet and phone stop showing the queue and floor at once, and offer no act', async () => {
    const host = await chooseOwnPassword(t, await addMember(t, v.id, owner, 'host'));
    for (const [name, phone] of [
      ['Zoë Wanderer-Castellanos', '+61412000101'],
      ['Seated Sam', '+61412000102'],
    ] as const)
      await api().post(`/v1/venues/${v.id}/queue`).set(owner.auth).send({ name, partySize: 2, phone }).expect(201);
    const board = (await api().get(`/v1/venues/${v.id}/queue`).set(owner.auth).expect(200)).body as {
      entries: Array<{ id: string; name: string; version: number }>;
    };
    const sam = board.entries.find((e) => e.name === 'Seated Sam');
    const offered = await api()
      .post(`/v1/venues/${v.id}/offers`)
      .set(owner.auth)
      .send({ entryId: sam?.id, entryVersion: sam?.version, tableIds: [v.tableIds['T1']] })
      .expect(201);
    const offer = (offered.body as { offer: { id: string; reservationId: string } }).offer;
    await api().post(`/v1/venues/${v.id}/offers/${offer.id}/accept`).set(owner.auth).send({}).expect(200);
    await api().post(`/v1/venues/${v.id}/reservations/${offer.reservationId}/seat`).set(owner.auth).send({}).expect(201);

    const tablet = await boardOf(host);
    const phone = await boardOf(host, { width: 390, height: 844 });
    for (const p of [tablet, phone]) {
      await p.getByText('Zoë Wanderer-Castellanos').first().waitFor();
      await p.getByText('Seated Sam').first().waitFor();
    }
    // The tablet has a party's sheet open as the manager removes the host.
    await tablet.getByTestId('entry-more').first().click();
    await tablet.getByTestId('entry-sheet').waitFor();

    await api().delete(`/v1/venues/${v.id}/members/${host.userId}`).set(owner.auth).expect(204);

    for (const [p, name] of [
      [tablet, 'access-ended-tablet'],
      [phone, 'access-ended-phone'],
    ] as const) {
      await p.locator('[data-testid=connection][data-state=refused]').waitFor({ timeout: 5_000 });
      // The guests' names go within a few seconds (the push is already here; rendering is all that is left).
      await p.getByText('Zoë Wanderer-Castellanos').first().waitFor({ state: 'detached', timeout: 5_000 });
      await screenshot(p, name);
      const text = await p.locator('body').innerText();
      expect(text).toContain('You are no longer on the staff of this venue. Ask a manager if this is a mistake.');
      // Nothing of the venue's guests stays on the screen, and nothing to act with.
      expect(text).not.toContain('Zoë Wanderer-Castellanos');
      expect(text).not.toContain('Seated Sam');
      expect(await p.getByTestId('access-ended').count()).toBe(1);
      expect(await p.getByTestId('board').count()).toBe(0);
      expect(await p.getByTestId('entry-sheet').count()).toBe(0);
      expect(await p.getByTestId('open-join').count()).toBe(0);
      expect(await p.getByTestId('open-lookup').count()).toBe(0);
    }
  });

  it('tablet 1280×800 and phone 390×844: a party being typed into Add to queue is not lost without a word', async () => {
    const host = await chooseOwnPassword(t, await addMember(t, v.id, owner, 'host'));
    const tablet = await boardOf(host, { width: 1280, height: 800 });
    const phone = await boardOf(host, { width: 390, height: 844 });
    for (const [p, name, tel] of [
      [tablet, 'Ottoline Brackenridge', '0412 770 318'],
      [phone, 'Ferdinand Ashcombe', '0412 770 629'],
    ] as const) {
      await p.getByTestId('open-join').click();
      await p.getByTestId('desk-join').waitFor();
      await p.fill('input[name=name]', name);
      await p.fill('input[name=phone]', tel);
    }

    await api().delete(`/v1/venues/${v.id}/members/${host.userId}`).set(owner.auth).expect(204);

    for (const [p, name, tel, shot] of [
      [tablet, 'Ottoline Brackenridge', '0412 770 318', 'access-ended-join-tablet'],
      [phone, 'Ferdinand Ashcombe', '0412 770 629', 'access-ended-join-phone'],
    ] as const) {
      await p.locator('[data-testid=connection][data-state=refused]').waitFor({ timeout: 5_000 });
      await p.getByTestId('access-ended').waitFor({ timeout: 5_000 });
      // The sheet stays, with what was typed, and says plainly that the party was not added.
      const sheet = p.getByTestId('desk-join');
      await sheet.waitFor({ timeout: 2_000 });
      await screenshot(p, shot);
      expect(await p.locator('input[name=name]').inputValue()).toBe(name);
      expect(await p.locator('input[name=phone]').inputValue()).toBe(tel);
      const said = (await sheet.getByTestId('join-ended').innerText()).trim();
      expect(said).toBe(`You are no longer on the staff of this venue: ${name} was not added to the queue.`);
      expect(await p.getByTestId('join-submit').isDisabled()).toBe(true);
      // Closing it leaves the page as for any removed host.
      await sheet.getByRole('button', { name: 'Close' }).click();
      await sheet.waitFor({ state: 'detached' });
      expect(await p.getByTestId('board').count()).toBe(0);
    }
    expect(
      (
        (await api().get(`/v1/venues/${v.id}/queue`).set(owner.auth).expect(200)).body as { entries: Array<{ name: string }> }
      ).entries.map((e) => e.name),
    ).not.toContain('Ottoline Brackenridge');
  });

  it('a board opened again after the removal shows the same, not a board "not found"', async () => {
    const host = await chooseOwnPassword(t, await addMember(t, v.id, owner, 'host'));
    const p = await boardOf(host);
    await api().delete(`/v1/venues/${v.id}/members/${host.userId}`).set(owner.auth).expect(204);
    await p.getByText('Zoë Wanderer-Castellanos').first().waitFor({ state: 'detached', timeout: 5_000 });
    await p.reload();
    await p.getByTestId('access-ended').waitFor({ timeout: 10_000 });
    const text = await p.locator('body').innerText();
    // The server answers a stranger's "not found" (it tells no one which venues exist); the page
    // says what that means to someone who was on the staff, and stops "Loading the board…".
    expect(text).toContain('Ask a manager if this is a mistake.');
    expect(text).not.toContain('Loading the board');
    expect(await p.getByTestId('open-join').count()).toBe(0);
  });
});
