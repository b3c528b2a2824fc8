import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';

/**
 * Which processes a pool belongs to. The api's processes together may use at most 60 % of the
 * connections the server gives this database user, the worker's 20 %; the rest is left for
 * migrations, an operator's psql and whatever else shares the server.
 */
export type PoolRole = 'api' | 'worker';
const SHARE: Record<PoolRole, number> = { api: 0.6, worker: 0.2 };

/** A process needs two at least: start-up holds the migration lock on one while migrating on another. */
export const MIN_POOL = 2;

/** How many connections this user may open on this database (null: no limit read). */
export async function connectionBudget(dataSource: DataSource): Promise<number | null> {
  // Role and database limits do not bind a superuser; the server's limit binds everyone, and the
  // slots kept for superusers (and, from PostgreSQL 16, for pg_use_reserved_connections) are not ours.
  const rows = await dataSource.query<Array<{ server: number; database: number; role: number; superuser: boolean }>>(
    `SELECT current_setting('max_connections')::int
              - current_setting('superuser_reserved_connections')::int
              - coalesce(nullif(current_setting('reserved_connections', true), '')::int, 0) AS server,
            (SELECT datconnlimit FROM pg_database WHERE datname = current_database()) AS database,
            r.rolconnlimit AS role, r.rolsuper AS superuser
       FROM pg_roles r WHERE r.rolname = current_user`,
  );
  const row = rows[0];
  if (!row) return null;
  const limits = [row.server];
  if (!row.superuser) limits.push(...[row.database, row.role].filter((n) => n >= 0));
  return Math.min(...limits);
}

/**
 * The pool size a process may have: DATABASE_POOL_SIZE, unless its role's share of the budget,
 * split among the processes of its cluster, is smaller. Sixteen api processes with pools of 20
 * would ask for 320 connections under load, and past the server's limit each extra connection
 * attempt fails the request that made it; a smaller pool makes that request wait its turn instead.
 */
export function fittedPoolSize(configured: number, budget: number | null, role: PoolRole, processes: number): number {
  if (budget === null) return configured;
  const share = Math.floor((budget * SHARE[role]) / Math.max(1, processes));
  return Math.max(MIN_POOL, Math.min(configured, share));
}

/** The node-postgres pool under a TypeORM data source on a server (undefined on the embedded database). */
export function pgPool(dataSource: DataSource): Pool | undefined {
  const master = (dataSource.driver as Partial<PostgresDriver>).master as Pool | undefined;
  return master && typeof master.connect === 'function' && 'options' in master ? master : undefined;
}

/** Caps a running pool: pg-pool reads `max` and `min` on every checkout. */
export function capPool(pool: Pool, max: number): void {
  const options = (pool as unknown as { options: { max: number; min?: number } }).options;
  options.max = max;
  options.min = Math.min(options.min ?? 0, max);
}

const TOP_UP_AFTER_MS = 1_000;
const RETRY_MS = 5_000;

/**
 * Keeps `warm` connections open after the server drops them (a PostgreSQL restart, a failover, an
 * operator's pg_terminate_backend): pg-pool's `min` only stops idle ones closing and opens none, so
 * without this the first burst after a restart waits for new backends. It reopens what is missing a
 * second after a connection is lost, and every 5 s while the server refuses. Returns a stop function.
 */
export function keepWarm(pool: Pool, warm: number, onError: (err: Error) => void = () => undefined): () => void {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const ended = (): boolean => stopped || (pool as unknown as { ending: boolean }).ending;
  const schedule = (ms: number): void => {
    if (timer || ended()) return;
    timer = setTimeout(() => {
      timer = undefined;
      void topUp();
    }, ms);
    // Never what keeps a process alive.
    timer.unref();
  };
  const topUp = async (): Promise<void> => {
    const missing = warm - pool.totalCount;
    if (missing <= 0 || ended()) return;
    const opened = await Promise.allSettled(Array.from({ length: missing }, () => pool.connect()));
    for (const o of opened) if (o.status === 'fulfilled') o.value.release();
    const failed = opened.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failed) {
      onError(failed.reason as Error);
      schedule(RETRY_MS);
    }
  };
  const onRemove = (): void => {
    if (pool.totalCount < warm) schedule(TOP_UP_AFTER_MS);
  };
  pool.on('remove', onRemove);
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    pool.off('remove', onRemove);
  };
}
