import type { EntityManager } from 'typeorm';
import { entityRead, type ScalarRead, type TogetherStatement } from '@hostboard/core';
import { Reservation } from '../reservation.entity.js';
import { Visit } from './visit.entity.js';

/**
 * A visit and its reservation as parts of a command's first read (VenueRepository.lockThenRead):
 * both are read by the visit's id, since the reservation's is not known before the read.
 */
export function visitRead(tx: EntityManager, venueId: string, visitId: string): ScalarRead<Visit | null> {
  return entityRead(tx, Visit, 'venue_id = $1 AND id = $2', [venueId, visitId]);
}

export function reservationOfVisitRead(tx: EntityManager, venueId: string, visitId: string): ScalarRead<Reservation | null> {
  return entityRead(
    tx,
    Reservation,
    'venue_id = $1 AND id = (SELECT reservation_id FROM visits WHERE venue_id = $1 AND id = $2)',
    [venueId, visitId],
  );
}

/** Closes a visit read open under the venue lock; the guard keeps a second close from moving its time. */
export function closeVisitStatement(visitId: string, at: Date): TogetherStatement {
  return { sql: 'UPDATE visits SET closed_at = $2 WHERE id = $1 AND closed_at IS NULL RETURNING id', params: [visitId, at] };
}
