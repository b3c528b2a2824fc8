import { createHash } from 'node:crypto';
import { QueryFailedError, type EntityManager } from 'typeorm';
import { canHoldForCommit, hasHeld, holdForCommit, sendHeld, takePendingBegin } from './lazy-begin.js';
import { pipelined, withBegin, type PgClientWithQuery } from './pg-pipeline.js';
import { returningRows } from './returning-rows.js';

/**
 * A statement of the hot paths, sent as a named prepared statement on the transaction's own
 * connection: PostgreSQL parses and plans it once per connection instead of on every use.
 *
 * Why here and not through TypeORM: `manager.query` always sends an unnamed statement. node-postgres
 * prepares a query config `{ name, text, values }` once per client and afterwards only binds and
 * executes it. The name is a hash of the text, because one name must always carry the same text
 * (node-postgres refuses a known name with a different text, and the server keeps the first).
 *
 * Outside a transaction the statement goes through the pg pool (node-postgres prepares it on
 * whichever pooled connection runs it). On the embedded PGlite database, which has no pg client,
 * it is the ordinary `manager.query`.
 * Answers the rows, also for UPDATE … RETURNING (no `[rows, affected]` pair).
 *
 * `oneOff`: a text shaped by the data (a many-row insert whose row count varies from call to call)
 * goes unnamed, as texts past the cap do, so it does not spend one of the names the fixed texts need.
 */
export async function preparedQuery<T = Record<string, unknown>>(
  manager: EntityManager,
  text: string,
  params: unknown[],
  options: { oneOff?: boolean } = {},
): Promise<T[]> {
  const client = pgClientOf(manager);
  const name = client && !options.oneOff ? statementName(text) : undefined;
  if (!client || !name) return returningRows<T>(await manager.query(text, params));
  // A statement held for the commit goes first, in its order (its error is this call's).
  if (hasHeld(manager.queryRunner)) await sendHeld(manager.queryRunner);
  try {
    const config = { name, text, values: params };
    // A transaction's first statement carries its START TRANSACTION (lazy-begin.ts).
    const result = takePendingBegin(manager.queryRunner)
      ? await withBegin(client as unknown as PgClientWithQuery, config)
      : await client.query(config);
    return result.rows as T[];
  } catch (err) {
    // The same error type as manager.query, so refusal translators (unique, exclusion) still read it.
    throw new QueryFailedError(text, params, err as Error);
  }
}

/**
 * Several statements of a transaction, sent in their order as named prepared statements in one write
 * to PostgreSQL (one Sync, one round trip), with the transaction's START TRANSACTION ahead of them when
 * it has not gone yet. Each is still a statement of its own: it starts once the one before it has
 * completed (a row lock the first took is held when the next starts) and takes its own snapshot (READ
 * COMMITTED), so a read after a lock sees everything committed before the lock was granted, which one
 * statement reading and locking together would not (its snapshot is taken before the lock's wait).
 * The first that fails skips the rest; its error is thrown (as `preparedQuery`'s) and the transaction
 * is failed, for the runner to roll back. Answers each statement's rows, in order.
 *
 * On the embedded database, or outside a transaction, they go one after another (`preparedQuery`).
 */
export async function preparedInOrder(
  manager: EntityManager,
  statements: Array<{ text: string; params: unknown[] }>,
): Promise<unknown[][]> {
  const runner = manager.queryRunner;
  const client = runner ? pgClientOf(manager) : null;
  if (!client || !runner) {
    const out: unknown[][] = [];
    for (const s of statements) out.push(await preparedQuery(manager, s.text, s.params));
    return out;
  }
  // A statement held for the commit goes first, in its order (its error is this call's).
  if (hasHeld(runner)) await sendHeld(runner);
  const configs = statements.map((s) => ({ name: statementName(s.text), text: s.text, values: s.params }));
  const begin = takePendingBegin(runner);
  let outcome;
  try {
    outcome = await pipelined(client as unknown as PgClientWithQuery, configs, false, begin);
  } catch (err) {
    throw new QueryFailedError(statements[0]?.text ?? '', statements[0]?.params ?? [], err as Error);
  }
  if ('failed' in outcome) {
    const s = statements[Math.min(outcome.failed.index, statements.length - 1)];
    const err = outcome.failed.error;
    throw err instanceof QueryFailedError ? err : new QueryFailedError(s?.text ?? '', s?.params ?? [], err);
  }
  return outcome.results.map((r) => r.rows);
}

/** What `preparedAtCommit` answers: the statement's rows, once it has run. */
export interface AtCommit<T> {
  /**
   * Its rows: after the commit, what it answered; asked for inside the transaction, the statement is
   * sent at once (no round trip saved). Rejects with its error, or when the transaction rolled back
   * before it was sent.
   */
  rows(): Promise<T[]>;
}

/**
 * `preparedQuery` for a transaction's last statement whose rows nothing in the transaction needs
 * (its final insert): on node-postgres it is held back and sent with the COMMIT, in one write
 * (lazy-begin.ts), one round trip less. Its error is then the commit's: the transaction rolls back and
 * the error goes wherever the statement's own would have gone out of the transaction (refusal
 * translators, the Idempotency-Key's replay), but not to a catch inside the transaction's work around
 * this call: use it only where nothing there would catch it. Any statement sent after it in the
 * transaction sends it first, on its own. Elsewhere (the embedded database, a first statement, outside
 * a transaction) it runs at once, as `preparedQuery`.
 */
export async function preparedAtCommit<T = Record<string, unknown>>(
  manager: EntityManager,
  text: string,
  params: unknown[],
  options: { oneOff?: boolean } = {},
): Promise<AtCommit<T>> {
  const runner = manager.queryRunner;
  const client = pgClientOf(manager);
  if (!client || !canHoldForCommit(runner)) {
    const rows = await preparedQuery<T>(manager, text, params, options);
    return { rows: () => Promise.resolve(rows) };
  }
  const name = options.oneOff ? undefined : statementName(text);
  const { done } = holdForCommit(runner, { name, text, values: params });
  return {
    rows: async () => {
      if (hasHeld(runner)) await sendHeld(runner);
      return (await done).rows as T[];
    },
  };
}

interface PgClient {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
  /** node-postgres's wire connection: absent from the embedded database's pg-shaped client. */
  connection?: unknown;
}

/**
 * The node-postgres client the manager's transaction runs on; for a manager outside any query
 * runner, node-postgres's pool; null on the embedded database or a runner not in a transaction.
 */
function pgClientOf(manager: EntityManager): PgClient | null {
  const runner = manager.queryRunner;
  if (!runner) {
    const pool = (manager.connection.driver as { master?: PgClient & { Client?: unknown } }).master;
    // node-postgres's Pool carries its Client class; the embedded database's pg-shaped pool does not.
    return pool && typeof pool.Client === 'function' && typeof pool.query === 'function' ? pool : null;
  }
  if (!runner.isTransactionActive || runner.isReleased) return null;
  const client = (runner as { databaseConnection?: PgClient }).databaseConnection;
  return client && typeof client.query === 'function' && client.connection !== undefined ? client : null;
}

/**
 * Each name is a prepared statement kept by every connection for its lifetime, so only so many
 * distinct texts are prepared; past that (a text built from data, e.g. a many-row insert) a
 * statement goes unnamed.
 */
const MAX_NAMES = 512;
const names = new Map<string, string>();

function statementName(text: string): string | undefined {
  let name = names.get(text);
  if (name === undefined && names.size < MAX_NAMES) {
    name = `hb_${createHash('sha1').update(text).digest('hex').slice(0, 32)}`;
    names.set(text, name);
  }
  return name;
}
