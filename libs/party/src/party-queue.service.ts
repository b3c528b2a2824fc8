import { Injectable } from '@nestjs/common';
import { DomainException, ErrorCode, TransactionRunner } from '@hostboard/core';
import type { ReservationView } from '@hostboard/allocator';
import {
  AcceptanceService,
  CancellationService,
  type CancelledEntry,
  endedOfferRefusal,
  type Offer,
  OfferRepository,
  type OfferState,
  SweepService,
  toOfferView,
  type OfferView,
} from '@hostboard/offer';
import type { EntityManager } from 'typeorm';
import {
  BUSINESS_DAY_ENDED,
  QueueEntryRepository,
  QueueTokenReader,
  QuoteService,
  toEntryView,
  type EntryView,
  type QueueSessionIdentity,
} from '@hostboard/queue';
import { RunningWindowFinder, VenueClock, VenueRepository } from '@hostboard/venue';
import { PartyOfferRepository } from './party-offer.repository.js';

export interface PartyQueueView {
  /** What the party's page shows at the top; the time zone reads the deadline in venue-local time. */
  /**
   * `sandbox`: a practice venue, whose clock stands still until a manager moves it. `seating`: a
   * table venue's party is offered a table, a seat-pool venue's group is held seats (the page words each).
   */
  venue: { name: string; timeZone: string; sandbox: boolean; seating: 'tables' | 'pool' };
  /** The venue's clock now (a sandbox venue's simulated one): the page runs its countdown from it. */
  now: string;
  entry: EntryView;
  /** Where the party stands now, counted as the quote counts; null once it has left the active queue. */
  position: number | null;
  ahead: number | null;
  offer: OfferView | null;
  /**
   * How the entry's most recent offer ended, while it has no live one (null while one is live, or if
   * it never had one): the page tells a withdrawal by the host from a hold that lapsed.
   */
  lastOffer: EndedOfferView | null;
  /**
   * A table can be offered now: a service window of the entry's business day is running (a table
   * offer needs one). False after service ends (the party still waits, until the day ends or the next
   * window of the day starts), so the page does not promise a table "the moment it is ready". Always
   * true at a seat-pool venue, whose promotions need no window.
   */
  serviceRunning: boolean;
  /**
   * Why an `expired` entry is out of the queue (null for any other status): `day-closed`, its business
   * day ended while it waited (whatever its earlier offers did); `offer-ended`, its last offer lapsed
   * or was withdrawn under a leave-queue policy. The page must not blame an offer for a day's close.
   */
  outReason: 'day-closed' | 'offer-ended' | null;
}

export interface EndedOfferView {
  id: string;
  state: Exclude<OfferState, 'live'>;
  resolvedAt: string | null;
}

export const NO_OFFER = 'There is no offer to accept.';

/**
 * What a party's queue session may do, always with its own entry: read it, leave the queue, accept
 * its live offer. The entry comes from the session, never from the request, so no other id is reachable.
 */
@Injectable()
export class PartyQueueService {
  constructor(
    private readonly tx: TransactionRunner,
    private readonly venues: VenueRepository,
    private readonly entries: QueueEntryRepository,
    private readonly quotes: QuoteService,
    private readonly offers: OfferRepository,
    private readonly partyOffers: PartyOfferRepository,
    private readonly cancellations: CancellationService,
    private readonly acceptance: AcceptanceService,
    private readonly tokens: QueueTokenReader,
    private readonly clock: VenueClock,
    private readonly windows: RunningWindowFinder,
    private readonly sweep: SweepService,
  ) {}

  /**
   * Where the party stands now. Lapsed holds are swept first (a cheap read when none is due), as the
   * board's reads do: a hold that ran out with no job or request to sweep it yet is not shown to its
   * party as live, and a party that left the queue with it is not counted ahead of the next one.
   */
  async view(session: QueueSessionIdentity): Promise<PartyQueueView> {
    await this.sweep.sweepFirst(session.venueId);
    return this.tx.run(({ manager }) => this.describe(manager, session.venueId, session.entryId));
  }

  /**
   * The same view by the queue token itself, which stays unused: the page reads where the party
   * stands while it waits, and exchanges the token only when the party acts.
   */
  async status(token: string): Promise<PartyQueueView> {
    const { venueId, entryId } = await this.tokens.entryOf(token);
    await this.sweep.sweepFirst(venueId);
    return this.tx.run(({ manager }) => this.describe(manager, venueId, entryId));
  }

