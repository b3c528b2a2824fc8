import type { Page, Request } from 'playwright-core';
import request from 'supertest';
import { sandboxVenue } from '../support/restaurant.js';
import { boardLive, openVenueBoard } from './board-page.js';
import { describeWithChromium } from './chromium.js';
import { phoneBoardFile } from './phone-board-file.js';

const d = describeWithChromium("the board's Seat now is tested in a real browser");

/**
 * Seat now books and seats a walk-in in one request (`POST …/walk-ins`): it booked, then seated, in
 * two, and a seat that failed left the table booked with nobody seated while the host's second tap
 * was refused as the table was taken. Dublin time, 80-minute turns, a five-top and a two-top.
 */
d('Seat now seats a walk-in in one request', () => {
  const file = phoneBoardFile('walk-in-host');
  const api = () => request(file.t.baseUrl);

  const venue = () =>
    sandboxVenue(file.t, file.owner, {
      name: 'The Quay Kitchen',
      timeZone: 'Europe/Dublin',
      clock: '2026-12-10T19:10:00Z',
      windows: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '17:00', end: '22:00', turnMinutes: 80 }],
      tables: [
        { label: 'Snug 5', capacity: 5 },
        { label: 'Bar 2', capacity: 2 },
      ],
    });
  const tableOf = (page: Page, id: string | undefined) => page.locator(`[data-testid=table][data-table-id="${id ?? ''}"]`);
  /** The POSTs and DELETEs the page sends to the API. */
  const acts = (page: Page): string[] => {
    const sent: string[] = [];
    page.on('request', (r: Request) => {
      if (r.method() !== 'GET' && new URL(r.url()).pathname.startsWith('/v1/'))
        sent.push(`${r.method()} ${new URL(r.url()).pathname}`);
    });
    return sent;
  };
  const reservations = async (venueId: string) =>
    (await api().get(`/v1/venues/${venueId}/reservations`).set(file.owner.auth).expect(200)).body as Array<{
      name: string;
      state: string;
      partySize: number;
    }>;

  it('a phone seats a party of 4 at Snug 5 with one request; the other open board sees the table seated', async () => {
    const v = await venue();
    const other = await file.page('desktop');
    await openVenueBoard(other, file.t.baseUrl, file.owner, v.id);
    await boardLive(other);
    const snugThere = tableOf(other, v.tableIds['Snug 5']);
    expect(await snugThere.getAttribute('data-state')).toBe('free');

    const page = await file.phone(v.id);
    expect(page.viewportSize()).toEqual({ width: 390, height: 844 });
    const sent = acts(page);
    await tableOf(page, v.tableIds['Snug 5']).click();
    await page.getByTestId('walk-in').waitFor();
    for (let i = 0; i < 2; i++) await page.getByTestId('walkInSize-more').click();
    expect(await page.locator('input[name=walkInSize]').inputValue()).toBe('4');
    await page.getByTestId('seat-now').click();
    await page.getByTestId('table-sheet').waitFor({ state: 'detached' });
    await page.locator('[data-testid=notice]', { hasText: 'Walk-in at Snug 5 seated at Snug 5.' }).waitFor();
    expect(sent).toEqual([`POST /v1/venues/${v.id}/walk-ins`]);
    await tableOf(page, v.tableIds['Snug 5']).and(page.locator('[data-state=occupied]')).waitFor();

    // The other board was told, with no reload.
    await snugThere.and(other.locator('[data-state=occupied]')).waitFor({ timeout: 10_000 });
    expect(await reservations(v.id)).toMatchObject([{ name: 'Walk-in at Snug 5', state: 'SEATED', partySize: 4 }]);
  }, 120_000);

  it('an answer lost on the way back, tapped again before the board has heard: the party is seated once, not "table taken"', async () => {
    const v = await venue();
    const page = await file.page('phone');
    // The board's pushes (events and the version heartbeat) are held while `quiet`: the second tap
    // comes before this page has heard anything of the first.
    let quiet = false;
    const held: Array<() => void> = [];
    await page.routeWebSocket(/\/socket\.io\//, (ws) => {
      const server = ws.connectToServer();
      ws.onMessage((m) => server.send(m));
      server.onMessage((m) => {
        const text = typeof m === 'string' ? m : m.toString();
        if (quiet && /^42\/board,\["board\.(event|version)"/.test(text)) held.push(() => ws.send(m));
        else ws.send(m);
      });
    });
    await openVenueBoard(page, file.t.baseUrl, file.owner, v.id);
    await boardLive(page);
    quiet = true;
    const sent = acts(page);
    // The first Seat now reaches the server, which seats the party; its answer never reaches the page.
    let lose = true;
    await page.route('**/walk-ins', async (route) => {
      if (!lose) return route.continue();
      lose = false;
      await route.fetch();
      await route.abort('connectionreset');
    });
    await tableOf(page, v.tableIds['Bar 2']).click();
    await page.getByTestId('walk-in').waitFor();
    await page.fill('input[name=walkInName]', 'Niamh Doyle');
    await page.getByTestId('seat-now').click();
    const error = page.getByTestId('walk-in-error');
    await error.waitFor();
    expect((await error.textContent())?.trim()).toBe('The server cannot be reached. Check the connection and try again.');
    expect(await tableOf(page, v.tableIds['Bar 2']).getAttribute('data-state')).toBe('free');

    // The host taps again: the same act, answered with what the server did the first time.
    await page.getByTestId('seat-now').click();
    await page.getByTestId('table-sheet').waitFor({ state: 'detached' });
    await page.locator('[data-testid=notice]', { hasText: 'Niamh Doyle seated at Bar 2.' }).waitFor();
    expect(sent).toEqual([`POST /v1/venues/${v.id}/walk-ins`, `POST /v1/venues/${v.id}/walk-ins`]);
    await tableOf(page, v.tableIds['Bar 2']).and(page.locator('[data-state=occupied]')).waitFor();
    expect(await reservations(v.id)).toMatchObject([{ name: 'Niamh Doyle', state: 'SEATED', partySize: 2 }]);
    quiet = false;
    for (const send of held) send();
  }, 120_000);
});
