/**
 * The rows of `UPDATE … RETURNING` through `manager.query`: TypeORM answers `[rows, affected]` for
 * UPDATE and DELETE but plain rows for other statements.
 */
export function returningRows<T>(raw: unknown): T[] {
  if (Array.isArray(raw) && raw.length === 2 && Array.isArray(raw[0]) && typeof raw[1] === 'number') return raw[0] as T[];
  return raw as T[];
}
