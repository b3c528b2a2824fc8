import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const DEFAULT_PAGE_LIMIT = 100;
export const MAX_PAGE_LIMIT = 500;

/**
 * `?limit=&before=` of a paged list (newest first). A query string carries text, so `limit` is read
 * as a whole number here (only digits; anything else is refused as VALIDATION). `before` is the
 * opaque cursor a previous page's Link header gave.
 */
export class PageQueryDto {
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' && /^\d{1,6}$/.test(value) ? Number(value) : value))
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_LIMIT)
  limit?: number;

  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{1,128}$/, { message: 'before must be a cursor from a Link header' })
  before?: string;
}

export interface Page<T> {
  items: T[];
  /** The cursor of the next (older) page, or null when this is the last. */
  next: string | null;
}

/** Rows were read with `limit + 1`: the extra row only says there is more. */
export function toPage<T>(rows: T[], limit: number, cursorOf: (row: T) => string): Page<T> {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items, next: rows.length > limit && last !== undefined ? cursorOf(last) : null };
}

export function pageLimit(query: PageQueryDto): number {
  return query.limit ?? DEFAULT_PAGE_LIMIT;
}

/**
 * Sets `Link: <…>; rel="next"` (RFC 8288) when there is a next page: the same path and query with
 * `before` set to the cursor. The body stays a plain array.
 */
export function linkNextPage(req: FastifyRequest, res: FastifyReply, next: string | null): void {
  if (next === null) return;
  const url = new URL(req.originalUrl, 'http://placeholder');
  url.searchParams.set('before', next);
  res.header('Link', `<${url.pathname}${url.search}>; rel="next"`);
}

/** Encodes a row key (an id, a number) as an opaque cursor, and back. */
export const cursor = {
  encode(key: string): string {
    return Buffer.from(key, 'utf8').toString('base64url');
  },
  decode(value: string | undefined): string | null {
    return value === undefined ? null : Buffer.from(value, 'base64url').toString('utf8');
  },
};
