import { QueryFailedError, type QueryRunner } from 'typeorm';

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

type StatementConfig = { name?: string; text: string; values: unknown[] };
type StatementResult = { rows: unknown[] };

/** A statement held back to go with COMMIT, and its result's promise. */
interface Held {
  config: StatementConfig;
  resolve: (result: StatementResult) => void;
  reject: (err: unknown) => void;
}
const held = new WeakMap<QueryRunner, Held>();

const BEGIN = 'START TRANSACTION';

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

/** node-postgres's wire connection, as far as a submitted query uses it. */
interface WireConnection {
  parse(m: { text: string; name?: string; types?: unknown[] }): void;
  bind(m: { portal?: string; statement?: string; values?: unknown[] }): void;
  execute(m: { portal?: string; rows?: number }): void;
  sync(): void;
  stream: { cork?: () => void; uncork?: () => void };
  parsedStatements: Record<string, string | undefined>;
  submittedNamedStatements: Record<string, string | undefined>;
}

/** node-postgres's Query (lib/query.js), as far as `BeginThen` drives it. */
interface PgQuery {
  name?: string;
  text: string;
  values?: unknown[];
  binary?: boolean;
  callback?: (err: Error | null, result?: unknown) => void;
  _result?: unknown;
  hasBeenParsed(con: WireConnection): boolean;
  prepare(con: WireConnection): void;
  handleRowDescription(msg: unknown): void;
  handleDataRow(msg: unknown): void;
  handleCommandComplete(msg: unknown, con: WireConnection): void;
  handleEmptyQuery(con: WireConnection): void;
  handlePortalSuspended(con: WireConnection): void;
  handleError(err: Error, con: WireConnection): void;
  handleReadyForQuery(con: WireConnection): void;
  handleCopyInResponse(con: WireConnection): void;
  handleCopyData(msg: unknown, con: WireConnection): void;
}

type QueryClass = new (config: { name?: string; text: string; values: unknown[] }) => PgQuery;

/** The node-postgres client of a transaction: it carries its Query class. */
export interface PgClientWithQuery {
  query(submittable: unknown): unknown;
  constructor: { Query?: unknown };
}

/**
 * Sends `config` on `client` with the transaction's START TRANSACTION ahead of it, in one write and
 * one Sync; answers the statement's result as `client.query(config)` would.
 */
export function withBegin(client: PgClientWithQuery, config: StatementConfig): Promise<StatementResult> {
  return new Promise((resolve, reject) => {
    const inner = queryOf(client, config);
    inner.callback = (err, result) => (err ? reject(err) : resolve(result as StatementResult));
    client.query(new BeginThen(inner));
  });
}

/** Sends `config` then COMMIT in one write and one Sync; answers the statement's result and COMMIT's tag. */
function thenCommit(client: PgClientWithQuery, config: StatementConfig): Promise<{ result: StatementResult; tag?: string }> {
  return new Promise((resolve, reject) => {
    const inner = queryOf(client, config);
    const submittable = new ThenCommit(inner);
    inner.callback = (err, result) =>
      err ? reject(err) : resolve({ result: result as StatementResult, tag: submittable.commitTag });
    client.query(submittable);
  });
}

function queryOf(client: PgClientWithQuery, config: StatementConfig): PgQuery {
  const Query = client.constructor.Query as QueryClass | undefined;
  if (typeof Query !== 'function') throw new Error('not a node-postgres client');
  return new Query(config);
}

/** Query.submit's own checks, before anything is written. */
function refusal(inner: PgQuery, con: WireConnection): Error | null {
  const previous = inner.name ? (con.parsedStatements[inner.name] ?? con.submittedNamedStatements[inner.name]) : undefined;
  if (previous !== undefined && previous !== inner.text) {
    return new Error(`Prepared statements must be unique - '${inner.name}' was used for a different statement`);
  }
  if (inner.values && !Array.isArray(inner.values)) return new Error('Query values must be an array');
  return null;
}

/**
 * A node-postgres "submittable" (as pg-cursor is) around the statement's own Query: the client hands
 * it the server's messages until ReadyForQuery, and what a subclass does not take goes to the Query.
 */
abstract class AroundQuery {
  constructor(protected readonly inner: PgQuery) {}

  /** The client gives the statement's result its type parsers through this. */
  get _result(): unknown {
    return this.inner._result;
  }

  get binary(): boolean | undefined {
    return this.inner.binary;
  }

  set binary(value: boolean | undefined) {
    this.inner.binary = value;
  }

  get callback(): PgQuery['callback'] {
    return this.inner.callback;
  }

  set callback(value: PgQuery['callback']) {
    this.inner.callback = value;
  }

  handleError(err: Error, con: WireConnection): void {
    this.inner.handleError(err, con);
  }

