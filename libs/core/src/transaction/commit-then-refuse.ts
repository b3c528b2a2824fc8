import type { DomainException } from '../errors/domain.exception.js';

/**
 * Thrown from inside a command to keep what it did and still refuse: an acceptance that arrives at
 * or after the deadline releases the hold (that must commit) and answers WAITLIST_OFFER_EXPIRED.
 * The refusal is recorded as the command's answer for its Idempotency-Key.
 */
export class CommitThenRefuse extends Error {
  constructor(readonly refusal: DomainException) {
    super(refusal.message);
    this.name = 'CommitThenRefuse';
  }
}
