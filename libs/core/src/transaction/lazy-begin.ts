import { QueryFailedError, type QueryRunner } from 'typeorm';
import { BEGIN, pipelined, type PgClientWithQuery, type StatementConfig, type StatementResult } from './pg-pipeline.js';

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
 * The transaction's last statements may travel with its COMMIT the same way (`holdForCommit`): held
 * back until the commit, each one's Parse/Bind/Describe/Execute in their order, then COMMIT's and one
 * Sync. An error in one skips those after it and the COMMIT (the transaction stays open and failed,
 * and the runner's ROLLBACK ends it) and is the commit's error, so it reaches the command's refusal
 * paths as if thrown by the statement. Any other statement sent first (or a wish for the rows of one)
 * sends those held before it, in their order and in one write, then goes itself.
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
const held = new WeakMap<QueryRunner, Held[]>();

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
    if (hasHeld(runner)) await sendHeld(runner);
    return query(...args);
  }) as QueryRunner['query'];
}

/** True once for a runner whose BEGIN has not gone yet: the caller sends it with its statement (`withBegin`). */
export function takePendingBegin(runner: QueryRunner | undefined): boolean {
  return runner !== undefined && pending.delete(runner);
}

/**
 * Commits the transaction `beginLazily` opened, with its held statements if any (in one write); one
 * that never sent its BEGIN has nothing to commit.
 */
export async function commitLazily(queryRunner: QueryRunner): Promise<void> {
  const runner = queryRunner as Runner;
  if (pending.delete(runner)) return close(runner);
  const last = held.get(runner) ?? [];
  if (last.length === 0) return runner.commitTransaction();
  held.delete(runner);
  await runHeld(runner, last, true);
  close(runner);
}

/**
 * Sends the held statements (with COMMIT when `commit`) in one write and settles each one's result.
 * A failed statement (or COMMIT) is thrown as that statement's error (COMMIT's as the last one's), a
 * COMMIT that did not commit (a transaction already failed answers ROLLBACK) as the commit's. Then
 * nothing was committed and every result rejects with it; without COMMIT, those before the failed
 * one ran in the (now failed) transaction and resolve.
 */
async function runHeld(runner: QueryRunner, statements: Held[], commit: boolean): Promise<void> {
  let failure: Error | undefined;
  let ran = 0;
  try {
    const outcome = await pipelined(
      clientOf(runner),
      statements.map((h) => h.config),
      commit,
    );
    if ('failed' in outcome) {
      const statement = statements[Math.min(outcome.failed.index, statements.length - 1)];
      failure = statement ? asQueryFailed(outcome.failed.error, statement.config) : outcome.failed.error;
    } else if (commit && outcome.tag !== 'COMMIT') {
      failure = new Error(`the transaction did not commit (${outcome.tag ?? 'no answer'})`);
    }
    // With COMMIT, a failure leaves nothing written: no result resolves.
    ran = commit && failure !== undefined ? 0 : outcome.results.length;
    statements.slice(0, ran).forEach((h, i) => h.resolve(outcome.results[i]));
  } catch (err) {
    failure = err instanceof Error ? err : new Error(String(err));
  }
  if (failure === undefined) return;
  for (const h of statements.slice(ran)) h.reject(failure);
  throw failure;
}

/** Rolls the transaction back; one that never sent its BEGIN has nothing to roll back. */
export async function rollbackLazily(runner: QueryRunner): Promise<void> {
  for (const h of held.get(runner) ?? []) h.reject(new Error('the transaction rolled back before its last statements were sent'));
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
 * Holds `config` back to go with the transaction's COMMIT, after any statement held before it.
 * Answers its result's promise, settled once it ran: with the commit, or earlier by `sendHeld`.
 */
export function holdForCommit(runner: QueryRunner, config: StatementConfig): { done: Promise<StatementResult> } {
  const done = new Promise<StatementResult>((resolve, reject) => {
    const list = held.get(runner) ?? [];
    list.push({ config, resolve, reject });
    held.set(runner, list);
  });
  // Its rows may never be asked for (the caller's transaction failed first): not an unhandled rejection.
  done.catch(() => undefined);
  // In an object: a promise of it would be waited for where it is handed back, until the commit.
  return { done };
}

/** Whether statements are held back on this runner (`sendHeld` before anything else goes). */
export function hasHeld(runner: QueryRunner | undefined): runner is QueryRunner {
  return runner !== undefined && (held.get(runner)?.length ?? 0) > 0;
}

/**
 * Sends the held statements now, in one write without COMMIT (another must go after them, or the rows
 * of one are wanted), and waits for them.
 */
export async function sendHeld(runner: QueryRunner): Promise<void> {
  const list = held.get(runner) ?? [];
  if (list.length === 0) return;
  held.delete(runner);
  await runHeld(runner, list, false);
}

/** The same error type as TypeORM's `query` and `preparedQuery`, so refusal translators (unique, exclusion) read it. */
function asQueryFailed(err: unknown, config: StatementConfig): Error {
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
