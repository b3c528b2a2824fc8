import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DomainException, readTogether, TransactionRunner, type Results } from '@hostboard/core';
import { EmailChannel, SmsAdapter } from '@hostboard/outbox';
import { OfferRepository, SweepService, toOfferView, type Offer, type OfferState, type OfferView } from '@hostboard/offer';
import { BUSINESS_DAY_ENDED, QueueEntryRepository, QuoteService, toEntryView, type EntryView } from '@hostboard/queue';
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
  /**
   * The venue's messages reach this party: a provider is set up for one of its contacts (email over
   * SMTP, a text over the SMS provider). False in the pilot, where every message is only recorded for
   * the manager: the page then tells the party to keep it open instead of promising a message.
   */
  messaged: boolean;
}

export interface EndedOfferView {
  id: string;
  state: Exclude<OfferState, 'live'>;
  resolvedAt: string | null;
}

/**
 * What a party's page shows, read in one statement. The page asks every 3 seconds for as long as it
 * is open, for every party in the queue: the sweep's lock-free question and the venue, the entry,
 * the line ahead of it, its offers, the service windows and why it left travel together, where they
 * were a read and then a transaction of six to eight. One statement sees one snapshot, as the
 * transaction did. Lapsed holds are still swept first: when the statement finds one due (or a
 * business day ended), the sweep runs in its own committed transaction and the view is read again,
 * so a hold that ran out with no job or request to sweep it yet is not shown to its party as live,
 * and a party that left the queue with it is not counted ahead of the next one.
 */
@Injectable()
export class PartyViewReader {
  constructor(
    private readonly tx: TransactionRunner,
    private readonly venues: VenueRepository,
    private readonly entries: QueueEntryRepository,
    private readonly quotes: QuoteService,
    private readonly offers: OfferRepository,
    private readonly partyOffers: PartyOfferRepository,
    private readonly clock: VenueClock,
    private readonly windows: RunningWindowFinder,
    private readonly sweep: SweepService,
    private readonly email: EmailChannel,
    private readonly sms: SmsAdapter,
  ) {}

  async read(venueId: string, entryId: string): Promise<PartyQueueView> {
    const first = await this.tx.read((m) =>
      readTogether(m, { ...this.sweep.dueReads(venueId), ...this.reads(m, venueId, entryId) }),
    );
    if (!this.sweep.anyFound(first)) return this.view(first);
    await this.sweep.sweepFound(venueId, first);
    return this.view(await this.tx.read((m) => readTogether(m, this.reads(m, venueId, entryId))));
  }

  private reads(m: EntityManager, venueId: string, entryId: string) {
    return {
      venue: this.venues.findRead(m, venueId),
      entry: this.entries.findRead(m, venueId, entryId),
      ...this.quotes.positionReads(venueId, entryId),
      offer: this.offers.liveForEntryRead(m, venueId, entryId),
      ended: this.partyOffers.lastEndedRead(m, venueId, entryId),
      windows: this.windows.listRead(venueId),
      expiredReason: this.entries.expiredReasonRead(venueId, entryId),
    };
  }

  private view(found: Results<ReturnType<PartyViewReader['reads']>>): PartyQueueView {
    const { venue, entry, offer } = found;
    if (!venue || !entry) throw DomainException.notFound('The queue entry was not found.');
    const standing = this.quotes.positionIn(venue, entry, found.line, found.capacities);
    const ended = offer ? null : found.ended;
    const now = this.clock.now(venue);
    const running = venue.seating === 'tables' ? this.windows.runningIn(found.windows, venue, now) : null;
    return {
      venue: { name: venue.name, timeZone: venue.timeZone, sandbox: venue.sandbox, seating: venue.seating },
      now: now.toISOString(),
      entry: toEntryView(entry),
      position: standing?.position ?? null,
      ahead: standing?.ahead ?? null,
      offer: offer ? toOfferView(offer) : null,
      lastOffer: ended ? toEndedOfferView(ended) : null,
      serviceRunning: venue.seating !== 'tables' || running?.businessDate === entry.businessDate,
      outReason: entry.status !== 'expired' ? null : found.expiredReason === BUSINESS_DAY_ENDED ? 'day-closed' : 'offer-ended',
      messaged: (entry.email !== null && this.email.configured) || (entry.phone !== null && this.sms.configured),
    };
  }
}

function toEndedOfferView(o: Offer): EndedOfferView {
  return {
    id: o.id,
    state: o.state as EndedOfferView['state'],
    resolvedAt: o.resolvedAt ? o.resolvedAt.toISOString() : null,
  };
}
