import pg from 'pg';
import type { Browser, BrowserContext, Page, WebSocketRoute } from 'playwright-core';
import request from 'supertest';
import { startApp, type TestApp } from '../support/test-app.js';
import { describeWithServer } from '../support/test-database.js';
import { sandboxVenue } from '../support/restaurant.js';
import { signUp, type Staff } from '../support/staff.js';
import { boardLive, signInOnBoard } from './board-page.js';
import { describeWithChromium, hasChromium, launchChromium, newTablet } from './chromium.js';

const d = hasChromium()
  ? describeWithServer('a database that refuses connections needs a PostgreSQL server')
  : describeWithChromium('the board page is tested in a real browser');

/** How long a tablet may take to be live again once the database answers (its retry is 2 s). */
const BACK_BOUND = 15_000;

/**
 * The board's socket checks the session in its handshake. A database that could not answer that
 * read (a restart, a failover, a pool out of connections on a loaded host) was told to the tablet
 * as "UNAUTHENTICATED": socket.io gives up on a refused handshake, and the tablet stayed off its
 * pushes ("refused") for good, its board frozen, while its session was as valid as ever.
 */
d('a board whose socket reconnects while the database is away', () => {
  let t: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let owner: Staff;
  let venueId: string;
  const admin = async (sql: string): Promise<void> => {
    const c = new pg.Client({ connectionString: process.env['DATABASE_URL'] });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  const dbName = (): string => new URL(t.db.url ?? '').pathname.slice(1);

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'owner');
    venueId = (
      await sandboxVenue(t, owner, {
        name: 'Blip Room (sandbox)',
        preset: 'workshop',
        poolCapacity: 4,
        clock: '2026-10-09T14:00:00.000Z',
      })
    ).id;
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await browser?.close();
    await admin(`ALTER DATABASE ${dbName()} ALLOW_CONNECTIONS true`).catch(() => undefined);
    await t?.close();
  });

  it('is live again once the database answers, and shows what changed meanwhile', async () => {
    context = await newTablet(browser);
    const page: Page = await context.newPage();
    // The page's socket passes through the test, which can drop it as a network would.
    let socket: WebSocketRoute | null = null;
    let handshakes = 0;
    // The server's refusals of a handshake (socket.io's CONNECT_ERROR packets), in words.
    const refusals: string[] = [];
    await page.routeWebSocket(/\/socket\.io\//, (ws) => {
      handshakes++;
      socket = ws;
      const server = ws.connectToServer();
      ws.onMessage((m) => server.send(m));
      server.onMessage((m) => {
        const text = typeof m === 'string' ? m : m.toString();
        if (text.startsWith('44/board,')) refusals.push(text);
        ws.send(m);
      });
      ws.onClose(() => server.close());
      server.onClose(() => ws.close());
    });
    await signInOnBoard(page, t.baseUrl, owner, `/board/venues/${venueId}`);
    const connection = page.getByTestId('connection');
    await boardLive(page, BACK_BOUND);

    // The database stops taking connections and drops the api's; then the tablet's connection drops.
    await admin(`ALTER DATABASE ${dbName()} ALLOW_CONNECTIONS false`);
    await admin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${dbName()}'`);
    const before = handshakes;
    await (socket as WebSocketRoute | null)?.close();
    // socket.io reconnects by itself; its handshake meets the database still away.
    for (const until = Date.now() + BACK_BOUND; handshakes === before && Date.now() < until;)
      await new Promise((r) => setTimeout(r, 50));
    expect(handshakes).toBeGreaterThan(before);
    await page.locator('[data-testid=connection]:not([data-state=live])').waitFor({ timeout: BACK_BOUND });
    for (const until = Date.now() + BACK_BOUND; refusals.length === 0 && Date.now() < until;)
      await new Promise((r) => setTimeout(r, 50));
    // Refused because the session could not be read, not because it is not valid.
    expect(refusals[0]).not.toContain('UNAUTHENTICATED');

    await admin(`ALTER DATABASE ${dbName()} ALLOW_CONNECTIONS true`);
    await request(t.baseUrl)
      .post(`/v1/venues/${venueId}/queue`)
      .set(owner.auth)
      .send({ name: 'Back Again', partySize: 2 })
      .expect(201);
    await boardLive(page, BACK_BOUND);
    await page.locator('[data-testid=entry]', { hasText: 'Back Again' }).waitFor({ timeout: BACK_BOUND });
    expect(await connection.getAttribute('data-state')).toBe('live');
  }, 120_000);
});
