import { parse, protocol, type PGlite, type Results } from '@electric-sql/pglite';

const wire = protocol.serialize;

interface Statement {
  name: string;
  /** The parameters' type ids, as PostgreSQL inferred them: which serializer each value takes. */
  paramTypes: number[];
}

/** Names are unique in the process, so two of these on one session never collide. */
let named = 0;

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * Runs parameterised queries on PGlite as named prepared statements, one protocol round trip each.
 *
 * Why: `PGlite.query` sends Parse, Describe, Bind, Describe, Execute and Sync as six separate calls
 * into the WebAssembly backend and parses and plans the text every time; an app request makes seven
 * or eight queries, so on the embedded database that overhead was most of a request's cost (the test
 * suite spent 45 % of its CPU there). A text is parsed and described once per session; later runs
 * send Bind, Describe, Execute and Sync in one buffer. Values are serialised by the parameter types
 * PostgreSQL inferred and rows parsed by PGlite's own parsers, exactly as `PGlite.query` does.
 */
export class PreparedStatements {
  /** By text, least recently used first (a Map keeps insertion order; a hit moves to the end). */
  private readonly statements = new Map<string, Statement>();

  /** `limit`: past this many distinct texts the least recently used statement is closed (texts with IN lists vary). */
  constructor(
    private readonly db: PGlite,
    private readonly limit = 400,
  ) {}

  /** How many statements the session holds prepared now. */
  get size(): number {
    return this.statements.size;
  }

  async query(sql: string, values: unknown[]): Promise<Results> {
    return this.db.runExclusive(async () => {
      const statement = this.statements.get(sql) ?? (await this.prepare(sql));
      this.statements.delete(sql);
      this.statements.set(sql, statement);
      const message = concat([
        wire.bind({ statement: statement.name, values: this.serialize(statement, values) }),
        wire.describe({ type: 'P' }),
        wire.execute({}),
        wire.sync(),
      ]);
      const { messages } = await this.db.execProtocol(message);
      return parse.parseResults(messages, this.db.parsers)[0] ?? { rows: [], fields: [] };
    });
  }

  private async prepare(sql: string): Promise<Statement> {
    // A fresh name each time: a text whose parse failed leaves nothing behind to collide with.
    const name = `hb_${++named}`;
    const parts = [wire.parse({ name, text: sql }), wire.describe({ type: 'S', name }), wire.sync()];
    const evicted = this.statements.size >= this.limit ? this.statements.keys().next().value : undefined;
    if (evicted !== undefined) {
      // Close is honoured even inside a failed transaction, so it goes first in the same buffer.
      parts.unshift(wire.close({ type: 'S', name: this.statements.get(evicted)!.name }));
      this.statements.delete(evicted);
    }
    const { messages } = await this.db.execProtocol(concat(parts));
    return { name, paramTypes: parse.parseDescribeStatementResults(messages) };
  }

  private serialize(statement: Statement, values: unknown[]): (string | null)[] {
    return values.map((value, i) => {
      if (value === null || value === undefined) return null;
      const serializer = this.db.serializers[statement.paramTypes[i] ?? 0];
      if (serializer) return serializer(value);
      // A type PGlite has no serializer for (an enum, a domain): its text form, as node-postgres sends it.
      if (typeof value === 'string') return value;
      if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
      if (value instanceof Date) return value.toISOString();
      return JSON.stringify(value);
    });
  }
}
