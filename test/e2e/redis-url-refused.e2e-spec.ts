import { API_MAIN, BuiltProcess, freePort, hasRedisServer, privateRedis, sleep, WORKER_MAIN } from '../support/built-stack.js';
import { describeWithServer, freshDatabase, type TestDatabase } from '../support/test-database.js';

/**
 * Redis may be away at any moment, so an api or worker starts without it. But a Redis that answers
 * and refuses what REDIS_URL asks is a mistake in the setting, not an outage: a database number the
 * server does not have (`/99` with 16) made ioredis log the SELECT's error and carry on in database
 * 0, sharing another deployment's keys, while `/ready` read `ok`; a wrong password had every command
 * refused for as long as the process ran. Either now stops the start with one line naming REDIS_URL.
 */
const describeHere = hasRedisServer
  ? describeWithServer('the built api and worker on a PostgreSQL server')
  : (((name: string, fn: () => void) => describe.skip(`${name} [skipped: needs redis-server]`, fn)) as jest.Describe);

describeHere('a REDIS_URL the Redis server refuses', () => {
  let db: TestDatabase;
  const procs: BuiltProcess[] = [];
  const stops: Array<() => void> = [];

  beforeAll(async () => {
    db = await freshDatabase();
  });
  afterAll(async () => {
    for (const p of procs) p.child.kill('SIGKILL');
    for (const stop of stops) stop();
    await db.drop();
  });

  /** Runs the built process until it exits or serves (then it is stopped): its exit code (null: it ran) and output. */
  async function start(script: string, env: Record<string, string | undefined>): Promise<{ code: number | null; out: string }> {
    const p = new BuiltProcess(script, { PORT: String(await freePort()), HOST: '127.0.0.1', DATABASE_URL: db.url, ...env });
    procs.push(p);
    for (let waited = 0; waited < 90_000 && !p.ended; waited += 100) {
      if (/running at http|consuming jobs/.test(p.out)) break;
      await sleep(100);
    }
    const code = p.ended ? p.child.exitCode : null;
    await p.stop();
    return { code, out: p.out };
  }

  it('a database number the server does not have: the api and the worker refuse to start, writing nothing to database 0', async () => {
    const redis = await privateRedis();
    stops.push(redis.stop);
    const url = `${redis.url}/99`;
    const api = await start(API_MAIN, { REDIS_URL: url });
    expect(api.code).toBe(1);
    expect(api.out.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^Configuration error: REDIS_URL selects database 99, which the Redis server at 127\.0\.0\.1:\d+ does not have/,
      ),
    ]);
    const worker = await start(WORKER_MAIN, { REDIS_URL: url });
    expect(worker.code).toBe(1);
    expect(worker.out).toMatch(/^Configuration error: REDIS_URL selects database 99/);
    expect(redis.cli('-n', '0', 'dbsize')).toBe('0');
  }, 240_000);

  it('a wrong password: the api refuses to start with one line, without the password', async () => {
    const redis = await privateRedis(['--requirepass', 'the-right-redis-secret']);
    stops.push(redis.stop);
    const api = await start(API_MAIN, { REDIS_URL: `redis://:a-wrong-redis-secret@127.0.0.1:${redis.port}/3` });
    expect(api.code).toBe(1);
    expect(api.out).toMatch(/^Configuration error: REDIS_URL: the Redis server at 127\.0\.0\.1:\d+ refused its user or password/);
    expect(api.out).not.toContain('secret');
  }, 120_000);
});
