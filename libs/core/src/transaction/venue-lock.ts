import type { EntityManager } from 'typeorm';
import { DomainException } from '../errors/domain.exception.js';
import { preparedQuery } from './prepared-query.js';

/**
 * Takes the venue row lock, the first statement of every venue command. It serialises the venue's
 * decisions across connections, processes and machines; other venues never wait on it.
 */
export async function lockVenueRow(tx: EntityManager, venueId: string): Promise<void> {
  const rows = await preparedQuery(tx, 'SELECT id FROM venues WHERE id = $1 FOR UPDATE', [venueId]);
  if (rows.length === 0) throw DomainException.notFound('The venue was not found.');
}
