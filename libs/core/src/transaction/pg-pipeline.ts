/**
 * Statements in one write to PostgreSQL, on node-postgres's wire: START TRANSACTION ahead of a
 * transaction's first statement (`withBegin`), and its last statements ahead of COMMIT (`pipelined`),
 * each with one Sync. The extended protocol runs every Parse/Bind/Execute up to a Sync in order, each
 * statement with its own snapshot (READ COMMITTED). When and why they are used: `lazy-begin.ts`.
 *
 * These drive node-postgres 8's Query and wire connection (pinned in package.json), as pg-cursor does.
 */
export type StatementConfig = { name?: string; text: string; values: unknown[] };
export type StatementResult = { rows: unknown[] };

export const BEGIN = 'START TRANSACTION';

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

/** What `pipelined` answers: each statement's result, or the first statement that failed and its error. */
export type PipelineOutcome =
  { results: StatementResult[]; tag?: string } | { failed: { index: number; error: Error }; results: StatementResult[] };

/**
 * Sends `configs` in order, then COMMIT when `commit`, in one write and one Sync; with `begin`, the
 * transaction's START TRANSACTION goes first (its answers are not a statement's). Each statement runs
 * with its own snapshot, as if sent one after another, and each after the one before it has completed
 * (a lock it took is held when the next starts); the first that fails skips the rest and the COMMIT
 * (the server discards up to the Sync), and the transaction is then open and failed. Answers the
 * results of those that ran and COMMIT's tag, or the failed statement's index and error (a failed
 * START TRANSACTION as the first statement's).
 */
