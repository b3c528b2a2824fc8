import type { EntityManager, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata.js';
import { preparedQuery } from './prepared-query.js';

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
  const shape = shapeOf(manager, target);
  return hydrateRows(
    manager,
    target,
    await preparedQuery(manager, `SELECT ${shape.list} FROM ${shape.table} WHERE ${where}`, params),
  );
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

/** Rows for one entity's table, to be written by `insertEntities` or together with others (`insertTogether`). */
export interface PendingInsert<T extends ObjectLiteral = ObjectLiteral> {
  target: EntityTarget<T>;
  rows: Array<Partial<T>>;
}

/** One INSERT of all rows; a property left undefined takes the column's DEFAULT. */
export async function insertEntities<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  rows: Array<Partial<T>>,
): Promise<void> {
  if (rows.length === 0) return;
  const params: unknown[] = [];
  await preparedQuery(manager, insertSql(manager, { target, rows }, params), params);
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
  inserts: PendingInsert[],
  final?: { with?: string; sql: string; params: unknown[] },
  options: { oneOff?: boolean } = {},
): Promise<R[]> {
  const params: unknown[] = [];
  const parts = inserts.filter((i) => i.rows.length > 0).map((i) => insertSql(manager, i, params));
  const tail = final ? renumberParams(final.sql, params.length) : parts.pop();
  if (tail === undefined) return [];
  const ctes = parts.map((sql, i) => `w${i} AS (${sql})`);
  if (final?.with) ctes.push(renumberParams(final.with, params.length));
  if (final) params.push(...final.params);
  const text = ctes.length > 0 ? `WITH ${ctes.join(',\n     ')}\n${tail}` : tail;
  return preparedQuery<R>(manager, text, params, options);
}

/** `$1` → `$(1 + offset)`: a statement's own parameter numbers, placed after those before it. */
export function renumberParams(sql: string, offset: number): string {
  return offset === 0 ? sql : sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`);
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
