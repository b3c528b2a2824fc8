import type { Pool, PoolClient } from 'pg';
import { databaseUnreachable } from '@hostboard/core';

export interface WatchLog {
  warn(line: string): void;
  log(line: string): void;
}

/**
 * Logs "database unreachable" once when the pool loses PostgreSQL and "database reachable again"
 * once when it next opens a connection, as the Redis clients do: not a line per failed request,
 * sweep or reconnect attempt between the two. Lost: a new connection refused or timed out, or an
 * idle one ended by the server (a shutdown, a restart, a failover). Back: a new connection opened.
 */
export class DatabaseWatch {
  private down = false;

  constructor(private readonly logger: WatchLog) {}

  /** Whether the last thing seen was the database lost (for callers that would log each failure). */
  get lost(): boolean {
    return this.down;
  }

  /** An error from the pool: counts only when it says the database cannot be reached. */
  failed(err: unknown): void {
    if (this.down || !databaseUnreachable(err)) return;
    this.down = true;
    const reason = (err as Error | undefined)?.message ?? String(err);
    this.logger.warn(
      `database unreachable (${reason}); requests answer 503 "retry shortly" meanwhile, and every new connection tries again`,
    );
  }

  reached(): void {
    if (!this.down) return;
    this.down = false;
    this.logger.log('database reachable again');
  }
}

type ConnectCallback = (err: Error | undefined, client: PoolClient | undefined, done: (release?: unknown) => void) => void;

/**
 * Watches a node-postgres pool: its `connect` (TypeORM calls it with a callback, `keepWarm` without)
 * for refused connections, its `error` event for idle connections the server ended, its `connect`
 * event for a new connection opened.
 */
export function watchPool(pool: Pool, watch: DatabaseWatch): void {
  pool.on('error', (err) => watch.failed(err));
  pool.on('connect', () => watch.reached());
  const connect = pool.connect.bind(pool) as (cb?: ConnectCallback) => Promise<PoolClient> | undefined;
  Object.assign(pool, {
    connect(cb?: ConnectCallback): Promise<PoolClient> | undefined {
      if (cb) {
        return connect((err, client, done) => {
          if (err) watch.failed(err);
          cb(err, client, done);
        });
      }
      return connect()?.catch((err: unknown) => {
        watch.failed(err);
        throw err;
      });
    },
  });
}
