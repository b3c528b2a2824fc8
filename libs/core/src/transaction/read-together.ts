import type { EntityManager } from 'typeorm';
import { renumberParams } from './entity-rows.js';
import { preparedInOrder, preparedQuery } from './prepared-query.js';

/**
 * One read of a decision, written by the repository that owns it as a scalar subquery (a value, or
 * `json_agg` of rows) with its own `$1…` parameters, so that several modules' reads can travel in
 * one statement (`readTogether`) without any of them knowing the others' SQL.
 */
export interface ScalarRead<T> {
  sql: string;
  params: unknown[];
  parse: (value: unknown) => T;
}

/** What `readTogether` answers for the reads `R`. */
export type Results<R> = { [K in keyof R]: ResultOf<R[K]> };
/** A read's value; undefined for a read not given (a read that may be left out: either). */
type ResultOf<X> = X extends ScalarRead<infer T> ? T : undefined;

/**
 * Runs the reads as one `SELECT (a) AS a, (b) AS b, …` (a named prepared statement on PostgreSQL):
 * one round trip and one plan instead of one per read. All of them see one snapshot. A read given as
 * undefined (not needed this time) is skipped and answers undefined.
 */
export async function readTogether<R extends Record<string, ScalarRead<unknown> | undefined>>(
  manager: EntityManager,
  reads: R,
): Promise<Results<R>> {
  const statement = togetherStatement(reads);
  return statement.parse(await preparedQuery<Record<string, unknown>>(manager, statement.text, statement.params));
}

/** `readTogether`'s statement, and how its row is read: for a caller that sends it with others (`afterFirst`). */
export function togetherStatement<R extends Record<string, ScalarRead<unknown> | undefined>>(
  reads: R,
): { text: string; params: unknown[]; parse: (rows: unknown[]) => Results<R> } {
  const present = Object.entries(reads).filter((e): e is [string, ScalarRead<unknown>] => e[1] !== undefined);
  const params: unknown[] = [];
  const columns = present.map(([key, read]) => {
    const offset = params.length;
    params.push(...read.params);
    return `(${renumberParams(read.sql, offset)}) AS "${key}"`;
  });
  return {
    text: `SELECT ${columns.join(',\n       ')}`,
    params,
    parse: (rows) => {
      const row = (rows[0] ?? {}) as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const [key, read] of present) out[key] = read.parse(row[key]);
      return out as Results<R>;
    },
  };
}

/**
 * A statement (a venue's lock) and then `readTogether`'s statement, in one write to PostgreSQL
 * (`preparedInOrder`): the reads are a statement of their own after the first, with their own
 * snapshot taken once the first has completed, so after a lock they see everything committed before
 * it was granted, as when sent after it in a round trip of their own. Answers the first's rows and
 * what the reads found.
 */
export async function afterFirst<R extends Record<string, ScalarRead<unknown> | undefined>>(
  manager: EntityManager,
  first: { text: string; params: unknown[] },
  reads: R,
): Promise<{ rows: unknown[]; found: Results<R> }> {
  const statement = togetherStatement(reads);
  const [rows = [], readRows = []] = await preparedInOrder(manager, [first, statement]);
  return { rows, found: statement.parse(readRows) };
}

/** `json_agg` answers JSON text on some drivers and parsed values on others; null for no rows. */
export function jsonRows<T>(value: unknown): T[] {
  if (value === null || value === undefined) return [];
  return (typeof value === 'string' ? JSON.parse(value) : value) as T[];
}