export function pipelined(
  client: PgClientWithQuery,
  configs: StatementConfig[],
  commit: boolean,
  begin = false,
): Promise<PipelineOutcome> {
  return new Promise((resolve) => {
    client.query(
      new Pipeline(
        configs.map((c) => queryOf(client, c)),
        commit,
        resolve,
        begin,
      ),
    );
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
 * Statements, then COMMIT when asked, with one Sync: each statement's answers go to its own Query in
 * turn (the client reads `name` and `text` as the statement being answered, on ParseComplete and on an
 * error), COMMIT's CommandComplete is kept as `commitTag`. An error skips what follows it. With
 * `begin`, START TRANSACTION goes first and its answers (ParseComplete, BindComplete,
 * CommandComplete) are swallowed, as `BeginThen` does.
 */
class Pipeline {
  /** The statement whose answers come now; `inners.length` once they all completed (COMMIT's turn). */
  private at = 0;
  /** COMMIT's command tag: COMMIT, or ROLLBACK for a transaction that had failed. */
  private commitTag: string | undefined;
  /** Statements whose Parse this submit sent (the client forgets only the failing one's on an error). */
  private readonly parsing: boolean[] = [];
  /** A statement whose values could not be sent (Bind): nothing after it went. */
  private unsent: { index: number; error: Error } | undefined;
  private settled = false;
  private readonly results: StatementResult[] = [];
  private readonly errors: Array<Error | undefined> = [];
  binary: boolean | undefined = undefined;
  /** The client may wrap this (a query_timeout); the outcome goes to `done`, not here. */
  callback: unknown = undefined;

  /** START TRANSACTION has completed (or was not sent): answers are the statements' from now on. */
  private begun: boolean;

  constructor(
    private readonly inners: PgQuery[],
    private readonly commit: boolean,
    private readonly done: (outcome: PipelineOutcome) => void,
    begin = false,
  ) {
    this.begun = !begin;
    inners.forEach((inner, i) => {
      inner.callback = (err, result) => {
        if (err) this.errors[i] = err;
        else this.results[i] = result as StatementResult;
      };
    });
  }

  /** The client gives the first statement's result its type parsers through this; the others copy them at submit. */
  get _result(): unknown {
    return this.inners[0]?._result;
  }

  // Unset until START TRANSACTION has completed, so its ParseComplete is not taken for the first statement's.
  get name(): string | undefined {
    return this.begun ? this.inners[this.at]?.name : undefined;
  }

  get text(): string | undefined {
    return this.begun ? this.inners[this.at]?.text : undefined;
  }

  submit(con: WireConnection): Error | null {
    for (const inner of this.inners) {
      const refused = refusal(inner, con);
      if (refused) return refused;
    }
    const types = (this.inners[0]?._result as { _types?: unknown } | undefined)?._types;
    // Query.prepare ends with a Sync, and answers a value it cannot send (Bind) with its own Sync and
    // the error: the statements' messages go through a connection whose Sync waits for ours, and
    // after such an error nothing more goes.
    const withoutSync = Object.create(con, { sync: { value: () => undefined } }) as WireConnection;
    con.stream.cork?.();
    try {
      if (!this.begun) {
        // START TRANSACTION as the unnamed statement and portal; the first statement's Bind replaces the portal.
        con.parse({ text: BEGIN, name: '', types: [] });
        con.bind({ portal: '', statement: '', values: [] });
        con.execute({ portal: '' });
      }
      for (const [i, inner] of this.inners.entries()) {
        const result = inner._result as { _types?: unknown } | undefined;
        if (result && !result._types) result._types = types;
        if (this.binary) inner.binary = true;
        this.parsing[i] = !inner.hasBeenParsed(con);
        const handleError = inner.handleError.bind(inner);
        inner.handleError = (err, c) => {
          this.unsent ??= { index: i, error: err };
          handleError(err, c);
        };
        try {
          inner.prepare(withoutSync);
        } finally {
          inner.handleError = handleError;
        }
        if (this.unsent) break;
      }
      if (this.commit && !this.unsent) {
        con.parse({ text: 'COMMIT', name: '', types: [] });
        con.bind({ portal: '', statement: '', values: [] });
        con.execute({ portal: '' });
      }
      con.sync();
    } finally {
      con.stream.uncork?.();
    }
    return null;
  }

  handleRowDescription(msg: unknown): void {
    this.inners[this.at]?.handleRowDescription(msg);
  }

  handleDataRow(msg: unknown): void {
    this.inners[this.at]?.handleDataRow(msg);
  }

  handleCommandComplete(msg: unknown, con: WireConnection): void {
    if (!this.begun) {
      this.begun = true;
      return;
    }
    const inner = this.inners[this.at];
    if (!inner) {
      this.commitTag = (msg as { text?: string }).text;
      return;
    }
    inner.handleCommandComplete(msg, con);
    this.at++;
  }

  handleEmptyQuery(con: WireConnection): void {
    this.inners[this.at]?.handleEmptyQuery(con);
  }

  handlePortalSuspended(con: WireConnection): void {
    this.inners[this.at]?.handlePortalSuspended(con);
  }

  handleCopyInResponse(con: WireConnection): void {
    this.inners[this.at]?.handleCopyInResponse(con);
  }

  handleCopyData(msg: unknown, con: WireConnection): void {
    this.inners[this.at]?.handleCopyData(msg, con);
  }

  /** The statement being answered failed (or COMMIT, or the connection): what follows it never ran. */
  handleError(err: Error, con: WireConnection): void {
    // The client forgot the failing statement's name as submitted; the server skipped the Parse of
    // those after it too (and of the first one when START TRANSACTION failed).
    for (let i = this.begun ? this.at + 1 : 0; i < this.inners.length; i++) {
      const name = this.inners[i]?.name;
      if (this.parsing[i] && name) delete con.submittedNamedStatements[name];
    }
    this.finish(con, { index: this.at, error: err });
  }

  handleReadyForQuery(con: WireConnection): void {
    this.finish(con, this.unsent);
  }

  private finish(con: WireConnection, failed: { index: number; error: Error } | undefined): void {
    if (this.settled) return;
    this.settled = true;
    // Each completed statement's rows (and a row it could not parse) through its Query's own ending.
    for (let i = 0; i < Math.min(this.at, this.inners.length); i++) this.inners[i]?.handleReadyForQuery(con);
    const broken = this.errors.findIndex((e) => e !== undefined);
    if (!failed && broken >= 0) failed = { index: broken, error: this.errors[broken] as Error };
    if (failed) {
      this.done({ failed, results: this.results.slice(0, failed.index) });
      return;
    }
    this.done({ results: this.results, tag: this.commitTag });
  }
}
