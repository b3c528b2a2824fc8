import type { PGlite } from '@electric-sql/pglite';
import { DataSource, MigrationExecutor, type DataSourceOptions, type QueryRunner } from 'typeorm';
import type { PostgresDataSourceOptions } from 'typeorm/driver/postgres/PostgresDataSourceOptions.js';
import { IN_MEMORY, openEmbeddedDatabase } from './embedded/embedded-database.js';
import { SerialPglitePool } from './embedded/serial-pglite-pool.js';
import { ENTITIES } from './entities.js';
import { MIGRATIONS } from './migrations/index.js';

export interface DatabaseTarget {
  /** A PostgreSQL server; absent: the embedded PGlite database in `dataDir`. */
  databaseUrl?: string;
  dataDir: string;
  /** A migrated image an in-memory database starts from (HOSTBOARD_MEMORY_IMAGE). */
  memoryImage?: string;
  poolSize?: number;
  /** Connections opened at start (`warmPool`) and kept open while idle; the rest close after a minute. */
  warm?: number;
  /** PostgreSQL's lock_timeout for every statement of these connections (the worker's); none by default. */
  lockTimeoutMs?: number;
}

/** How long a connection above the warm ones may sit unused before it closes. */
const IDLE_CLOSE_MS = 60_000;

const common = {
  type: 'postgres',
  entities: ENTITIES,
  migrations: MIGRATIONS,
  migrationsTableName: 'schema_migrations',
  // Migrations run at start-up, explicitly, so one log line says what was applied.
  migrationsRun: false,
  synchronize: false,
  // gen_random_uuid() is built in since PostgreSQL 13; no uuid-ossp (PGlite lacks it).
  uuidExtension: 'pgcrypto',
  installExtensions: false,
} as const;

/**
 * The hot paths' statements are named prepared statements (`preparedQuery`, `readTogether`), each
 * scoped to one venue by its key, so one plan serves every call. Left to choose, PostgreSQL kept
 * planning several of them afresh on every call: the offer's combined read spent 0.83 ms planning
 * and 0.19 ms running, the board read 0.38 ms planning (pg_stat_statements over a bench). With
 * generic plans, planning fell from 3.7 s to 1.8 s over the whole quick bench, and no statement ran
 * slower (docs/benchmarks.md, eighth round). Statements sent unnamed (TypeORM's own) are planned
 * per call as before; every read that compares with a value a generic plan cannot see is written to
 * probe its index regardless (the sweep's lock-free read, for one).
 */
const GENERIC_PLANS = '-c plan_cache_mode=force_generic_plan';

/** Options for a PostgreSQL server, or for the embedded database behind a pool of one session. */
export async function dataSourceOptions(target: DatabaseTarget): Promise<DataSourceOptions> {
  if (target.databaseUrl) {
    return {
      ...common,
      url: target.databaseUrl,
      poolSize: target.poolSize ?? 20,
      extra: {
        connectionTimeoutMillis: 5000,
        // Warm connections sit idle for long spells: TCP keepalive keeps a firewall or NAT from dropping
        // them unseen, and finds a peer that has gone (a failover) instead of a query hanging on it.
        keepAlive: true,
        keepAliveInitialDelayMillis: 30_000,
        // pg-pool's `min`: idle connections are closed only above it (it opens none by itself).
        min: target.warm ?? 0,
        idleTimeoutMillis: IDLE_CLOSE_MS,
        options: target.lockTimeoutMs ? `${GENERIC_PLANS} -c lock_timeout=${target.lockTimeoutMs}` : GENERIC_PLANS,
      },
    } satisfies PostgresDataSourceOptions;
  }
  return embeddedOptions(await openEmbeddedDatabase(target.dataDir, target.memoryImage));
}

function embeddedOptions(db: PGlite): PostgresDataSourceOptions {
  class EmbeddedPool extends SerialPglitePool {
    constructor() {
      super(db);
    }
  }
  return {
    ...common,
    driver: { Pool: EmbeddedPool },
    database: 'postgres',
    poolSize: 1,
  };
}

/**
 * Opens `count` connections at once and hands them back to the pool, which keeps them (its `min`):
 * the first burst of work then starts on open connections instead of waiting for new backends.
 * Best effort: a server short of connections only means a colder start, never a failed one.
 */
