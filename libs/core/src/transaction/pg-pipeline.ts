/**
 * Two statements in one write to PostgreSQL, on node-postgres's wire: START TRANSACTION ahead of a
 * transaction's first statement (`withBegin`), and its last statement ahead of COMMIT (`thenCommit`),
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

/** Sends `config` then COMMIT in one write and one Sync; answers the statement's result and COMMIT's tag. */
export function thenCommit(
  client: PgClientWithQuery,
  config: StatementConfig,
): Promise<{ result: StatementResult; tag?: string }> {
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
