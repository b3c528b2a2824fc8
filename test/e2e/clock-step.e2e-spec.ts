import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  API_MAIN,
  BuiltProcess,
  builtWorker,
  call,
  describeWithStack,
  freePort,
  ownerVenue,
  privatePostgres,
  privateRedis,
  query,
  sleep,
} from '../support/built-stack.js';

/** A simulated host: Date moved by HB_TEST_CLOCK_SHIFT_MS, stepped by HB_TEST_CLOCK_STEP_MS when HB_TEST_CLOCK_STEP_FILE appears (test-only preload). */
const SHIFTED = `--import ${resolve('test/support/shifted-clock.preload.mjs')}`;
const HOLD_SECONDS = 45;
/** How far a process may still be from the database's clock: it follows it past 250 ms (or a round trip). */
const FOLLOW_MS = 300;
const ON_TIME_MS = 2500;

/**
 * Every process follows PostgreSQL's clock, measured at start and every minute. A host's clock that
 * NTP steps between two checks (a host found 90 s ahead set right; one 30 s behind set right) must
 * not move the process's clock with it until the next check: a hold made or ended in that minute
 * would be short or cut early by the whole step.
 */
describeWithStack('hosts whose clocks NTP steps between two checks of the database’s clock', () => {
  let postgres: Awaited<ReturnType<typeof privatePostgres>>;
  let redis: Awaited<ReturnType<typeof privateRedis>>;
  let api: BuiltProcess | undefined;
  let worker: BuiltProcess | undefined;
  // A free port: a fixed one collides with another copy of this file or a neighbour's server.
  let apiPort: number;
  let base: string;

  const steps = mkdtempSync(join(tmpdir(), 'hb-clock-step-'));
  beforeAll(async () => {
    apiPort = await freePort();
    base = `http://127.0.0.1:${apiPort}`;
    postgres = await privatePostgres();
    redis = await privateRedis();
  }, 60_000);
  afterAll(async () => {
    await api?.stop();
    await worker?.stop();
    redis?.stop();
    postgres?.remove();
    rmSync(steps, { recursive: true, force: true });
  });

  const dbNow = async (): Promise<number> =>
    (await query<{ now: Date }>(postgres.url, 'SELECT clock_timestamp() AS now'))[0]!.now.getTime();

  it(`a ${HOLD_SECONDS} s hold made and ended just after the api's host (90 s ahead) and the worker's (30 s behind) are stepped right lasts ${HOLD_SECONDS} s by PostgreSQL’s clock`, async () => {
    const env = { DATABASE_URL: postgres.url, REDIS_URL: redis.url, JOBS_PREFIX: 'bb-break-clock-step' };
    api = new BuiltProcess(API_MAIN, {
      ...env,
      PORT: String(apiPort),
      HOST: '127.0.0.1',
      NODE_OPTIONS: SHIFTED,
      HB_TEST_CLOCK_SHIFT_MS: '90000',
      HB_TEST_CLOCK_STEP_MS: '-90000',
      HB_TEST_CLOCK_STEP_FILE: join(steps, 'api'),
    });
    await api.started(/running at http/);
    worker = await builtWorker({
      ...env,
      HOST: '127.0.0.1',
      NODE_OPTIONS: SHIFTED,
      HB_TEST_CLOCK_SHIFT_MS: '-30000',
      HB_TEST_CLOCK_STEP_MS: '30000',
      HB_TEST_CLOCK_STEP_FILE: join(steps, 'worker'),
    });
    const { token, venueId } = await ownerVenue(base, HOLD_SECONDS);
    expect((await call(base, 'POST', `/v1/venues/${venueId}/queue`, { name: 'Step', partySize: 2 }, token)).status).toBe(201);

    // NTP sets both hosts right, well before either process's next minute check.
    writeFileSync(join(steps, 'api'), '');
    writeFileSync(join(steps, 'worker'), '');
    await sleep(300);
    expect([api.lines('test clock stepped').length > 0, worker.lines('test clock stepped').length > 0]).toEqual([true, true]);

    const before = await dbNow();
    const promoted = await call(base, 'POST', `/v1/venues/${venueId}/promotions`, {}, token);
    const after = await dbNow();
    expect(promoted.status).toBe(201);
    const offerId = (promoted.body['offer'] as { id: string }).id;
    const [{ expires_at }] = await query<{ expires_at: Date }>(postgres.url, 'SELECT expires_at FROM offers WHERE id = $1', [
      offerId,
    ]);
    const deadline = expires_at!.getTime();
    // The api saw its host's clock move against the monotonic one and read the database's again at once.
    for (let i = 0; i < 20 && api.lines("this process's clock agrees").length === 0; i++) await sleep(100);
    expect(api.lines("this process's clock agrees")).toHaveLength(1);

    let lastLive = before;
    let firstEnded: number | undefined;
    while (firstEnded === undefined && Date.now() < after + HOLD_SECONDS * 1000 + ON_TIME_MS + 5000) {
      const [row] = await query<{ state: string; now: Date }>(
        postgres.url,
        'SELECT state, clock_timestamp() AS now FROM offers WHERE id = $1',
        [offerId],
      );
      if (row!.state === 'live') lastLive = row!.now.getTime();
      else firstEnded = row!.now.getTime();
      if (firstEnded === undefined) await sleep(100);
    }
    const figures = {
      deadlineFromPromotion: [deadline - after, deadline - before].map((ms) => Math.round(ms)),
      seenLiveFor: lastLive - after,
      endedAfterDeadline: firstEnded === undefined ? null : firstEnded - deadline,
    };
    expect({
      ...figures,
      deadlineIsHoldLength:
        deadline >= before + HOLD_SECONDS * 1000 - FOLLOW_MS && deadline <= after + HOLD_SECONDS * 1000 + FOLLOW_MS,
      notEndedEarly: lastLive >= before + HOLD_SECONDS * 1000 - FOLLOW_MS && firstEnded !== undefined && firstEnded >= deadline,
      endedOnTime: firstEnded !== undefined && firstEnded <= deadline + ON_TIME_MS,
    }).toEqual({ ...figures, deadlineIsHoldLength: true, notEndedEarly: true, endedOnTime: true });
  }, 150_000);
});
