import { waitFor } from '../support/board-client.js';
import {
  builtApi,
  builtWorker,
  call,
  ownerVenue,
  privatePostgres,
  privateRedis,
  query,
  sleep,
  describeWithStack,
  type BuiltProcess,
} from '../support/built-stack.js';

/**
 * PostgreSQL stopped and started again under the built api and worker (a PostgreSQL of the test's
 * own): what the operator reads, and what the guests get.
 */
describeWithStack('PostgreSQL restarted under the built api and worker', () => {
  let postgres: Awaited<ReturnType<typeof privatePostgres>>;
  let redis: Awaited<ReturnType<typeof privateRedis>>;
  let api: BuiltProcess | undefined;
  let worker: BuiltProcess | undefined;
  let base = '';
  let env: Record<string, string> = {};

  beforeAll(async () => {
    postgres = await privatePostgres();
    redis = await privateRedis(['--hz', '100']);
    env = { DATABASE_URL: postgres.url, REDIS_URL: redis.url, JOBS_PREFIX: 'pg-restart' };
    const started = await builtApi(env);
    api = started.proc;
    base = started.base;
    worker = await builtWorker(env);
  }, 180_000);
  afterAll(async () => {
    await api?.stop();
    await worker?.stop();
    redis?.stop();
    postgres?.remove();
  });

  // The worker's expiry jobs and safety sweeps fail while the database is away, and BullMQ retries
  // each: they logged a line at the first failure and another every 10 s (a summary and the next
  // failure) for as long as the outage lasted, besides the database watch's own "unreachable" line.
  it('the worker says "database unreachable" once and "reachable again" once, and no line per failed job; offers due meanwhile expire once', async () => {
    const { token, venueId } = await ownerVenue(base, 2);
    for (let i = 0; i < 4; i++)
      expect((await call(base, 'POST', `/v1/venues/${venueId}/queue`, { name: `D${i}`, partySize: 1 }, token)).status).toBe(201);
    const offers: string[] = [];
    for (let i = 0; i < 4; i++) {
      const r = await call(base, 'POST', `/v1/venues/${venueId}/promotions`, {}, token);
      expect(r.status).toBe(201);
      offers.push((r.body['offer'] as { id: string }).id);
    }
    const from = worker!.mark;
    postgres.stop();
    // Longer than two safety sweeps (15 s) and the expiry jobs' retries: each ran into the outage.
    await sleep(32_000);
    expect(worker!.ended).toBe(false);
    postgres.start();
    await waitFor(() => worker!.lines('database reachable again', from).length > 0, 30_000, '"database reachable again"');
    const expiredAll = async (): Promise<boolean> =>
      (
        await query<{ n: number }>(
          postgres.url,
          "SELECT count(*)::int AS n FROM offers WHERE id = ANY($1::uuid[]) AND state = 'expired'",
          [offers],
        )
      )[0]?.n === offers.length;
    for (let i = 0; i < 80 && !(await expiredAll()); i++) await sleep(250);
    expect(await expiredAll()).toBe(true);
    const twice = await query(
      postgres.url,
      "SELECT subject_id FROM history WHERE subject_type = 'offer' AND to_state = 'expired' AND subject_id = ANY($1::uuid[]) GROUP BY subject_id HAVING count(*) > 1",
      [offers],
    );
    expect(twice).toEqual([]);
    expect(worker!.lines('database unreachable (', from)).toHaveLength(1);
    expect(worker!.lines('database reachable again', from)).toHaveLength(1);
    expect(worker!.warnings(from)).toEqual(worker!.lines('database unreachable (', from));
  }, 150_000);
});
