import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const hasServer = (): boolean => Boolean(process.env['DATABASE_URL']);
export const hasRedis = (): boolean => Boolean(process.env['REDIS_URL']);

export interface TestDatabase {
  /** Undefined on the embedded default (each app gets its own in-memory PGlite). */
  url: string | undefined;
  drop(): Promise<void>;
}

/**
 * A database of the test file's own: with DATABASE_URL, a new database on that server (created empty,
 * dropped at the end), so test files run in parallel without touching each other's data.
 */
export async function freshDatabase(): Promise<TestDatabase> {
  const base = process.env['DATABASE_URL'];
  if (!base) return { url: undefined, drop: async () => undefined };
  // A session sharing the server with others may keep to its own names (TEST_DB_PREFIX=hb_board).
  const prefix = process.env['TEST_DB_PREFIX'] ?? 'hb_t';
  if (!/^[a-z][a-z0-9_]*$/.test(prefix)) throw new Error(`TEST_DB_PREFIX must be a plain lower-case name, not ${prefix}`);
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** Backends connected to one database (a TestDatabase's url), as the server counts them. */
export async function backends(url: string): Promise<number> {
  const name = new URL(url).pathname.slice(1);
  const admin = new pg.Client({ connectionString: process.env['DATABASE_URL'] });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [
      name,
    ]);
    return rows[0]?.n ?? 0;
  } finally {
    await admin.end();
  }
}

/** `describe`, or `describe.skip` with the reason in its name when the suite needs a real server. */
export function describeWithServer(reason: string): jest.Describe {
  return hasServer()
    ? describe
    : (((name: string, fn: () => void) => describe.skip(`${name} [skipped: ${reason}; set DATABASE_URL]`, fn)) as jest.Describe);
}

export function describeWithRedis(reason: string): jest.Describe {
  return hasRedis()
    ? describe
    : (((name: string, fn: () => void) => describe.skip(`${name} [skipped: ${reason}; set REDIS_URL]`, fn)) as jest.Describe);
}

/** Both a PostgreSQL server and Redis: several processes sharing one database and one job queue. */
export function describeWithServerAndRedis(reason: string): jest.Describe {
  return hasServer() && hasRedis()
    ? describe
    : (((name: string, fn: () => void) =>
        describe.skip(`${name} [skipped: ${reason}; set DATABASE_URL and REDIS_URL]`, fn)) as jest.Describe);
}