export async function warmPool(dataSource: DataSource, count: number): Promise<number> {
  const runners = Array.from({ length: count }, () => dataSource.createQueryRunner());
  const opened = await Promise.allSettled(runners.map(async (r): Promise<unknown> => r.connect()));
  await Promise.allSettled(runners.map((r) => r.release()));
  return opened.filter((o) => o.status === 'fulfilled').length;
}

/** Connects and brings the schema up to date; returns the names of the migrations it applied. */
export async function openDataSource(target: DatabaseTarget): Promise<{ dataSource: DataSource; applied: string[] }> {
  const dataSource = new DataSource(await dataSourceOptions(target));
  await dataSource.initialize();
  const applied = await migrate(dataSource, target.databaseUrl !== undefined);
  return { dataSource, applied };
}

/**
 * A fresh in-memory database with every migration applied, dumped as PGlite's data-directory tar:
 * the HOSTBOARD_MEMORY_IMAGE that later in-memory databases start from.
 */
export async function migratedMemoryImage(): Promise<Blob> {
  const db = await openEmbeddedDatabase(IN_MEMORY);
  const dataSource = new DataSource(embeddedOptions(db));
  try {
    await dataSource.initialize();
    await migrate(dataSource, false);
    // Every in-memory database loads the whole image: without the two template databases (an
    // embedded database is one database; nothing here creates another) it is 27 MB instead of 42
    // and opens in about 230 ms less CPU.
    for (const template of ['template0', 'template1']) {
      await dataSource.query(`ALTER DATABASE ${template} IS_TEMPLATE false`);
      await dataSource.query(`DROP DATABASE ${template}`);
    }
    await dataSource.query('CHECKPOINT');
    // Uncompressed: loading a gzipped image costs more CPU than reading the larger file.
    return await db.dumpDataDir('none');
  } finally {
    // Destroying the data source ends its pool, which closes the database.
    await dataSource.destroy();
  }
}

/** Arbitrary, fixed: the advisory lock that lets one process at a time apply migrations. */
const MIGRATION_LOCK = 7_345_001;
/**
 * How long a migration's statement may wait for a table lock before it steps aside. While an ALTER
 * TABLE waits for a table that a long transaction holds, every other session's statements on that
 * table queue behind it: the running build would stop answering for as long as that transaction
 * lasts. A command holds its locks for milliseconds, so a second is plenty when nothing is stuck.
 */
const MIGRATION_LOCK_TIMEOUT_MS = 1000;
/** Between two tries of a migration that stepped aside: the table's other sessions go on meanwhile. */
const MIGRATION_RETRY_MS = 3000;
/** PostgreSQL's lock_not_available: a statement gave up waiting at lock_timeout. */
const LOCK_NOT_AVAILABLE = '55P03';

/**
 * Applies pending migrations. On a server, several processes may start at once (N api processes,
 * a worker): a session advisory lock makes them take turns, and the later ones find nothing to do.
 * Each migration waits at most MIGRATION_LOCK_TIMEOUT_MS for a table lock; when a long transaction
 * holds its table, it is rolled back and tried again a few seconds later, for as long as it takes,
 * with a warning naming the oldest open transactions (the operator may have to end one).
 * The embedded database belongs to one process, and its single session cannot be held aside.
 */
