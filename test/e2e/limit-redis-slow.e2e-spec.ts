import request from 'supertest';
import { startApp, type TestApp } from '../support/test-app.js';
import { describeWithServerAndRedis } from '../support/test-database.js';
import { slowRedis } from '../support/slow-redis.js';
import { signUp } from '../support/staff.js';
import { sandboxVenue, uniq } from '../support/restaurant.js';

const LIMIT = 7;

/**
 * A limit counted on Redis, with each api process's in-memory insurance for when Redis fails (down,
 * or slower than the limiter's 300 ms). The insurance used to count from zero: a CI run on a loaded
 * machine let a 21st join through a limit of 20 when one count timed out. It now goes on from the
 * last count Redis gave.
 */
describeWithServerAndRedis('a slow Redis needs PostgreSQL and Redis')('the join limit when Redis turns slow mid-window', () => {
  let t: TestApp;
  let proxy: Awaited<ReturnType<typeof slowRedis>>;

  beforeAll(async () => {
    proxy = await slowRedis(new URL(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379'), 0);
    t = await startApp({
      env: { REDIS_URL: proxy.url, TRUST_PROXY: '', JOIN_RATE_PER_ADDRESS: String(LIMIT), JOIN_RATE_PER_VENUE: '1000' },
    });
  });
  afterAll(async () => {
    await t.close();
    await proxy.close();
  });

  const join = (slug: string): Promise<number> =>
    request(t.baseUrl)
      .post(`/v1/public/venues/${slug}/queue`)
      .send({ name: `Spam ${uniq()}`, partySize: 2, email: `victim-${uniq()}@example.test` })
      .then((r) => r.status);

  it('refuses past the limit on the last count Redis gave, not from zero', async () => {
    const owner = await signUp(t, 'owner');
    const v = await sandboxVenue(t, owner, { clock: '2026-05-09T19:40:00+12:00', published: true });
    const before: number[] = [];
    for (let i = 0; i < LIMIT - 2; i++) before.push(await join(v.slug));
    expect(before).toEqual(Array.from({ length: LIMIT - 2 }, () => 201));
    // Redis now answers after the limiter has given up on it: the insurance counts.
    proxy.setDelay(500);
    const after: number[] = [];
    for (let i = 0; i < 4; i++) after.push(await join(v.slug));
    proxy.setDelay(0);
    expect(after).toEqual([201, 201, 429, 429]);
  }, 60_000);
});
