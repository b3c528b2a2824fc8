import type { EntityManager } from 'typeorm';
import { renumberParams } from './entity-rows.js';
import { preparedQuery } from './prepared-query.js';

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
export type Results<R> = { [K in keyof R]: R[K] extends ScalarRead<infer T> ? T : undefined };

/**
 * Runs the reads as one `SELECT (a) AS a, (b) AS b, …` (a named prepared statement on PostgreSQL):
 * one round trip and one plan instead of one per read. All of them see one snapshot. A read given as
 * undefined (not needed this time) is skipped and answers undefined.
 */
export async function readTogether<R extends Record<string, ScalarRead<unknown> | undefined>>(
  manager: EntityManager,
  reads: R,
): Promise<Results<R>> {
  const present = Object.entries(reads).filter((e): e is [string, ScalarRead<unknown>] => e[1] !== undefined);
  const params: unknown[] = [];
  const columns = present.map(([key, read]) => {
    const offset = params.length;
    params.push(...read.params);
    return `(${renumberParams(read.sql, offset)}) AS "${key}"`;
  });
  const rows = await preparedQuery<Record<string, unknown>>(manager, `SELECT ${columns.join(',\n       ')}`, params);
  const row = rows[0] ?? {};
  const out: Record<string, unknown> = {};
  for (const [key, read] of present) out[key] = read.parse(row[key]);
  return out as Results<R>;
}

/** `json_agg` answers JSON text on some drivers and parsed values on others; null for no rows. */
export function jsonRows<T>(value: unknown): T[] {
  if (value === null || value === undefined) return [];
  return (typeof value === 'string' ? JSON.parse(value) : value) as T[];
}