export async function migrate(
  dataSource: DataSource,
  server: boolean,
  warn: (line: string) => void = () => undefined,
): Promise<string[]> {
  if (!server) return (await dataSource.runMigrations({ transaction: 'each' })).map((m) => m.name);
  const lock = dataSource.createQueryRunner();
  await lock.connect();
  try {
    // The advisory lock waits for another process's migrations as long as they take: not for the
    // session's own lock_timeout (the worker's WORKER_LOCK_TIMEOUT_MS, 10 s), after which a worker
    // started during a long migration failed, exited and was restarted, again and again.
    await lock.query('SET lock_timeout = 0');
    const [first] = (await lock.query('SELECT pg_try_advisory_lock($1) AS got', [MIGRATION_LOCK])) as Array<{ got: boolean }>;
    if (!first?.got) {
      warn(`waiting for the migrations that ${await migrationHolder(lock)} is applying; this process starts once they are done`);
      await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    }
    // After the advisory lock: each migration's own statements wait a second at most (below).
    await lock.query(`SET lock_timeout = ${MIGRATION_LOCK_TIMEOUT_MS}`);
    const applied: string[] = [];
    for (let tries = 1; ; tries++) {
      const executor = new MigrationExecutor(dataSource, lock);
      executor.transaction = 'each';
      const pending = (await executor.getPendingMigrations()).map((m) => m.name);
      try {
        applied.push(...(await executor.executePendingMigrations()).map((m) => m.name));
        return applied;
      } catch (err) {
        if ((err as { code?: unknown }).code !== LOCK_NOT_AVAILABLE) throw err;
        // The ones before it are committed ('each'); the one that waited was rolled back whole.
        const done = new Set((await executor.getExecutedMigrations()).map((m) => m.name));
        applied.push(...pending.filter((name) => done.has(name) && !applied.includes(name)));
        const waiting = pending.find((name) => !done.has(name)) ?? 'a migration';
        warn(
          `migration ${waiting} waited ${MIGRATION_LOCK_TIMEOUT_MS / 1000} s for a table another session holds ` +
            `and stepped aside, so that session's and others' work goes on (try ${tries}; again in ${MIGRATION_RETRY_MS / 1000} s). ` +
            `Oldest open transactions: ${await oldestTransactions(lock)}`,
        );
        await new Promise((resolve) => setTimeout(resolve, MIGRATION_RETRY_MS));
      }
    }
  } finally {
    await lock.query('RESET lock_timeout').catch(() => undefined);
    await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await lock.release();
  }
}

/**
 * Who holds the migration lock, as an operator finds it: the session's pid, where it connects from,
 * its application name when it set one, how long it has been at it and what it runs.
 */
async function migrationHolder(runner: QueryRunner): Promise<string> {
  type Row = { pid: number; addr: string | null; app: string; seconds: number; query: string };
  // A bigint advisory key shows in pg_locks as its high half (classid) and low half (objid), objsubid 1.
  // Advisory locks are the database's own: a session migrating another database on the same server
  // holds the same key without being in the way, and was named instead (seen in CI).
  const rows = await runner
    .query(
      `SELECT a.pid, host(a.client_addr) AS addr, a.application_name AS app,
              extract(epoch FROM now() - coalesce(a.xact_start, a.backend_start))::int AS seconds, left(a.query, 80) AS query
         FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
        WHERE l.locktype = 'advisory' AND l.granted AND l.classid = 0 AND l.objid = $1 AND l.objsubid = 1
          AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      [MIGRATION_LOCK],
    )
    .then(
      (found: Row[]) => found,
      (): Row[] => [],
    );
  const r = rows[0];
  if (!r) return 'another process';
  const from = r.addr ? ` from ${r.addr}` : '';
  const app = r.app ? ` (${r.app})` : '';
  return `another process${app} (PostgreSQL session pid ${r.pid}${from}, ${r.seconds} s so far, running ${JSON.stringify(r.query)})`;
}

/** What an operator needs to find the session in the way: pid, state, age, what it ran last. */
async function oldestTransactions(runner: QueryRunner): Promise<string> {
  type Row = { pid: number; state: string; seconds: number; query: string };
  const rows = await runner
    .query(
      `SELECT pid, state, extract(epoch FROM now() - xact_start)::int AS seconds, left(query, 80) AS query
         FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND xact_start IS NOT NULL
        ORDER BY xact_start LIMIT 3`,
    )
    .then(
      (found: Row[]) => found,
      (): Row[] => [],
    );
  if (rows.length === 0) return 'none seen now';
  return rows.map((r) => `pid ${r.pid} (${r.state}, ${r.seconds} s: ${JSON.stringify(r.query)})`).join('; ');
}

/** SQL the entities would still need on top of the migrations: empty when they agree. */
export async function schemaDrift(dataSource: DataSource): Promise<{ up: string[]; down: string[] }> {
  const log = await dataSource.driver.createSchemaBuilder().log();
  return { up: log.upQueries.map((q) => q.query), down: log.downQueries.map((q) => q.query) };
}
