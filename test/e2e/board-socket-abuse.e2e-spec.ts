import { performance } from 'node:perf_hooks';
import request from 'supertest';
import WebSocket from 'ws';
import { AuthService } from '@hostboard/auth';
import { BOARD_CONNECT_TIMEOUT_MS, BOARD_HANDSHAKE_FAILURES, BOARD_SOCKET_LIMITS } from '@hostboard/board';
import { BoardClient, waitFor } from '../support/board-client.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { createVenue, signUp, type Staff } from '../support/staff.js';
import { joined, party } from '../support/restaurant.js';

/**
 * A script against the board socket (bb-attack2): a subscribe refused for its snapshot left the
 * socket in the venue's room; handshakes with made-up tokens each cost a session read, without
 * limit; a raw connection that never opened the board namespace was held 45 s.
 */
describe('board socket abuse', () => {
  let t: TestApp;
  let staff: Staff;
  let first: string;
  let second: string;
  const clients: BoardClient[] = [];
  const open = (token: string | undefined, from: string): BoardClient => {
    const c = new BoardClient(t.baseUrl, token, { 'X-Forwarded-For': from });
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    t = await startApp();
    staff = await signUp(t, 'socket-script');
    const venue = { preset: 'workshop', poolCapacity: 14, sandbox: true, clock: '2026-11-17T18:20:00Z' };
    first = (await createVenue(t, staff, venue)).id;
    second = (await createVenue(t, staff, venue)).id;
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await t.close();
  });

  it.each([
    ['with no version', undefined],
    ['with a version the venue has not reached', 987_654],
  ])('a subscribe refused for its snapshot (%s) leaves the socket outside the venue’s room', async (_, sinceVersion) => {
    const flood = open(staff.token, '198.51.100.41');
    const board = open(staff.token, '198.51.100.42');
    await Promise.all([flood.connected(), board.connected()]);
    expect(await board.subscribe(second)).toHaveProperty('snapshot');
    // The flooding socket spends its snapshots on one venue, then asks for the other's.
    for (let i = 0; i < BOARD_SOCKET_LIMITS.snapshotPerSocket.burst; i++)
      expect(await flood.subscribe(first)).toHaveProperty('snapshot');
    expect(await flood.subscribe(second, sinceVersion)).toEqual({ error: expect.objectContaining({ code: 'RATE_LIMITED' }) });
    await joined(t, staff, second, party(3));
    await waitFor(() => board.events.some((e) => e.venueId === second), 5000, 'the push to the subscribed board');
    // The push has reached the board that subscribed; give the refused socket as long again.
    await new Promise((r) => setTimeout(r, 300));
    expect(flood.events.filter((e) => e.venueId === second)).toEqual([]);
  });

  it('refuses handshakes from an address past its failures before reading any session, and never counts successes', async () => {
    const { points } = BOARD_HANDSHAKE_FAILURES;
    const shared = '203.0.113.77';
    // A busy room's tablets behind one address (several logins, 20 screens each, at once): more
    // successes than the failure limit allows failures.
    const logins = await Promise.all(Array.from({ length: 6 }, (_, i) => signUp(t, `tablets-${i}`)));
    for (let round = 0; round < 3; round++) {
      const tablets = logins
        .slice(round * 2, round * 2 + 2)
        .flatMap((s) => Array.from({ length: 20 }, () => open(s.token, shared)));
      await Promise.all(tablets.map((c) => c.connected()));
      for (const c of tablets) c.close();
    }
    expect(3 * 2 * 20).toBeGreaterThan(points);
    // A script with made-up tokens from the same address: each failure is told as such...
    const reads = spyOnSessionReads();
    const bogus = async (): Promise<string> => open(`not-a-session-${Math.random()}`, shared).refused();
    for (let i = 0; i < points - 1; i++) expect(await bogus()).toBe('UNAUTHENTICATED');
    // (a tablet that connects meanwhile is not counted)
    await open(logins[0]!.token, shared).connected();
    expect(await bogus()).toBe('UNAUTHENTICATED');
    expect(reads.count).toBe(points + 1);
    // ...until the limit: then refused before the session is read.
    const past = await Promise.all(Array.from({ length: 20 }, bogus));
    expect(new Set(past)).toEqual(new Set(['RATE_LIMITED']));
    expect(reads.count).toBe(points + 1);
    // The room's own tablets behind that address still connect meanwhile (a reload, a Wi-Fi blip):
    // one that connected before, and a login just made on this api, each read once. A session
    // signed out is read and refused as such.
    await open(logins[1]!.token, shared).connected();
    const fresh = await signUp(t, 'tablets-new');
    await open(fresh.token, shared).connected();
    expect(reads.count).toBe(points + 3);
    await request(t.baseUrl).delete('/v1/auth/sessions/current').set(logins[2]!.auth).expect(204);
    expect(await open(logins[2]!.token, shared).refused()).toBe('UNAUTHENTICATED');
    expect(await bogus()).toBe('RATE_LIMITED');
    reads.restore();
    // Staff elsewhere are not affected.
    await open(staff.token, '203.0.113.78').connected();
  });

  it('closes a raw connection that never opens the board within the connect timeout', async () => {
    expect(BOARD_CONNECT_TIMEOUT_MS).toBeLessThanOrEqual(15_000);
    const url = `${t.baseUrl.replace('http', 'ws')}/socket.io/?EIO=4&transport=websocket`;
    const ws = new WebSocket(url);
    const opened = performance.now();
    const closedAfter = await new Promise<number>((resolve, reject) => {
      const limit = setTimeout(() => reject(new Error('still open after 20 s')), 20_000);
      ws.on('close', () => {
        clearTimeout(limit);
        resolve(performance.now() - opened);
      });
      ws.on('error', reject);
    }).finally(() => ws.terminate());
    expect(closedAfter).toBeLessThan(BOARD_CONNECT_TIMEOUT_MS + 2000);
  }, 30_000);

  /** Counts the session reads of handshakes (AuthService.authenticate) while it is on. */
  function spyOnSessionReads(): { count: number; restore(): void } {
    const auth = t.app.get(AuthService);
    const original = auth.authenticate.bind(auth);
    const spy = {
      count: 0,
      restore: () => {
        auth.authenticate = original;
      },
    };
    auth.authenticate = (token: string) => {
      spy.count++;
      return original(token);
    };
    return spy;
  }
});
