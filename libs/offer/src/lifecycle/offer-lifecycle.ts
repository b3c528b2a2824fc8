import { Injectable } from '@nestjs/common';
import { HistoryWriter, type Tx } from '@hostboard/core';
import { ReservationRepository } from '@hostboard/allocator';
import { BoardEventWriter } from '@hostboard/board';
import { GuestMessenger, type Announcement } from '@hostboard/outbox';
import { BusinessDayCloser, QueueEntryRepository, type EntryStatus } from '@hostboard/queue';
import { VenueRepository, type Venue } from '@hostboard/venue';
import type { Offer } from '../offers/offer.entity.js';
import { OfferRepository } from '../offers/offer.repository.js';
import { OfferExpiryScheduler } from '../jobs/offer-expiry.scheduler.js';

export type OfferEnding = 'expired' | 'withdrawn' | 'cancelled';

/**
 * Ends a live offer and everything that hangs on it, once: the offer, its held reservation (seats or
 * tables released) and the entry. Every step is guarded by the current state, so a second call for
 * the same offer (a retried expiry, a late job) changes nothing and answers false.
 */
@Injectable()
export class OfferLifecycle {
  constructor(
    private readonly offers: OfferRepository,
    private readonly reservations: ReservationRepository,
    private readonly entries: QueueEntryRepository,
    private readonly venues: VenueRepository,
    private readonly history: HistoryWriter,
    private readonly board: BoardEventWriter,
    private readonly expiryJobs: OfferExpiryScheduler,
    private readonly guest: GuestMessenger,
    private readonly days: BusinessDayCloser,
  ) {}

  async end(tx: Tx, venue: Venue, offer: Offer, ending: OfferEnding, now: Date, operationId: string): Promise<boolean> {
    const m = tx.manager;
    if (!(await this.offers.end(m, offer.id, ending, now))) return false;
    const reason = ending === 'expired' ? 'WAITLIST_OFFER_EXPIRED' : ending;
    const reservationTo = ending === 'expired' ? 'EXPIRED' : 'CANCELLED';
    const released = await this.reservations.transition(m, offer.reservationId, ['HELD'], reservationTo, now, reason);
    // The policy decides where the party goes when an offer lapses or is withdrawn: back to waiting
    // with its original place (received time and sequence untouched), or out of the active queue.
    const entryTo: EntryStatus =
      ending === 'cancelled' ? 'cancelled' : venue.onOfferExpired === 'keep-place' ? 'waiting' : 'expired';
    await this.entries.transition(m, offer.entryId, ['offered'], entryTo);
    await this.history.append(
      m,
      { venueId: venue.id, subjectType: 'offer', subjectId: offer.id, from: 'live', to: ending, at: now, operationId, reason },
      ...(released
        ? [
            {
              venueId: venue.id,
              subjectType: 'reservation',
              subjectId: offer.reservationId,
              from: 'HELD',
              to: reservationTo,
              at: now,
              operationId,
              reason,
            },
          ]
        : []),
      {
        venueId: venue.id,
        subjectType: 'entry',
        subjectId: offer.entryId,
        from: 'offered',
        to: entryTo,
        at: now,
        operationId,
        reason,
      },
    );
    if (ending !== 'expired') this.expiryJobs.afterCommit(tx, venue, { cancel: offer.id });
    await this.venues.refreshPoolCounts(m, venue);
    await this.board.append(
      tx,
      venue.id,
      `offer.${ending}`,
      { offerId: offer.id, entryId: offer.entryId, reservationId: offer.reservationId, entryStatus: entryTo },
      now,
    );
    await this.announce(tx, venue, offer, ending, entryTo === 'waiting', now);
    return true;
  }

  /**
   * One message to the party per ended offer (this runs only when the guarded end changed the
   * offer, so never twice): withdrawn, lapsed, or left. Table venues only: those are the venues
   * whose parties were told of the offer.
   */
  private async announce(tx: Tx, venue: Venue, offer: Offer, ending: OfferEnding, placeKept: boolean, now: Date): Promise<void> {
    if (venue.seating !== 'tables') return;
    const entry = await this.entries.find(tx.manager, venue.id, offer.entryId);
    if (!entry) return;
    const kind: Announcement = ending === 'expired' ? 'offer-lapsed' : ending === 'withdrawn' ? 'offer-withdrawn' : 'queue-left';
    // An offer that ends after its business day did returns the party to a queue that closes in the
    // same sweep (no place is kept past the day), so the message must not promise one.
    if (placeKept && entry.businessDate < (await this.days.currentBusinessDate(tx.manager, venue, now))) placeKept = false;
    await this.guest.announce(tx.manager, { venue, party: entry, kind, placeKept, at: now, reservationId: offer.reservationId });
  }
}
