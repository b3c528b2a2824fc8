import { spawn, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import request from 'supertest';
import { startApp, type TestApp } from '../support/test-app.js';
import { freshDatabase, hasServer, type TestDatabase } from '../support/test-database.js';
import { waitFor } from '../support/board-client.js';
import {
  builtApi,
  call,
  freePort,
  hasRedisServer,
  OWNER,
  ownerVenue,
  privateRedis,
  type BuiltProcess,
} from '../support/built-stack.js';
import { createVenue, signIn, signUp, type Staff } from '../support/staff.js';

async function timed<T>(send: () => Promise<T>): Promise<{ ms: number; res: T }> {
  const t0 = performance.now();
  const res = await send();
  return { ms: performance.now() - t0, res };
}

/** Writes values of `size` bytes until Redis refuses one for memory; answers how many it took. */
async function fillUntilRefused(redis: Redis, size: number): Promise<number> {
  const value = 'x'.repeat(size);
  for (let i = 0; i < 10_000; i++) {
    try {
      await redis.set(`filler:${size}:${i}`, value);
    } catch (err) {
      if (/^OOM/.test((err as Error).message)) return i;
      throw err;
    }
  }
  throw new Error('Redis never refused a write');
}

const describeHere =
  hasServer() && hasRedisServer
    ? describe
    : (((name: string, fn: () => void) =>
        describe.skip(`${name} [skipped: needs DATABASE_URL and a redis-server binary]`, fn)) as jest.Describe);

// A Redis at its maxmemory with noeviction answers PING but refuses every write ("OOM command not
// allowed"): expiry jobs, shared login counters, a worker taking a job. /ready must say so, without
// taking the api out (every command still commits), and nothing may wait on it.
describeHere('the api with its Redis full (maxmemory reached, noeviction)', () => {
  let redisProcess: ChildProcess;
  let redis: Redis;
  let t: TestApp;
  let owner: Staff;

  beforeAll(async () => {
    const port = await freePort();
    redisProcess = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--maxmemory',
        '3mb',
        '--maxmemory-policy',
        'noeviction',
      ],
      { stdio: 'ignore' },
    );
    redis = new Redis(`redis://127.0.0.1:${port}`, { maxRetriesPerRequest: 50, retryStrategy: () => 50 });
    await redis.ping();
    t = await startApp({ env: { REDIS_URL: `redis://127.0.0.1:${port}` } });
    owner = await signUp(t, 'redis-full');
  });
  afterAll(async () => {
    await t?.close();
    redis?.disconnect();
    redisProcess?.kill('SIGKILL');
  });

  it('/ready is 200 "ready" until Redis refuses writes, then 200 "degraded" naming redis "full", within a second', async () => {
    await request(t.baseUrl)
      .get('/ready')
      .expect(200, { status: 'ready', checks: { database: 'ok', redis: 'ok' } });
    // Large values first, then small ones: Redis counts a command's own arguments, so a large write
    // is refused while a small one still fits.
    await fillUntilRefused(redis, 65_536);
    await fillUntilRefused(redis, 1024);
    await fillUntilRefused(redis, 8);
    // Well below what it holds, so no write fits later either (at the edge, memory freed by an
    // expiring key or a client's buffers let a small write in: the next test's check then failed).
    await redis.config('SET', 'maxmemory', '1mb');
    expect(await redis.ping()).toBe('PONG');
    const { ms, res } = await timed(() => request(t.baseUrl).get('/ready'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'degraded', checks: { database: 'ok', redis: 'full' } });
    expect(ms).toBeLessThan(1000);
  });

  it('still commits joins and offers and answers logins promptly while Redis refuses writes', async () => {
    await expect(redis.set('one-more', '1')).rejects.toThrow(/^OOM/);
    const login = await timed(() =>
      request(t.baseUrl).post('/v1/auth/sessions').send({ email: owner.email, password: owner.password }),
    );
    expect(login.res.status).toBe(201);
    expect(login.ms).toBeLessThan(1000);
    const wrong = await timed(() =>
      request(t.baseUrl).post('/v1/auth/sessions').send({ email: owner.email, password: 'not-the-password' }),
    );
    expect(wrong.res.status).toBe(401);
    expect(wrong.ms).toBeLessThan(1000);
    const me = await signIn(t, owner.email, owner.password);
    const venue = await createVenue(t, me, { preset: 'workshop', poolCapacity: 5 });
    await request(t.baseUrl)
      .patch(`/v1/venues/${venue.id}`)
      .set(me.auth)
      .send({ policy: { holdSeconds: 600 } })
      .expect(200);
    for (let i = 0; i < 3; i++) {
      const join = await timed(() =>
        request(t.baseUrl)
          .post(`/v1/venues/${venue.id}/queue`)
          .set(me.auth)
          .send({ name: `F${i}`, partySize: 1 }),
      );
      expect(join.res.status).toBe(201);
      expect(join.ms).toBeLessThan(1000);
    }
    // Its expiry job is refused (OOM) at once; the sweep expires it instead.
    const offer = await timed(() => request(t.baseUrl).post(`/v1/venues/${venue.id}/promotions`).set(me.auth).send({}));
    expect(offer.res.status).toBe(201);
    expect(offer.ms).toBeLessThan(1000);
    const board = await request(t.baseUrl).get(`/v1/venues/${venue.id}/board`).set(me.auth);
    expect(board.status).toBe(200);
  });

  it('reads "ready" again once Redis has room', async () => {
    await redis.config('SET', 'maxmemory', '0');
    await redis.flushall();
    await request(t.baseUrl)
      .get('/ready')
      .expect(200, { status: 'ready', checks: { database: 'ok', redis: 'ok' } });
  });
});

