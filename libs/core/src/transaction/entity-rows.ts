import type { EntityManager, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata.js';
import { preparedAtCommit, preparedQuery, type AtCommit } from './prepared-query.js';
import type { ScalarRead } from './read-together.js';

/**
 * Plain SQL for an entity, with TypeORM's own value conversions but without its query builder.
 *
 * Why: on the hot paths (join, offer, promote, accept) the builder and its result transformer cost
 * about 0.45 ms of CPU per statement against 0.1 ms for the same statement sent as SQL (measured
 * in docs/benchmarks.md); a command runs ten of them. The column lists come from the entity
 * metadata, and values go through the driver's `preparePersistentValue` / `prepareHydratedValue`,
 * so dates, bigints and jsonb read and write exactly as through the builder. Inside a transaction on
 * PostgreSQL they go as named prepared statements (prepared-query.ts), parsed and planned once per connection.
 */
interface Shape {
  table: string;
  columns: ColumnMetadata[];
  /** `"a", "b", …` for SELECT lists and INSERT column lists. */
  list: string;
}

const shapes = new WeakMap<EntityMetadata, Shape>();

function shapeOf(manager: EntityManager, target: EntityTarget<ObjectLiteral>): Shape {
  const metadata = manager.connection.getMetadata(target);
  let shape = shapes.get(metadata);
  if (!shape) {
    const columns = metadata.columns.filter((c) => !c.isVirtual);
    shape = { table: `"${metadata.tablePath}"`, columns, list: columns.map((c) => `"${c.databaseName}"`).join(', ') };
    shapes.set(metadata, shape);
  }
  return shape;
}

/** Raw rows (database column names) into entities, converted as TypeORM would. */
function hydrateRows<T extends ObjectLiteral>(manager: EntityManager, target: EntityTarget<T>, rows: unknown): T[] {
  const { columns } = shapeOf(manager, target);
  const driver = manager.connection.driver;
  return (rows as Array<Record<string, unknown>>).map((row) => {
    const entity = {} as T;
    for (const c of columns) c.setEntityValue(entity, driver.prepareHydratedValue(row[c.databaseName], c));
    return entity;
  });
}

/** `SELECT <columns> FROM <table> WHERE <where>` (parameters `$1…`), hydrated. */
export async function selectEntities<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  where: string,
  params: unknown[],
): Promise<T[]> {
  return entityQuery(manager, target, ({ table, list }) => `SELECT ${list} FROM ${table} WHERE ${where}`, params);
}

/** A statement over one entity's table that answers its whole rows (`sql` given the table and column list), hydrated. */
async function entityQuery<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  sql: (shape: Shape) => string,
  params: unknown[],
): Promise<T[]> {
  return hydrateRows(manager, target, await preparedQuery(manager, sql(shapeOf(manager, target)), params));
}

/** An entity statement not sent yet (for `afterFirst`): its text, parameters, and how its rows become entities. */
export interface EntityStatement<T> {
  text: string;
  params: unknown[];
  hydrate: (rows: unknown[]) => T[];
}

/** `selectEntities`' statement, to be sent by the caller (with the reads after it: `afterFirst`). */
export function selectEntitiesStatement<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  where: string,
  params: unknown[],
): EntityStatement<T> {
  const { table, list } = shapeOf(manager, target);
  return { text: `SELECT ${list} FROM ${table} WHERE ${where}`, params, hydrate: (rows) => hydrateRows(manager, target, rows) };
}

/** `updateEntities`' statement, to be sent by the caller (with the reads after it: `afterFirst`). */
export function updateEntitiesStatement<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  set: string,
  where: string,
  params: unknown[],
): EntityStatement<T> {
  const { table, list } = shapeOf(manager, target);
  return {
    text: `UPDATE ${table} SET ${set} WHERE ${where} RETURNING ${list}`,
    params,
    hydrate: (rows) => hydrateRows(manager, target, rows),
  };
}

/** The first row `selectEntities` finds, or null: for lookups by key. */
export async function selectEntity<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  where: string,
  params: unknown[],
): Promise<T | null> {
  return (await selectEntities(manager, target, where, params))[0] ?? null;
}

/**
 * `selectEntity` as a part of a combined read (`readTogether`): the row travels as JSON and is
 * hydrated as the driver would (timestamps to Date; bigint and numeric, which JSON gives as numbers,
 * back to the strings node-postgres gives), so the entity is the same either way.
 */
export function entityRead<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  where: string,
  params: unknown[],
): ScalarRead<T | null> {
  const shape = shapeOf(manager, target);
  return {
    sql: `SELECT row_to_json(x) FROM (SELECT ${shape.list} FROM ${shape.table} WHERE ${where} LIMIT 1) x`,
    params,
    parse: (value) =>
      value === null || value === undefined ? null : (hydrateJson(manager, target, [fromJson(value)])[0] ?? null),
  };
}

