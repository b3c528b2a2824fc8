import type { EntityManager } from 'typeorm';
import { DomainException } from '../errors/domain.exception.js';
import { keyInProgress, keyLockCondition } from '../idempotency/idempotency.store.js';
import { preparedQuery } from './prepared-query.js';

/**
 * Takes the venue row lock, the first statement of every venue command. It serialises the venue's
 * decisions across connections, processes and machines; other venues never wait on it. With
 * `keyLock` (Tx.keyLock) the same statement takes the Idempotency-Key's lock first.
 */
export async function lockVenueRow(tx: EntityManager, venueId: string, keyLock?: string): Promise<void> {
  const { where, params } = venueLockWhere(venueId, keyLock);
  const rows = await preparedQuery(tx, `SELECT id FROM venues WHERE ${where} FOR UPDATE`, params);
  if (rows.length === 0) await noVenueRow(tx, venueId, keyLock);
}

/**
 * The WHERE of a statement that locks one venue's row (`id = $1`), and with `keyLock` the one-time
 * filter that takes the Idempotency-Key's lock before it (`$2`): every venue lock, whatever it reads
 * or updates with it, is written from this.
 */
export function venueLockWhere(venueId: string, keyLock?: string): { where: string; params: unknown[] } {
  return keyLock === undefined
    ? { where: 'id = $1', params: [venueId] }
    : { where: `id = $1 AND ${keyLockCondition('$2')}`, params: [venueId, keyLock] };
}

/**
 * A venue lock that found no row: the venue is unknown, or (with a key's lock in the statement) a
 * request with the same key still holds it. Read again to tell which; a refusal either way.
 */
export async function noVenueRow(tx: EntityManager, venueId: string, keyLock: string | undefined): Promise<never> {
  if (keyLock !== undefined) {
    const found = await preparedQuery(tx, 'SELECT 1 FROM venues WHERE id = $1', [venueId]);
    if (found.length > 0) throw keyInProgress();
  }
  throw DomainException.notFound('The venue was not found.');
}