  handleRowDescription(msg: unknown): void {
    this.inner.handleRowDescription(msg);
  }

  handleDataRow(msg: unknown): void {
    this.inner.handleDataRow(msg);
  }

  handleEmptyQuery(con: WireConnection): void {
    this.inner.handleEmptyQuery(con);
  }

  handlePortalSuspended(con: WireConnection): void {
    this.inner.handlePortalSuspended(con);
  }

  handleReadyForQuery(con: WireConnection): void {
    this.inner.handleReadyForQuery(con);
  }

  handleCopyInResponse(con: WireConnection): void {
    this.inner.handleCopyInResponse(con);
  }

  handleCopyData(msg: unknown, con: WireConnection): void {
    this.inner.handleCopyData(msg, con);
  }
}

/**
 * BEGIN, then the statement: BEGIN's own answers (ParseComplete, BindComplete, CommandComplete) come
 * first and are swallowed; the rest goes to the statement's own Query.
 */
class BeginThen extends AroundQuery {
  /**
   * Read by the client as the statement being prepared: on ParseComplete it records `name` as parsed
   * on this connection, and on an error it forgets it as submitted. Unset until BEGIN has completed,
   * so BEGIN's ParseComplete is not taken for the statement's.
   */
  name: string | undefined = undefined;
  text: string | undefined = undefined;
  private begun = false;
  /** This submit sent the statement's Parse. */
  private parsing = false;

  submit(con: WireConnection): Error | null {
    const { inner } = this;
    const refused = refusal(inner, con);
    if (refused) return refused;
    this.parsing = !inner.hasBeenParsed(con);
    con.stream.cork?.();
    try {
      // START TRANSACTION as the unnamed statement and portal; the statement's Bind replaces the portal.
      con.parse({ text: BEGIN, name: '', types: [] });
      con.bind({ portal: '', statement: '', values: [] });
      con.execute({ portal: '' });
      // The statement's Parse (unless prepared), Bind, Describe, Execute and the one Sync.
      inner.prepare(con);
    } finally {
      con.stream.uncork?.();
    }
    return null;
  }

  handleCommandComplete(msg: unknown, con: WireConnection): void {
    if (!this.begun) {
      this.begun = true;
      this.name = this.inner.name;
      this.text = this.inner.text;
      return;
    }
    this.inner.handleCommandComplete(msg, con);
  }

  override handleError(err: Error, con: WireConnection): void {
    // Failed before the statement's Parse ran: the server skipped it, so it is not prepared.
    if (!this.begun && this.parsing && this.inner.name) delete con.submittedNamedStatements[this.inner.name];
    this.inner.handleError(err, con);
  }
}

/**
 * The statement, then COMMIT, with one Sync: the statement's answers go to its Query, COMMIT's
 * CommandComplete is kept as `commitTag`. An error in the statement skips the COMMIT (the server
 * discards up to the Sync) and goes to the Query: the transaction is then open and failed.
 */
class ThenCommit extends AroundQuery {
  /** The statement's own, read by the client on its ParseComplete and on an error (see BeginThen). */
  name: string | undefined;
  text: string | undefined;
  /** COMMIT's command tag: COMMIT, or ROLLBACK for a transaction that had failed. */
  commitTag: string | undefined;
  private done = false;

  constructor(inner: PgQuery) {
    super(inner);
    this.name = inner.name;
    this.text = inner.text;
  }

  submit(con: WireConnection): Error | null {
    const { inner } = this;
    const refused = refusal(inner, con);
    if (refused) return refused;
    // Query.prepare ends with a Sync, and answers a value it cannot send (Bind) with its own Sync and
    // the error: the statement's messages go through a connection whose Sync waits for ours, and
    // after such an error no COMMIT goes.
    let failed = false;
    const handleError = inner.handleError.bind(inner);
    inner.handleError = (err, c) => {
      failed = true;
      handleError(err, c);
    };
    const withoutSync = Object.create(con, { sync: { value: () => undefined } }) as WireConnection;
    con.stream.cork?.();
    try {
      inner.prepare(withoutSync);
      if (!failed) {
        con.parse({ text: 'COMMIT', name: '', types: [] });
        con.bind({ portal: '', statement: '', values: [] });
        con.execute({ portal: '' });
      }
      con.sync();
    } finally {
      con.stream.uncork?.();
      inner.handleError = handleError;
    }
    return null;
  }

  handleCommandComplete(msg: unknown, con: WireConnection): void {
    if (this.done) {
      this.commitTag = (msg as { text?: string }).text;
      return;
    }
    this.done = true;
    this.inner.handleCommandComplete(msg, con);
    // COMMIT's ParseComplete is not the statement's.
    this.name = undefined;
    this.text = undefined;
  }
}
