import { DomainException, ErrorCode, sqlState, SQLSTATE, violatedConstraint } from '@hostboard/core';
import type { Venue } from '@hostboard/venue';

// The first two are the spec's words, exactly.
export const DUPLICATE_MESSAGE = 'This contact is already in the queue for today.';
/** A seat pool's (a workshop's) own: its queue holds groups, and the workshop spec words no duplicate. */
export const POOL_DUPLICATE_MESSAGE = 'This contact already has a group in the queue for today.';
export const duplicateMessage = (seating: Venue['seating'] | undefined): string =>
  seating === 'pool' ? POOL_DUPLICATE_MESSAGE : DUPLICATE_MESSAGE;
export const CONTACT_MISSING = 'A queue party needs an email or a phone number.';
export const QUEUE_OFF = 'The queue is switched off at this venue.';
export const NO_SERVICE_WINDOW = 'No service window is running now; the queue is same-day and live-service only.';
export const VENUE_NOT_FOUND = 'The venue was not found.';

/** Restaurant parties are 1–200 people (the DTO bounds only absurd numbers, for pool venues' sake). */
export function assertPartySizeRange(size: number): void {
  if (size > 200) throw DomainException.validation('partySize must not be greater than 200', { field: 'partySize' });
}

/** The cap guard. Tables: at most the queue cap. Pool: a whole number from 1 to the capacity. */
export function assertPartySize(venue: Venue, size: number): void {
  if (venue.seating === 'pool') {
    const capacity = venue.poolCapacity ?? 0;
    if (size > capacity)
      throw DomainException.validation(`The party size must be a whole number from 1 to ${capacity}.`, { field: 'partySize' });
    return;
  }
  if (size > venue.queuePartyCap)
    throw DomainException.validation(`The queue accepts parties of at most ${venue.queuePartyCap}.`, { field: 'partySize' });
}

/**
 * After the cap guard: a party that no table and no approved combination seats would be quoted a wait
 * and then refused every offer, so it is refused at the door, by its size. A venue with no tables
 * yet has nothing to compare with and takes any size up to the cap.
 */
export function assertSeatable(size: number, capacities: number[]): void {
  if (capacities.length === 0 || capacities.some((c) => c >= size)) return;
  throw DomainException.validation(
    `No table or approved combination here seats a party of ${size}; the largest seats ${Math.max(...capacities)}.`,
    { field: 'partySize', partySize: size, largest: Math.max(...capacities) },
  );
}

/**
 * The partial unique index refused a second active entry for this contact today. Only reachable if
 * something wrote past the venue lock; the transaction is gone, so the existing entry is not named.
 * `venue` is the one the command locked (a pool's words, else the spec's); undefined when the command
 * failed before its lock answered.
 */
export function duplicateContact(err: unknown, venue: Pick<Venue, 'seating'> | undefined): DomainException | undefined {
  return sqlState(err) === SQLSTATE.uniqueViolation && violatedConstraint(err) === 'queue_entries_one_active_per_contact'
    ? new DomainException(ErrorCode.WAITLIST_DUPLICATE, duplicateMessage(venue?.seating))
    : undefined;
}