/**
 * `selectEntities` as a part of a combined read: every row as JSON in `orderBy` order (columns of
 * the table, e.g. `expires_at, id`), hydrated as `entityRead` does.
 */
export function entitiesRead<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  where: string,
  params: unknown[],
  orderBy: string,
): ScalarRead<T[]> {
  const shape = shapeOf(manager, target);
  return {
    sql: `SELECT json_agg(row_to_json(x) ORDER BY ${orderBy}) FROM (SELECT ${shape.list} FROM ${shape.table} WHERE ${where}) x`,
    params,
    parse: (value) => (value === null || value === undefined ? [] : hydrateJson(manager, target, fromJson(value) as unknown[])),
  };
}

/** `json` answers JSON text on some drivers and parsed values on others. */
const fromJson = (value: unknown): unknown => (typeof value === 'string' ? JSON.parse(value) : value);

/** Column types node-postgres answers as strings (JSON as numbers). */
const TEXT_NUMBERS = new Set(['bigint', 'int8', 'numeric', 'decimal']);

/** Rows read as JSON into entities: the numbers node-postgres gives as strings back to strings, then `hydrateRows`. */
function hydrateJson<T extends ObjectLiteral>(manager: EntityManager, target: EntityTarget<T>, rows: unknown[]): T[] {
  const { columns } = shapeOf(manager, target);
  for (const row of rows as Array<Record<string, unknown>>) {
    for (const c of columns) {
      const v = row[c.databaseName];
      if (typeof v === 'number' && TEXT_NUMBERS.has(String(c.type))) row[c.databaseName] = String(v);
    }
  }
  return hydrateRows(manager, target, rows);
}

/**
 * `UPDATE <table> SET <set> WHERE <where> RETURNING <columns>` (parameters `$1…` across both),
 * hydrated: for an update that also answers the whole row, such as a lock taken by the update itself.
 */
export async function updateEntities<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  set: string,
  where: string,
  params: unknown[],
): Promise<T[]> {
  return entityQuery(manager, target, ({ table, list }) => `UPDATE ${table} SET ${set} WHERE ${where} RETURNING ${list}`, params);
}

/** `DELETE … WHERE <where> RETURNING` every column: answers the deleted rows as entities. */
export async function deleteEntities<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  where: string,
  params: unknown[],
): Promise<T[]> {
  return entityQuery(manager, target, ({ table, list }) => `DELETE FROM ${table} WHERE ${where} RETURNING ${list}`, params);
}

/** Rows for one entity's table, to be written by `insertEntities` or together with others (`insertTogether`). */
export interface PendingInsert<T extends ObjectLiteral = ObjectLiteral> {
  target: EntityTarget<T>;
  rows: Array<Partial<T>>;
}

/**
 * A guarded change that travels with a command's new rows in `insertTogether` (an UPDATE whose
 * outcome the caller already knows, having read the row under the venue lock), with its own `$1…`.
 */
export interface TogetherStatement {
  sql: string;
  params: unknown[];
}

/**
 * One INSERT of all rows; a property left undefined takes the column's DEFAULT. `atCommit`: as one
 * of the transaction's last statements, sent with its COMMIT after any held before it
 * (`preparedAtCommit`: its error is the commit's), for a row nothing in the transaction reads back
 * before the commit, other than through a statement sent after it (which sends it first).
 */
export async function insertEntities<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  rows: Array<Partial<T>>,
  options: { atCommit?: boolean } = {},
): Promise<void> {
  if (rows.length === 0) return;
  const params: unknown[] = [];
  const text = insertSql(manager, { target, rows }, params);
  await (options.atCommit ? preparedAtCommit : preparedQuery)(manager, text, params);
}

/**
 * Several tables' rows in one statement, one `INSERT` per table as a data-modifying CTE, optionally
 * ahead of a final statement of the caller's (`final.sql`, which may add its own CTEs after ours with
 * `final.with`, and whose parameters follow ours). Every constraint and trigger applies as to separate
 * inserts; foreign keys between the rows are checked at the end of the statement, so a child may
 * travel with its parent. Answers the final statement's rows. `oneOff` as in `preparedQuery`.
 */
export async function insertTogether<R = Record<string, unknown>>(
  manager: EntityManager,
  inserts: Array<PendingInsert | TogetherStatement>,
  final?: { with?: string; sql: string; params: unknown[] },
  options: { oneOff?: boolean } = {},
): Promise<R[]> {
  const statement = togetherStatement(manager, inserts, final);
  return statement ? preparedQuery<R>(manager, statement.text, statement.params, options) : [];
}

