import { createServer } from 'node:net';
import request from 'supertest';
import { startApp, type TestApp } from '../support/test-app.js';
import { createVenue, signIn, signUp, type Staff } from '../support/staff.js';

/** A loopback port nothing listens on: a Redis that is down for the whole test. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/** Wall time of one request, in ms, with its answer. */
async function timed<T>(send: () => Promise<T>): Promise<{ ms: number; res: T }> {
  const t0 = performance.now();
  const res = await send();
  return { ms: performance.now() - t0, res };
}

// Redis carries fan-out, jobs and login counters; PostgreSQL is the truth. With Redis unreachable
// from the first moment, the api must still answer everything within about a second (issue 12).
describe('the api with its Redis down', () => {
  let t: TestApp;
  let owner: Staff;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
  const timers = (): number => process.getActiveResourcesInfo().filter((type) => type === 'Timeout').length;
  let timersBefore = 0;

  beforeAll(async () => {
    process.on('unhandledRejection', onUnhandled);
    timersBefore = timers();
    t = await startApp({ env: { REDIS_URL: `redis://127.0.0.1:${await closedPort()}` } });
    owner = await signUp(t, 'redis-down');
  });
  afterAll(async () => {
    const closing = await timed(() => t.close());
    process.off('unhandledRejection', onUnhandled);
    // Shutting down must not wait for a Redis that never came.
    expect(closing.ms).toBeLessThan(10_000);
    // Nor leave a timer that keeps the stopped process alive (ioredis's disconnect timer, 2 s each).
    expect(timers()).toBeLessThanOrEqual(timersBefore);
  });

  it('/ready answers 200 "degraded" within a second, naming redis: the api still serves, so a balancer keeps it', async () => {
    const { ms, res } = await timed(() => request(t.baseUrl).get('/ready'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'degraded', checks: { database: 'ok', redis: 'unreachable' } });
    expect(ms).toBeLessThan(1000);
  });

  it('login answers 201, a wrong password 401, never 500: the in-process limiter stands in', async () => {
    const ok = await timed(() =>
      request(t.baseUrl).post('/v1/auth/sessions').send({ email: owner.email, password: owner.password }),
    );
    expect(ok.res.status).toBe(201);
    expect(ok.ms).toBeLessThan(1000);
    const wrong = await timed(() =>
      request(t.baseUrl).post('/v1/auth/sessions').send({ email: owner.email, password: 'not-the-password' }),
    );
    expect(wrong.res.status).toBe(401);
    expect(wrong.ms).toBeLessThan(1000);
  });

  it('commits joins and offers and exchanges tokens within a second: pushes and job scheduling do not wait for Redis', async () => {
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
          .send({ name: `Q${i}`, partySize: 1 }),
      );
      expect(join.res.status).toBe(201);
      expect(join.ms).toBeLessThan(1000);
    }
    // A party's token exchange goes through the same limiter as login: a session, not a 500.
    const joined = await request(t.baseUrl)
      .post(`/v1/venues/${venue.id}/queue`)
      .set(me.auth)
      .send({ name: 'Token', partySize: 1 });
    expect(joined.status).toBe(201);
    const queueToken = (joined.body as { queueToken?: string }).queueToken;
    expect(typeof queueToken).toBe('string');
    const exchanged = await timed(() => request(t.baseUrl).post('/v1/queue-sessions').send({ token: queueToken }));
    expect(exchanged.res.status).toBe(201);
    expect(exchanged.ms).toBeLessThan(1000);
    const offer = await timed(() => request(t.baseUrl).post(`/v1/venues/${venue.id}/promotions`).set(me.auth).send({}));
    expect(offer.res.status).toBe(201);
    // Its expiry job cannot be queued: refused at once, not after a wait (the sweep expires it).
    expect(offer.ms).toBeLessThan(500);
    expect(unhandled).toEqual([]);
  });
  it('still limits failed logins without Redis: the fallback counts in memory, then 429', async () => {
    const victim = await signUp(t, 'redis-down-limit');
    const limit = t.config.AUTH_RATE_LIMIT;
    const statuses: number[] = [];
    for (let i = 0; i <= limit; i++) {
      statuses.push(
        (
          await request(t.baseUrl)
            .post('/v1/auth/sessions')
            .send({ email: victim.email, password: `wrong-${i}` })
        ).status,
      );
    }
    // The address's count already holds the earlier tests' attempts: the refusal may come sooner.
    const refusedAt = statuses.indexOf(429);
    expect(refusedAt).toBeGreaterThan(0);
    expect(statuses.slice(0, refusedAt).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(refusedAt).every((s) => s === 429)).toBe(true);
  });
});