// What an operator reads while Redis is full: each offer's expiry job is refused, and each used to
// log its own line ("after-commit step failed … OOM command not allowed"), on every api process.
// Now one line says the refusals started and why, and one line, when Redis has room again, how many.
describeHere('the built api with its Redis full: the log', () => {
  let db: TestDatabase;
  let redisServer: Awaited<ReturnType<typeof privateRedis>>;
  let api: BuiltProcess | undefined;

  beforeAll(async () => {
    db = await freshDatabase();
    redisServer = await privateRedis(['--maxmemory', '3mb', '--maxmemory-policy', 'noeviction']);
  });
  afterAll(async () => {
    await api?.stop();
    redisServer?.stop();
    await db?.drop();
  });

  it('says once that Redis refuses expiry jobs, and once how many when it takes them again; no line per offer or login', async () => {
    const started = await builtApi({ DATABASE_URL: db.url, REDIS_URL: redisServer.url, JOBS_PREFIX: 'full-log' });
    api = started.proc;
    const { base } = started;
    const { token, venueId } = await ownerVenue(base, 600);
    for (let i = 0; i < 8; i++)
      expect((await call(base, 'POST', `/v1/venues/${venueId}/queue`, { name: `L${i}`, partySize: 1 }, token)).status).toBe(201);
    const filler = new Redis(redisServer.url);
    try {
      await fillUntilRefused(filler, 65_536);
      await fillUntilRefused(filler, 1024);
      await fillUntilRefused(filler, 8);
    } finally {
      filler.disconnect();
    }
    // Well below what it holds: every write is refused (at the edge, a small one may still fit).
    redisServer.cli('CONFIG', 'SET', 'maxmemory', '1mb');
    const from = api.mark;
    // Six offers, each with an expiry job Redis refuses; logins and wrong passwords (counters in Redis).
    for (let i = 0; i < 6; i++)
      expect((await call(base, 'POST', `/v1/venues/${venueId}/promotions`, {}, token)).status).toBe(201);
    for (let i = 0; i < 3; i++) {
      expect((await call(base, 'POST', '/v1/auth/sessions', { email: OWNER.email, password: `not-it-${i}` })).status).toBe(401);
      expect((await call(base, 'POST', '/v1/auth/sessions', OWNER)).status).toBe(201);
    }
    expect((await call(base, 'GET', '/ready')).body['checks']).toEqual({ database: 'ok', redis: 'full' });
    // A promotion's job is added after its answer: its refusal is logged a moment later (a CI run read
    // the log before that line had arrived).
    await waitFor(() => api!.lines('Redis is refusing writes', from).length > 0, 15_000, '"Redis is refusing writes"');
    const refusing = api.lines('Redis is refusing writes', from);
    expect(refusing).toHaveLength(1);
    expect(refusing[0]).toContain('sweep');
    // Nothing else: no line per refused job, per login, per board push.
    expect(api.warnings(from)).toEqual(refusing);

    // Room again, and no offer made: the count is reported anyway (the scheduler probes Redis).
    redisServer.cli('CONFIG', 'SET', 'maxmemory', '0');
    await waitFor(() => api!.lines('Redis takes jobs again', from).length > 0, 15_000, '"Redis takes jobs again"');
    const back = api.lines('Redis takes jobs again', from);
    expect(back).toHaveLength(1);
    expect(back[0]).toContain('6 expiry jobs refused');
    // And jobs are queued again, with no further line.
    expect((await call(base, 'POST', `/v1/venues/${venueId}/promotions`, {}, token)).status).toBe(201);
    expect(api.warnings(from)).toEqual(refusing);
  }, 150_000);
});
