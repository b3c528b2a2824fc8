import { QueryFailedError, type QueryRunner } from 'typeorm';
import { BEGIN, thenCommit, type PgClientWithQuery, type StatementConfig, type StatementResult } from './pg-pipeline.js';

/**
 * A transaction whose START TRANSACTION travels in the same write as its first statement: one round
 * trip to PostgreSQL less per transaction (a venue command's first statement is its venue lock).
 *
 * How: PostgreSQL's extended protocol runs every Parse/Bind/Execute up to a Sync in order, and an
 * explicit BEGIN among them opens a transaction block that outlives that Sync. So the first named
 * statement of the transaction (`preparedQuery`) goes as Parse/Bind/Execute of `START TRANSACTION`,
 * then its own Parse (when the connection has not prepared it yet)/Bind/Describe/Execute, and one
 * Sync. Each statement still takes its own snapshot (READ COMMITTED), in the same order as before.
 * An error in the BEGIN skips the statement (the server discards up to the Sync); an error in the
 * statement leaves the transaction open and failed, and the runner's ROLLBACK ends it, as before.
 *
 * Anything else sent first on the transaction's query runner (TypeORM's own `query`, which every
 * manager method and `manager.query` use) sends START TRANSACTION on its own first, as TypeORM did.
 * A transaction that sent nothing sends neither BEGIN nor COMMIT.
 *
 * The transaction's last statement may travel with its COMMIT the same way (`holdForCommit`): held
 * back until the commit, its Parse/Bind/Describe/Execute then COMMIT's and one Sync. An error in it
 * skips the COMMIT (the transaction stays open and failed, and the runner's ROLLBACK ends it) and is
 * the commit's error, so it reaches the command's refusal paths as if thrown by the statement. Any
 * other statement sent first (or a wish for its rows) sends it on its own before, in its order.
 *
 * Only on node-postgres (the embedded database keeps TypeORM's own transactions).
 */
const pending = new WeakSet<QueryRunner>();
/** Runners whose transaction `beginLazily` opened (their commit is `commitLazily`'s). */
const lazy = new WeakSet<QueryRunner>();

/** A statement held back to go with COMMIT, and its result's promise. */
interface Held {
  config: StatementConfig;
  resolve: (result: StatementResult) => void;
  reject: (err: unknown) => void;
}
const held = new WeakMap<QueryRunner, Held>();

/** TypeORM's query runner as seen here: its transaction depth is protected. */
type Runner = QueryRunner & { isTransactionActive: boolean; transactionDepth: number };

/**
 * Marks the connected runner's transaction as open (TypeORM's `startTransaction` without its
 * statement): the BEGIN waits for the first statement. Call after `runner.connect()`.
 */
export function beginLazily(queryRunner: QueryRunner): void {
  const runner = queryRunner as Runner;
  const client = (runner as { databaseConnection?: { query: (text: string) => Promise<unknown> } }).databaseConnection;
  if (!client) throw new Error('beginLazily: the query runner is not connected');
  runner.isTransactionActive = true;
  runner.transactionDepth = 1;
  pending.add(runner);
  lazy.add(runner);
  const query = runner.query.bind(runner) as (...args: unknown[]) => Promise<unknown>;
  runner.query = (async (...args: unknown[]): Promise<unknown> => {
    if (pending.delete(runner)) {
      // Queued on the client at once, ahead of anything sent after this call.
      const begun = client.query(BEGIN);
      await begun;
    }
    if (held.has(runner)) await sendHeld(runner);
    return query(...args);
  }) as QueryRunner['query'];
}

/** True once for a runner whose BEGIN has not gone yet: the caller sends it with its statement (`withBegin`). */
export function takePendingBegin(runner: QueryRunner | undefined): boolean {
  return runner !== undefined && pending.delete(runner);
}

/**
 * Commits the transaction `beginLazily` opened, with its held statement if any (in one write); one
 * that never sent its BEGIN has nothing to commit.
 */
export async function commitLazily(queryRunner: QueryRunner): Promise<void> {
  const runner = queryRunner as Runner;
  if (pending.delete(runner)) return close(runner);
  const last = held.get(runner);
  if (!last) return runner.commitTransaction();
  held.delete(runner);
  let result: StatementResult;
  try {
    const answered = await thenCommit(clientOf(runner), last.config);
    // COMMIT of a transaction already failed answers ROLLBACK: it did not commit.
    if (answered.tag !== 'COMMIT') throw new Error(`the transaction did not commit (${answered.tag ?? 'no answer'})`);
    result = answered.result;
  } catch (err) {
    const failed = asQueryFailed(err, last.config);
    last.reject(failed);
    throw failed;
  }
  close(runner);
  last.resolve(result);
}

/** Rolls the transaction back; one that never sent its BEGIN has nothing to roll back. */
export async function rollbackLazily(runner: QueryRunner): Promise<void> {
  held.get(runner)?.reject(new Error('the transaction rolled back before its last statement was sent'));
  held.delete(runner);
  if (pending.delete(runner)) return close(runner as Runner);
  await runner.rollbackTransaction();
}

/**
 * Whether `holdForCommit` may hold a statement on this runner: a transaction of `beginLazily`'s whose
 * BEGIN has gone (a first statement is sent with its BEGIN instead).
 */
export function canHoldForCommit(runner: QueryRunner | undefined): runner is QueryRunner {
  return runner !== undefined && lazy.has(runner) && !pending.has(runner) && runner.isTransactionActive;
}

/**
 * Holds `config` back to go with the transaction's COMMIT (a statement held before goes now, first).
 * Answers its result's promise, settled once it ran: with the commit, or earlier by `sendHeld`.
 */
export async function holdForCommit(runner: QueryRunner, config: StatementConfig): Promise<{ done: Promise<StatementResult> }> {
  if (held.has(runner)) await sendHeld(runner);
  const done = new Promise<StatementResult>((resolve, reject) => held.set(runner, { config, resolve, reject }));
  // Its rows may never be asked for (the caller's transaction failed first): not an unhandled rejection.
  done.catch(() => undefined);
  // In an object: an async function would wait for a promise it returns, which settles at the commit.
  return { done };
}

/** Whether a statement is held back on this runner (`sendHeld` before anything else goes). */
export function hasHeld(runner: QueryRunner | undefined): runner is QueryRunner {
  return runner !== undefined && held.has(runner);
}

/** Sends the held statement now, on its own (another must go after it, or its rows are wanted), and waits for it. */
export async function sendHeld(runner: QueryRunner): Promise<void> {
  const last = held.get(runner);
  if (!last) return;
  held.delete(runner);
  try {
    last.resolve((await clientOf(runner).query(last.config)) as StatementResult);
  } catch (err) {
    const failed = asQueryFailed(err, last.config);
    last.reject(failed);
    throw failed;
  }
}

/** The same error type as TypeORM's `query` and `preparedQuery`, so refusal translators (unique, exclusion) read it. */
function asQueryFailed(err: unknown, config: StatementConfig): unknown {
  return err instanceof QueryFailedError ? err : new QueryFailedError(config.text, config.values, err as Error);
}

function clientOf(runner: QueryRunner): PgClientWithQuery {
  const client = (runner as { databaseConnection?: PgClientWithQuery }).databaseConnection;
  if (!client) throw new Error('the query runner is not connected');
  return client;
}

function close(runner: Runner): void {
  runner.isTransactionActive = false;
  runner.transactionDepth = 0;
}
