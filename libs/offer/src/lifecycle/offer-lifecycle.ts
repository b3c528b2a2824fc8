import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { HistoryWriter, type HistoryChange, type PendingInsert, type Tx } from '@hostboard/core';
import { ReservationRepository } from '@hostboard/allocator';
import { BoardEventWriter } from '@hostboard/board';
import { GuestMessenger, type Announcement, type AnnouncementTo } from '@hostboard/outbox';
import { BusinessDayCloser, QueueEntryRepository, type EntryParty, type EntryStatus } from '@hostboard/queue';
import { VenueRepository, type Venue } from '@hostboard/venue';
import type { Offer } from '../offers/offer.entity.js';
import { OfferRepository, type EndedOffer } from '../offers/offer.repository.js';
import { OfferExpiryScheduler } from '../jobs/offer-expiry.scheduler.js';

export type OfferEnding = 'expired' | 'withdrawn' | 'cancelled';

/**
 * Offers a sweep ends per round of statements. Its one insert carries about 53 parameters per table
 * offer (three history rows, an email and a text), and PostgreSQL takes at most 65,535 in one
 * statement: a venue with more due at once than this takes another round, in deadline order.
 */
const EXPIRY_BATCH = 500;

/**
 * Ends live offers and everything that hangs on them, once: the offer, its held reservation (seats
 * or tables released) and the entry. Every step is guarded by the current state, so a second call
 * for the same offer (a retried expiry, a late job) changes nothing and answers false.
 *
 * One offer (a withdrawal, a cancellation, a lapse found at acceptance) and every offer due in a
 * sweep go the same way, in a fixed number of statements however many end together: when a burst
 * of offers falls due, the sweep that holds the venue lock is short, so the expiries behind it
 * are on time.
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
    return (await this.endAll(tx, venue, { ids: [offer.id] }, ending, now, () => operationId)).length > 0;
  }

  /** Inside the venue lock: expires every live offer due at `now`; answers their ids, in deadline order. */
  async expireDue(tx: Tx, venue: Venue, now: Date, operationId: (offerId: string) => string): Promise<string[]> {
    const expired: string[] = [];
    for (;;) {
      const batch = await this.endAll(tx, venue, { dueAt: now, limit: EXPIRY_BATCH }, 'expired', now, operationId);
      expired.push(...batch);
      if (batch.length < EXPIRY_BATCH) return expired;
    }
  }

  /**
   * Statements, however many offers: end the offers, release their reservations, move their entries
   * (reading the parties in the same statement for table venues), the business date when a kept
   * place is announced, the pool counts, and one insert of all history rows, guest messages and board
   * events (one event per offer, each with its own version).
   */
  private async endAll(
    tx: Tx,
    venue: Venue,
    which: { ids: string[] } | { dueAt: Date; limit: number },
    ending: OfferEnding,
    now: Date,
    operationId: (offerId: string) => string,
  ): Promise<string[]> {
    const m = tx.manager;
    const ended = await this.offers.endLive(m, venue.id, which, ending, now);
    if (ended.length === 0) return [];
    const reason = ending === 'expired' ? 'WAITLIST_OFFER_EXPIRED' : ending;
    const reservationTo = ending === 'expired' ? 'EXPIRED' : 'CANCELLED';
    const released = await this.reservations.transitionAll(
      m,
      ended.map((o) => o.reservationId),
      ['HELD'],
      reservationTo,
      now,
      reason,
    );
    // The policy decides where the party goes when an offer lapses or is withdrawn: back to waiting
    // with its original place (received time and sequence untouched), or out of the active queue.
    const entryTo: EntryStatus =
      ending === 'cancelled' ? 'cancelled' : venue.onOfferExpired === 'keep-place' ? 'waiting' : 'expired';
    // Table venues only announce: those are the venues whose parties were told of the offer.
    const announced = venue.seating === 'tables';
    const parties = await this.entries.transitionAll(
      m,
      venue.id,
      ended.map((o) => o.entryId),
      ['offered'],
      entryTo,
      announced,
    );
    const changes: HistoryChange[] = [];
    for (const offer of ended) {
      const base = { venueId: venue.id, at: now, operationId: operationId(offer.id), reason };
      changes.push({ ...base, subjectType: 'offer', subjectId: offer.id, from: 'live', to: ending });
      if (released.has(offer.reservationId))
        changes.push({ ...base, subjectType: 'reservation', subjectId: offer.reservationId, from: 'HELD', to: reservationTo });
      changes.push({ ...base, subjectType: 'entry', subjectId: offer.entryId, from: 'offered', to: entryTo });
      if (ending !== 'expired') this.expiryJobs.afterCommit(tx, venue, { cancel: offer.id });
    }
    await this.venues.refreshPoolCounts(m, venue);
    const messages = await this.announcements(m, venue, ended, parties, ending, entryTo === 'waiting', now);
    await this.board.appendAll(
      tx,
      venue.id,
      ended.map((o) => ({
        type: `offer.${ending}`,
        data: { offerId: o.id, entryId: o.entryId, reservationId: o.reservationId, entryStatus: entryTo },
      })),
      now,
      [this.history.rows(...changes), messages],
    );
    return ended.map((o) => o.id);
  }

  /**
   * One message to the party per ended offer (this runs only for offers the guarded end changed,
   * so never twice): withdrawn, lapsed, or left.
   */
  private async announcements(
    m: EntityManager,
    venue: Venue,
    ended: EndedOffer[],
    parties: EntryParty[],
    ending: OfferEnding,
    placeKept: boolean,
    now: Date,
  ): Promise<PendingInsert> {
    const byId = new Map(parties.map((p) => [p.id, p]));
    const kind: Announcement = ending === 'expired' ? 'offer-lapsed' : ending === 'withdrawn' ? 'offer-withdrawn' : 'queue-left';
    // An offer that ends after its business day did returns the party to a queue that closes in the
    // same sweep (no place is kept past the day), so the message must not promise one.
    const today = placeKept && parties.length > 0 ? await this.days.currentBusinessDate(m, venue, now) : null;
    const list: AnnouncementTo[] = [];
    for (const offer of ended) {
      const party = byId.get(offer.entryId);
      if (!party) continue;
      const kept = placeKept && !(today !== null && party.businessDate < today);
      list.push({ venue, party, kind, placeKept: kept, at: now, reservationId: offer.reservationId });
    }
    return this.guest.announcementRows(list);
  }
}
