import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import request from 'supertest';
import { BOARD_SOCKET_LIMITS } from '@hostboard/board';
import { BoardClient } from '../support/board-client.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { createVenue, signUp, type Staff } from '../support/staff.js';
import { joined, party } from '../support/restaurant.js';

/**
 * Issue 12 item 6: one socket flooding `subscribe` is refused (RATE_LIMITED acks, not a queue) and
 * another venue's board keeps answering. Latencies are printed, and bounded only loosely: the machine
 * is shared.
 */

const FLOOD = 5_000;

type Ack = { version?: number; snapshot?: unknown; events?: unknown[]; error?: { code: string; message: string } };

/**
 * The flooding client in a process of its own, as an attacker is: the api's cost of answering the
 * flood is then all that shares the neighbour's event loop. Prints the acks as one JSON line.
 */
async function floodFromAnotherProcess(baseUrl: string, token: string, venueId: string, n: number): Promise<{ acks: Ack[] }> {
  const script = `
    import { io } from 'socket.io-client';
    const [url, token, venueId, n] = process.argv.slice(1);
    const s = io(url + '/board', { auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true });
    s.on('connect', async () => {
      const acks = await Promise.all(Array.from({ length: Number(n) }, () => s.timeout(60000).emitWithAck('subscribe', { venueId })));
      process.stdout.write(JSON.stringify({ acks }));
      s.disconnect();
    });
    s.on('connect_error', (e) => { process.stderr.write(String(e)); process.exit(1); });
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script, baseUrl, token, venueId, String(n)], {
    cwd: process.cwd(),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  // 'close', not 'exit': the child may exit before its last output has been read from the pipe.
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`the flooding client exited with ${code}`);
  return JSON.parse(out) as { acks: Ack[] };
}

const stats = (ms: number[]): { n: number; median: number; p95: number; max: number } => {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number): number => Math.round(s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN);
  return { n: s.length, median: at(0.5), p95: at(0.95), max: Math.round(s.at(-1) ?? NaN) };
};

describe('board socket fairness', () => {
  let t: TestApp;
  let attacker: Staff;
  let neighbour: Staff;
  let attackerVenue: string;
  let neighbourVenue: string;
  const clients: BoardClient[] = [];
  const client = async (staff: Staff): Promise<BoardClient> => {
    const c = new BoardClient(t.baseUrl, staff.token);
    clients.push(c);
    await c.connected();
    return c;
  };

  beforeAll(async () => {
    t = await startApp();
    attacker = await signUp(t, 'flooder');
    neighbour = await signUp(t, 'neighbour');
    const venue = { preset: 'workshop', poolCapacity: 12, sandbox: true, clock: '2026-10-09T14:00:00Z' };
    attackerVenue = (await createVenue(t, attacker, venue)).id;
    neighbourVenue = (await createVenue(t, neighbour, venue)).id;
    // A board with something on it: a queue of 30.
    for (let i = 0; i < 30; i++) await joined(t, neighbour, neighbourVenue, party(2));
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await t.close();
  });

  /**
   * One read of the neighbour's board over HTTP (the whole board), and one subscribe over a socket of
   * its own (a fresh one each time, so the neighbour's own per-socket budget is not what is measured).
   */
  const neighbourReads = async (): Promise<{ http: number; socket: number }> => {
    const h0 = performance.now();
    const res = await request(t.baseUrl).get(`/v1/venues/${neighbourVenue}/board`).set(neighbour.auth).expect(200);
    const http = performance.now() - h0;
    const board = await client(neighbour);
    const s0 = performance.now();
    const ack = (await board.subscribe(neighbourVenue, (res.body as { version: number }).version)) as Ack;
    const socket = performance.now() - s0;
    board.close();
    expect(ack.error).toBeUndefined();
    return { http, socket };
  };

  it('refuses a flood of subscribes from one socket with RATE_LIMITED acks while another venue reads at its usual speed', async () => {
    const quiet = { http: [] as number[], socket: [] as number[] };
    for (let i = 0; i < 10; i++) {
      const r = await neighbourReads();
      quiet.http.push(r.http);
      quiet.socket.push(r.socket);
    }

    const rss0 = process.memoryUsage().rss;
    const f0 = performance.now();
    const flood = floodFromAnotherProcess(t.baseUrl, attacker.token, attackerVenue, FLOOD);
    const loaded = { http: [] as number[], socket: [] as number[] };
    let done = false;
    void flood.finally(() => (done = true));
    // Read the neighbour's board while the flood is being answered (10 to 25 times: the login's own
    // subscribe budget, BOARD_SOCKET_LIMITS.subscribePerUser, is 40).
    while ((!done || loaded.http.length < 10) && loaded.http.length < 25) {
      const r = await neighbourReads();
      loaded.http.push(r.http);
      loaded.socket.push(r.socket);
    }
    const acks = (await flood).acks;
    const floodMs = performance.now() - f0;
    const rss1 = process.memoryUsage().rss;

    const limited = acks.filter((a) => a.error?.code === 'RATE_LIMITED');
    const served = acks.filter((a) => a.snapshot !== undefined);
    const figures = {
      flood: {
        subscribes: FLOOD,
        snapshotsServed: served.length,
        rateLimited: limited.length,
        answeredInMs: Math.round(floodMs),
      },
      neighbourQuiet: { httpBoard: stats(quiet.http), socketSubscribe: stats(quiet.socket) },
      neighbourDuringFlood: { httpBoard: stats(loaded.http), socketSubscribe: stats(loaded.socket) },
      rssMb: { before: Math.round(rss0 / 2 ** 20), after: Math.round(rss1 / 2 ** 20) },
    };
    process.stdout.write(`board fairness: ${JSON.stringify(figures, null, 1)}\n`);

    // Every subscribe was answered (none queued past the flood), and almost all were refusals.
    expect(acks).toHaveLength(FLOOD);
    expect(served.length + limited.length).toBe(FLOOD);
    expect(served.length).toBeLessThanOrEqual(BOARD_SOCKET_LIMITS.snapshotPerSocket.burst + 5);
    expect(limited[0]?.error).toEqual({
      code: 'RATE_LIMITED',
      message: 'Too many board requests from this screen; wait a few seconds and try again.',
    });
    // Loose, on purpose: the issue measured 6.9 s for the neighbour before the limits, and a shared
    // machine varies (0.1–1.3 s maxima seen here); the printed figures are the measurement.
    expect(stats(loaded.http).max).toBeLessThan(5_000);
    expect(stats(loaded.socket).max).toBeLessThan(5_000);
  });

  it('lets a flooding socket back in once its budget refills', async () => {
    const flooder = await client(attacker);
    const acks = await Promise.all(Array.from({ length: 20 }, () => flooder.subscribe(attackerVenue) as Promise<Ack>));
    expect(acks.filter((a) => a.error?.code === 'RATE_LIMITED').length).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, BOARD_SOCKET_LIMITS.snapshotPerSocket.refillMs + 100));
    const back = (await flooder.subscribe(attackerVenue)) as Ack;
    expect(back.error).toBeUndefined();
    expect(back.snapshot).toBeDefined();
  }, 30_000);
});
