import { randomBytes } from 'node:crypto';
import { API_MAIN, BuiltProcess, builtApi, builtWorker, call, freePort, sleep } from '../support/built-stack.js';
import { describeWithServer, describeWithServerAndRedis, freshDatabase, type TestDatabase } from '../support/test-database.js';

/** How the process ended, once it has (within `ms`); undefined while it still runs. */
async function ending(proc: BuiltProcess, ms: number): Promise<{ code: number | null; signal: string | null } | undefined> {
  for (let waited = 0; waited < ms && !proc.ended; waited += 100) await sleep(100);
  return proc.ended ? { code: proc.child.exitCode, signal: proc.child.signalCode } : undefined;
}

/**
 * Process managers send SIGHUP and SIGUSR2 for their own purposes (reopen the log files, reload):
 * the api stopped on each, since Nest's `enableShutdownHooks([])` stops on every signal it knows
 * (SIGHUP, SIGQUIT, SIGUSR2, …). It stops on SIGTERM and SIGINT only, and carries on through the others.
 */
describeWithServer('the built api on a PostgreSQL server')('the built api and signals', () => {
  let db: TestDatabase;
  let api: { proc: BuiltProcess; base: string } | undefined;

  beforeAll(async () => {
    db = await freshDatabase();
  });
  afterAll(async () => {
    api?.proc.child.kill('SIGKILL');
    await db.drop();
  });

  it('carries on through SIGUSR2 and SIGHUP, then stops on SIGTERM and exits 0', async () => {
    api = await builtApi({ DATABASE_URL: db.url, REDIS_URL: undefined });
    const { proc, base } = api;
    for (const signal of ['SIGUSR2', 'SIGHUP'] as const) {
      const mark = proc.mark;
      proc.child.kill(signal);
      const ended = await ending(proc, 1500);
      expect({ signal, ended, health: (await call(base, 'GET', '/health')).status }).toEqual({
        signal,
        ended: undefined,
        health: 200,
      });
      expect(proc.out.slice(mark)).toContain(`${signal} received: carrying on`);
    }
    proc.child.kill('SIGTERM');
    expect(await ending(proc, 15_000)).toEqual({ code: 0, signal: null });
  }, 120_000);
});

/**
 * The worker, likewise: SIGUSR2 and SIGHUP leave it consuming jobs; SIGINT stops it. And `npm start`
 * on several cores, whose primary died on SIGHUP and SIGUSR2 (Node's default) and left its processes.
 */
describeWithServerAndRedis('the built processes on PostgreSQL and Redis')(
  'the built worker, and the api on several cores, and signals',
  () => {
    let db: TestDatabase;
    let worker: BuiltProcess | undefined;
    const stopLater: BuiltProcess[] = [];

    beforeAll(async () => {
      db = await freshDatabase();
    });
    afterAll(async () => {
      worker?.child.kill('SIGKILL');
      for (const p of stopLater) await p.stop();
      await db.drop();
    });

    it('carries on through SIGUSR2 and SIGHUP, then stops on SIGINT', async () => {
      worker = await builtWorker({
        DATABASE_URL: db.url,
        REDIS_URL: process.env['REDIS_URL'],
        JOBS_PREFIX: `sig-${randomBytes(3).toString('hex')}`,
      });
      for (const signal of ['SIGUSR2', 'SIGHUP'] as const) {
        const mark = worker.mark;
        worker.child.kill(signal);
        expect({ signal, ended: await ending(worker, 1500) }).toEqual({ signal, ended: undefined });
        expect(worker.out.slice(mark)).toContain(`${signal} received: carrying on`);
      }
      worker.child.kill('SIGINT');
      // As before: Nest's hooks close the worker (jobs handed back), then raise the signal again.
      expect(await ending(worker, 15_000)).toEqual({ code: null, signal: 'SIGINT' });
    }, 120_000);

    it('`npm start` on several cores: the primary carries on through SIGHUP and SIGUSR2, and stops its processes on SIGTERM', async () => {
      const port = await freePort();
      const primary = new BuiltProcess(API_MAIN, {
        PORT: String(port),
        HOST: '127.0.0.1',
        API_PROCESSES: '2',
        DATABASE_URL: db.url,
        REDIS_URL: process.env['REDIS_URL'],
        JOBS_PREFIX: `sig-${randomBytes(3).toString('hex')}`,
      });
      stopLater.push(primary);
      const base = `http://127.0.0.1:${port}`;
      await primary.started(/api processes: +2/);
      for (const signal of ['SIGHUP', 'SIGUSR2'] as const) {
        primary.child.kill(signal);
        const ended = await ending(primary, 1500);
        expect({ signal, ended, health: (await call(base, 'GET', '/health')).status }).toEqual({
          signal,
          ended: undefined,
          health: 200,
        });
      }
      primary.child.kill('SIGTERM');
      expect(await ending(primary, 15_000)).toEqual({ code: 0, signal: null });
    }, 120_000);
  },
);
