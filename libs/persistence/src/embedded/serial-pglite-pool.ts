import { EventEmitter } from 'node:events';
import type { PGlite } from '@electric-sql/pglite';
import { PreparedStatements } from './prepared-statements.js';

type Callback = (err: Error | null, result?: unknown) => void;
type Release = (err?: unknown) => void;

interface Waiter {
  grant: () => void;
}

/**
 * A `pg`-shaped pool over one PGlite instance that hands out its single session to one query runner
 * at a time.
 *
 * Why: PGlite is one PostgreSQL session. typeorm-pglite lends that session to every "connection", so
 * two TypeORM transactions at once interleave inside one PostgreSQL transaction: `FOR UPDATE` does
 * nothing and one side's COMMIT commits the other's half-done work. A mutex around
 * `dataSource.transaction` is not enough either, because a plain query outside it would still slip
 * into the open transaction. A real pool of one (connect waits until the previous runner is
 * released) makes the embedded database behave as a PostgreSQL server with one connection.
 */
export class SerialPglitePool extends EventEmitter {
  private busy = false;
  private readonly waiters: Waiter[] = [];
  private readonly client: PgliteClient;

  constructor(private readonly db: PGlite) {
    super();
    this.client = new PgliteClient(db);
  }

  connect(callback?: (err: Error | null, client?: PgliteClient, release?: Release) => void): Promise<PgliteClient> {
    return new Promise<PgliteClient>((resolve) => {
      const grant = (): void => {
        this.busy = true;
        let released = false;
        const release: Release = () => {
          if (released) return;
          released = true;
          this.handOver();
        };
        callback?.(null, this.client, release);
        resolve(this.client);
      };
      if (this.busy) this.waiters.push({ grant });
      else grant();
    });
  }

  /** Pool-level query (no transaction): takes the session like any other caller. */
  async query(sql: string, params?: unknown[] | Callback, cb?: Callback): Promise<unknown> {
    const client = await this.connect();
    try {
      return await client.query(sql, params, cb);
    } finally {
      this.handOver();
    }
  }

  end(callback?: (err: Error | null) => void): Promise<void> {
    const done = this.db.close().then(
      () => callback?.(null),
      (err: Error) => callback?.(err),
    );
    return done;
  }

  private handOver(): void {
    const next = this.waiters.shift();
    if (next) next.grant();
    else this.busy = false;
  }
}

/** The `pg` Client surface TypeORM's PostgresQueryRunner uses, answered by PGlite. */
export class PgliteClient extends EventEmitter {
  private readonly prepared: PreparedStatements;

  constructor(private readonly db: PGlite) {
    super();
    this.prepared = new PreparedStatements(db);
  }

  async query(sql: string, params?: unknown[] | Callback, cb?: Callback): Promise<unknown> {
    let callback = cb;
    let values = params;
    if (typeof params === 'function') {
      callback = params;
      values = undefined;
    }
    try {
      const hasParams = Array.isArray(values) && values.length > 0;
      // exec runs several statements (migrations); TypeORM expects the last statement's result.
      const raw = hasParams
        ? await this.prepared.query(sql, values as unknown[])
        : ((await this.db.exec(sql)).at(-1) ?? { rows: [], fields: [] });
      const result = {
        rows: raw.rows,
        rowCount: raw.rowCount ?? raw.affectedRows ?? raw.rows.length,
        command: raw.command?.toUpperCase(),
        fields: raw.fields,
      };
      callback?.(null, result);
      return result;
    } catch (err) {
      callback?.(err as Error);
      throw err;
    }
  }
}
