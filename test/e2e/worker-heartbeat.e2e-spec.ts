import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { waitFor } from '../support/board-client.js';
import { describeWithServerAndRedis, freshDatabase, type TestDatabase } from '../support/test-database.js';

const WORKER_MAIN = resolve('dist/apps/worker/src/main.js');

/** A loopback TCP proxy to PostgreSQL that can cut the worker off (every connection ended, new ones refused) and let it back. */
async function cuttableProxy(target: URL): Promise<{ port: number; cut(): void; restore(): void; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let cutOff = false;
  const server: Server = createServer((client) => {
    if (cutOff) return void client.destroy();
    const upstream = createConnection(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    client.pipe(upstream).pipe(client);
    const end = (): void => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as { port: number }).port,
    cut: () => {
      cutOff = true;
      for (const s of sockets) s.destroy();
    },
    restore: () => void (cutOff = false),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * The worker's heartbeat file is what a container health check reads. It was touched every 5 s
 * whatever the worker could do: a worker cut off from its database (a network partition, a wrong
 * failover) read as healthy for as long as it lasted. Now it is touched only while the worker's safety
 * sweep (every 15 s) reaches the database. Its database pool also logs the loss and the return once each.
 */
describeWithServerAndRedis('the worker process on PostgreSQL and Redis')('the worker heartbeat', () => {
  let db: TestDatabase;
  let proxy: Awaited<ReturnType<typeof cuttableProxy>>;
  let worker: ChildProcess | undefined;
  let dir: string;
  let out = '';

  beforeAll(async () => {
    db = await freshDatabase();
    proxy = await cuttableProxy(new URL(db.url ?? ''));
    dir = mkdtempSync(join(tmpdir(), 'hb-heartbeat-'));
  });
  afterAll(async () => {
    worker?.kill('SIGKILL');
    await proxy.close();
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stops while the worker cannot reach its database, and starts again when it can', async () => {
    const file = join(dir, 'alive');
    const url = new URL(db.url ?? '');
    url.port = String(proxy.port);
    worker = spawn(process.execPath, [WORKER_MAIN], {
      env: {
        PATH: process.env['PATH'],
        NODE_ENV: 'production',
        LOG_LEVEL: 'info',
        DATABASE_URL: url.toString(),
        REDIS_URL: process.env['REDIS_URL'],
        JOBS_PREFIX: `whb${randomBytes(3).toString('hex')}`,
        WORKER_HEARTBEAT_FILE: file,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const proc = worker;
    proc.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    proc.stderr?.on('data', (d: Buffer) => (out += d.toString()));
    const mtime = (): number => {
      try {
        return statSync(file).mtimeMs;
      } catch {
        return 0;
      }
    };
    const lines = (msg: string): number => out.split('\n').filter((l) => l.includes(`"msg":"${msg}`)).length;

    await waitFor(() => out.includes('consuming jobs') || proc.exitCode !== null, 60_000, 'the worker to start');
    expect(proc.exitCode).toBeNull();
    // The worker touches the file before it writes its banner (and the banner may reach us first).
    await waitFor(() => mtime() > 0, 5_000, 'the first touch');
    const first = mtime();
    // Healthy: touched again within its 5 s.
    await waitFor(() => mtime() > first, 8_000, 'a second touch');

    proxy.cut();
    const cutAt = Date.now();
    await waitFor(() => lines('database unreachable (') > 0, 10_000, '"database unreachable"');
    // Within a sweep (15 s) and a touch (5 s), the file stops changing: 8 s with no touch, well
    // past its 5 s, within 35 s of the cut. Before, it was touched every 5 s throughout.
    let stale = false;
    let since = mtime();
    let sinceAt = Date.now();
    while (!stale && Date.now() - cutAt < 35_000) {
      await sleep(500);
      const now = mtime();
      if (now !== since) [since, sinceAt] = [now, Date.now()];
      stale = Date.now() - sinceAt >= 8_000;
    }
    expect(stale).toBe(true);
    expect(proc.exitCode).toBeNull();

    proxy.restore();
    const before = mtime();
    // The next sweep (within 15 s) reaches the database; the next touch (5 s) follows.
    await waitFor(() => mtime() > before, 25_000, 'a touch after the database returned');
    expect(lines('database unreachable (')).toBe(1);
    expect(lines('database reachable again')).toBe(1);
  }, 150_000);
});
