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

/** How late an offer may expire after its deadline: the job's own latency, not the 15 s safety sweep. */
const ON_TIME_MS = 2000;

/**
 * Redis (nothing on disk) killed and started again under the built api and worker: every delayed
 * expiry job is gone with it. The offers must still expire at their deadlines, not at the next
 * safety sweep up to 15 s later, while the board shows their tables held.
 */
describeWithStack('Redis restarted under the built api and worker: offer expiry', () => {
  let postgres: Awaited<ReturnType<typeof privatePostgres>>;
  let redis: Awaited<ReturnType<typeof privateRedis>>;
  let api: BuiltProcess | undefined;
  let worker: BuiltProcess | undefined;
  let base = '';
  let env: Record<string, string> = {};

  beforeAll(async () => {
    postgres = await privatePostgres();
    redis = await privateRedis();
    env = { DATABASE_URL: postgres.url, REDIS_URL: redis.url, JOBS_PREFIX: 'redis-restart' };
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

  /** Two offers at each of four live venues, one per hold length (seconds). */
  async function twoOffersEach(holds: number[]): Promise<string[]> {
    const offers: string[] = [];
    for (const hold of holds) {
      const { token, venueId } = await ownerVenue(base, hold);
      for (let i = 0; i < 2; i++)
        expect((await call(base, 'POST', `/v1/venues/${venueId}/queue`, { name: `R${i}`, partySize: 1 }, token)).status).toBe(
          201,
        );
      for (let i = 0; i < 2; i++) {
        const r = await call(base, 'POST', `/v1/venues/${venueId}/promotions`, {}, token);
        expect(r.status).toBe(201);
        offers.push((r.body['offer'] as { id: string }).id);
      }
    }
    return offers;
  }

  /** Waits past the last deadline: every offer expired once, none before its deadline, none more than ON_TIME_MS after. */
  async function expectOnTime(offers: string[]): Promise<void> {
    const [{ last }] = await query<{ last: Date }>(
      postgres.url,
      'SELECT max(expires_at) AS last FROM offers WHERE id = ANY($1::uuid[])',
      [offers],
    );
    const expiredAll = async (): Promise<boolean> =>
      (
        await query<{ n: number }>(
          postgres.url,
          "SELECT count(*)::int AS n FROM offers WHERE id = ANY($1::uuid[]) AND state = 'expired'",
          [offers],
        )
      )[0]?.n === offers.length;
    while (Date.now() < last!.getTime() + ON_TIME_MS + 1000 && !(await expiredAll())) await sleep(200);

    const rows = await query<{ id: string; expires_at: Date; at: Date | null; n: number; resolved: Date | null }>(
      postgres.url,
      // When the sweep ended it: its reservation's release (the offer's resolved_at and its history
      // record a lapse at the deadline itself, whenever the sweep ran).
      `SELECT o.id, o.expires_at, r.updated_at AS at, o.resolved_at AS resolved, count(h.id)::int AS n
         FROM offers o JOIN reservations r ON r.id = o.reservation_id
         LEFT JOIN history h ON h.subject_type = 'offer' AND h.subject_id = o.id AND h.to_state = 'expired'
        WHERE o.id = ANY($1::uuid[]) GROUP BY o.id, o.expires_at, r.updated_at, o.resolved_at`,
      [offers],
    );
    expect(rows.filter((r) => r.resolved?.getTime() !== r.expires_at.getTime())).toEqual([]);
    const lateness = rows.map((r) => (r.at ? r.at.getTime() - r.expires_at.getTime() : null));
    // Every offer expired once, none before its deadline, none more than 2 s after it.
    expect({ lateness, onTime: lateness.every((ms) => ms !== null && ms >= 0 && ms <= ON_TIME_MS) }).toEqual({
      lateness,
      onTime: true,
    });
    expect(rows.map((r) => r.n)).toEqual(offers.map(() => 1));
  }

  it('the worker re-queues every live offer’s expiry job: each expires within 2 s of its deadline, none early, each once', async () => {
    // Deadlines 3 s apart, two offers each: the 15 s sweeps (the worker's timer and BullMQ's) can
    // land within 2 s after at most two of them, so without the re-queued jobs some are late.
    const offers = await twoOffersEach([20, 23, 26, 29]);
    const from = worker!.mark;
    redis.stop();
    await sleep(1000);
    await redis.start();
    await waitFor(
      () => worker!.lines('Redis reachable again', from).some((l) => l.includes('"context":"Redis job queue"')),
      15_000,
      `the worker to see Redis again:\n${worker!.out.slice(from)}`,
    );

    await expectOnTime(offers);
    expect(worker!.lines(`re-queued ${offers.length} offer expiries after Redis returned`, from)).toHaveLength(1);
    // No warning but the outage's own (no failed re-queue, no failed job).
    expect(worker!.warnings(from).filter((l) => !l.includes('"msg":"Redis unreachable'))).toEqual([]);
  }, 90_000);
  it('a worker started after Redis restarted while no worker ran re-queues every live offer: each on time, once', async () => {
    await worker!.stop();
    // Offers made with no worker running: their jobs wait in Redis, which then restarts empty.
    const offers = await twoOffersEach([25, 28, 31, 34]);
    redis.stop();
    await sleep(1000);
    await redis.start();
    worker = await builtWorker(env);
    await expectOnTime(offers);
    expect(worker.lines(`re-queued ${offers.length} offer expiries at the worker’s start`)).toHaveLength(1);
    // No warning about the jobs. The rate limits' own connection (the counters, which the worker does
    // not use for jobs) may time out a command while the new process starts on a loaded machine: it
    // says so and carries on with its in-process counts, as designed (a CI run under load, 300 ms).
    expect(worker.warnings().filter((l) => !l.includes('"context":"Redis rate limits"'))).toEqual([]);
  }, 120_000);
});