  private async describe(manager: EntityManager, venueId: string, entryId: string): Promise<PartyQueueView> {
    const venue = await this.venues.findById(manager, venueId);
    const entry = await this.entries.find(manager, venueId, entryId);
    if (!venue || !entry) throw DomainException.notFound('The queue entry was not found.');
    const standing = await this.quotes.positionOf(manager, venue, entry);
    const offer = await this.offers.liveForEntry(manager, entry.id);
    const ended = offer ? null : await this.partyOffers.lastEnded(manager, venueId, entry.id);
    const now = this.clock.now(venue);
    const running = venue.seating === 'tables' ? await this.windows.find(manager, venue, now) : null;
    const expiredReason = entry.status === 'expired' ? await this.entries.expiredReason(manager, venueId, entry.id) : null;
    return {
      venue: { name: venue.name, timeZone: venue.timeZone, sandbox: venue.sandbox, seating: venue.seating },
      now: now.toISOString(),
      entry: toEntryView(entry),
      position: standing?.position ?? null,
      ahead: standing?.ahead ?? null,
      offer: offer ? toOfferView(offer) : null,
      lastOffer: ended ? toEndedOfferView(ended) : null,
      serviceRunning: venue.seating !== 'tables' || running?.businessDate === entry.businessDate,
      outReason: entry.status !== 'expired' ? null : expiredReason === BUSINESS_DAY_ENDED ? 'day-closed' : 'offer-ended',
    };
  }

  /**
   * Leaves the queue (releasing a live offer's hold). After accepting, leaving cancels the booking
   * (tables released once, history kept) and the answer names it in `cancelledBooking`; a seated
   * party is refused. Either way the session ends with the entry: the token and session stop working.
   */
  leave(session: QueueSessionIdentity, entryId = session.entryId): Promise<CancelledEntry> {
    // Another entry is refused before the venue's turn and row lock are taken: a session has no
    // limit of its own, and naming other ids must not keep the host's commands waiting.
    if (entryId !== session.entryId) return Promise.reject(DomainException.notFound('The queue entry was not found.'));
    return this.cancellations.cancelEntry(session.venueId, entryId, session.entryId);
  }

  /**
   * Accepts the entry's offer: the one named (another entry's offer is not found), else its live one,
   * else the one resolved last, so a lapsed offer answers WAITLIST_OFFER_EXPIRED rather than
   * "nothing to accept".
   */
  async accept(session: QueueSessionIdentity, offerId?: string): Promise<{ offer: OfferView; reservation: ReservationView }> {
    const offer = await this.tx.read((m) =>
      offerId !== undefined
        ? this.partyOffers.entrysOffer(m, session.venueId, session.entryId, offerId)
        : this.partyOffers.forAccept(m, session.venueId, session.entryId),
    );
    if (!offer && offerId === undefined) throw new DomainException(ErrorCode.WAITLIST_OFFER_CONFLICT, NO_OFFER);
    // What cannot succeed is refused before the venue's turn and row lock are taken, with the answer
    // the command would give: a session has no limit of its own, and a script naming random offer
    // ids, or its own offer that had ended, kept the venue's two command turns busy and its host's
    // commands waiting. A live offer goes to the command, which decides at its deadline under the
    // lock (an accept racing the expiry gets exactly one of the two outcomes).
    if (!offer) return this.tx.refuse(DomainException.notFound('The offer was not found.'));
    if (offer.state !== 'live') {
      // Refused in the venue's words: a pool group's hold of seats, a table venue's table.
      const venue = await this.tx.read((m) => this.venues.findById(m, session.venueId));
      const ended = endedOfferRefusal(offer.state, venue?.seating ?? 'tables');
      if (ended) return this.tx.refuse(ended);
    }
    return this.acceptance.accept(session.venueId, offer.id, session.entryId);
  }
}

function toEndedOfferView(o: Offer): EndedOfferView {
  return {
    id: o.id,
    state: o.state as EndedOfferView['state'],
    resolvedAt: o.resolvedAt ? o.resolvedAt.toISOString() : null,
  };
}
