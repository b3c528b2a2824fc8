import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import pg from 'pg';
import { waitFor } from '../support/board-client.js';
import { describeWithServerAndRedis, freshDatabase, type TestDatabase } from '../support/test-database.js';

const WORKER_MAIN = resolve('dist/apps/worker/src/main.js');
/** The migration lock (libs/persistence/src/data-source.factory.ts), held here as a long migration would. */
const MIGRATION_LOCK = 7_345_001;

/**
 * A worker started while another process applies a long migration (an index on a big table) must
 * wait for it and then start. Its connections carry lock_timeout = WORKER_LOCK_TIMEOUT_MS (10 s), and
 * its wait for the migration lock used to give up at that timeout: the worker exited with a lock
 * timeout and was restarted, over and over, for as long as the migration ran.
 */
describeWithServerAndRedis('the worker process on PostgreSQL and Redis')('a worker started during a long migration', () => {
  let db: TestDatabase;
  let holder: pg.Client;
  let worker: ChildProcess | undefined;
  let out = '';

  /** A session migrating another database of the same server: it holds the same key, and is not in the way. */
  let elsewhere: TestDatabase;
  let other: pg.Client;

  beforeAll(async () => {
    db = await freshDatabase();
    holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    elsewhere = await freshDatabase();
    other = new pg.Client({ connectionString: elsewhere.url });
    await other.connect();
  });
  afterAll(async () => {
    worker?.kill('SIGKILL');
    await holder.end().catch(() => undefined);
    await other.end().catch(() => undefined);
    await db.drop();
    await elsewhere.drop();
  });

  it('waits for the migration lock past its own lock timeout, says once for whom, then starts', async () => {
    // Another database's migration, first: the worker must not name it (it was, once, in CI).
    await other.query("SET application_name = 'hostboard elsewhere'");
    await other.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    // The other process's migration: it holds the lock, as migrate() does, in a session named for it.
    await holder.query("SET application_name = 'hostboard api 2'");
    await holder.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    // A short lock timeout stands for the 10 s default, so that waiting past it takes a few seconds.
    worker = spawn(process.execPath, [WORKER_MAIN], {
      env: {
        PATH: process.env['PATH'],
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        DATABASE_URL: db.url,
        REDIS_URL: process.env['REDIS_URL'],
        JOBS_PREFIX: `wmw${randomBytes(3).toString('hex')}`,
        WORKER_LOCK_TIMEOUT_MS: '500',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const proc = worker;
    proc.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    proc.stderr?.on('data', (d: Buffer) => (out += d.toString()));
    const waiting = (): string[] => out.split('\n').filter((l) => l.includes('waiting for the migrations'));
    await waitFor(() => waiting().length > 0 || proc.exitCode !== null, 20_000, 'the worker to wait or exit');
    expect(proc.exitCode).toBeNull();
    expect(waiting()).toHaveLength(1);
    const pid = ((await holder.query('SELECT pg_backend_pid() AS pid')).rows[0] as { pid: number }).pid;
    expect(waiting()[0]).toContain(
      `waiting for the migrations that another process (hostboard api 2) (PostgreSQL session pid ${pid} from 127.0.0.1`,
    );
    // Six times its lock timeout later it still waits: before, it had exited with a lock timeout.
    await new Promise((r) => setTimeout(r, 3000));
    expect(proc.exitCode).toBeNull();
    expect(out).not.toContain('consuming jobs');

    await holder.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    await waitFor(
      () => out.includes('hostboard worker is consuming jobs') || proc.exitCode !== null,
      30_000,
      'the worker to start',
    );
    expect(out).toContain('hostboard worker is consuming jobs');
    expect(proc.exitCode).toBeNull();
    expect(waiting()).toHaveLength(1);
    // It migrated the empty database once the lock was free.
    const applied = await holder.query('SELECT count(*)::int AS n FROM schema_migrations');
    expect((applied.rows[0] as { n: number }).n).toBeGreaterThan(0);
  }, 90_000);
});