/**
 * `insertTogether` as the transaction's last statement, sent with its COMMIT (`preparedAtCommit`: its
 * rows only after the commit, its error the commit's).
 */
export async function insertTogetherAtCommit<R = Record<string, unknown>>(
  manager: EntityManager,
  inserts: Array<PendingInsert | TogetherStatement>,
  final?: { with?: string; sql: string; params: unknown[] },
  options: { oneOff?: boolean } = {},
): Promise<AtCommit<R>> {
  const statement = togetherStatement(manager, inserts, final);
  if (!statement) return { rows: () => Promise.resolve([]) };
  return preparedAtCommit<R>(manager, statement.text, statement.params, options);
}

/** The text and parameters of `insertTogether`; undefined when there is nothing to write. */
function togetherStatement(
  manager: EntityManager,
  inserts: Array<PendingInsert | TogetherStatement>,
  final?: { with?: string; sql: string; params: unknown[] },
): { text: string; params: unknown[] } | undefined {
  const params: unknown[] = [];
  const parts = inserts
    .filter((i) => 'sql' in i || i.rows.length > 0)
    .map((i) => {
      if (!('sql' in i)) return insertSql(manager, i, params);
      const sql = renumberParams(i.sql, params.length);
      params.push(...i.params);
      return sql;
    });
  const tail = final ? renumberParams(final.sql, params.length) : parts.pop();
  if (tail === undefined) return undefined;
  const ctes = parts.map((sql, i) => `w${i} AS (${sql})`);
  if (final?.with) ctes.push(renumberParams(final.with, params.length));
  if (final) params.push(...final.params);
  const text = ctes.length > 0 ? `WITH ${ctes.join(',\n     ')}\n${tail}` : tail;
  return { text, params };
}

/** A step of `chainedQuery`: a data-modifying statement, named so that later steps read its RETURNING. */
export interface ChainedStep extends TogetherStatement {
  name: string;
}

/**
 * Statements that feed each other in one round trip: each step a CTE under its name (a later one
 * reads an earlier one's RETURNING rows), and `final` a SELECT over them. All steps see the snapshot
 * taken before the statement (none sees another's changes, only its RETURNING); row triggers and
 * constraints apply as to separate statements, checked by the end of it.
 */
export async function chainedQuery<R = Record<string, unknown>>(
  manager: EntityManager,
  steps: ChainedStep[],
  final: TogetherStatement,
): Promise<R[]> {
  const params: unknown[] = [];
  const ctes = steps.map((s) => {
    const sql = renumberParams(s.sql, params.length);
    params.push(...s.params);
    return `${s.name} AS (${sql})`;
  });
  const tail = renumberParams(final.sql, params.length);
  params.push(...final.params);
  return preparedQuery<R>(manager, ctes.length > 0 ? `WITH ${ctes.join(',\n     ')}\n${tail}` : tail, params);
}

/**
 * Renumbered texts by text, then by offset: the hot paths renumber the same few fixed texts on every
 * command (a join, several times), and the replace with its callback was ~1 % of a join's CPU. Texts
 * built from data would each take a place: past `MAX_RENUMBERED` texts a text is renumbered unkept.
 */
const MAX_RENUMBERED = 512;
const renumbered = new Map<string, Map<number, string>>();

/** `$1` → `$(1 + offset)`: a statement's own parameter numbers, placed after those before it. */
export function renumberParams(sql: string, offset: number): string {
  if (offset === 0) return sql;
  let byOffset = renumbered.get(sql);
  if (!byOffset) {
    if (renumbered.size >= MAX_RENUMBERED) return renumber(sql, offset);
    byOffset = new Map();
    renumbered.set(sql, byOffset);
  }
  let text = byOffset.get(offset);
  if (text === undefined) {
    text = renumber(sql, offset);
    if (byOffset.size < 64) byOffset.set(offset, text);
  }
  return text;
}

function renumber(sql: string, offset: number): string {
  return sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`);
}

/** `INSERT INTO <table> (<columns>) VALUES (…), …`, its values appended to `params`. */
function insertSql(manager: EntityManager, { target, rows }: PendingInsert, params: unknown[]): string {
  const shape = shapeOf(manager, target);
  const driver = manager.connection.driver;
  const tuples = rows.map((row) => {
    const cells = shape.columns.map((c) => {
      const value: unknown = c.getEntityValue(row);
      if (value === undefined) return 'DEFAULT';
      params.push(driver.preparePersistentValue(value, c));
      return `$${params.length}`;
    });
    return `(${cells.join(', ')})`;
  });
  return `INSERT INTO ${shape.table} (${shape.list}) VALUES ${tuples.join(', ')}`;
}
