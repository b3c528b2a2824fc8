import { Injectable } from '@nestjs/common';
import { DomainException, ErrorCode, requestContext, TransactionRunner } from '@hostboard/core';
import type { ReservationView } from '@hostboard/allocator';
import { AcceptanceService, CancellationService, type CancelledEntry, endedOfferRefusal, type OfferView } from '@hostboard/offer';
import {
  QueueSessionService,
  QueueTokenReader,
  TOKEN_INVALID_MESSAGE,
  tokenInvalid,
  type OpenedSession,
  type QueueSessionIdentity,
} from '@hostboard/queue';
import { VenueRepository } from '@hostboard/venue';
import { PartyOfferRepository } from './party-offer.repository.js';
import { PartyViewReader, type PartyQueueView } from './party-view.reader.js';

export type { EndedOfferView, PartyQueueView } from './party-view.reader.js';

/** An accept by the queue token: the accept's answer, and the session its token then opened (null: none, see acceptByToken). */
export interface AcceptedByToken {
  offer: OfferView;
  reservation: ReservationView;
  session: OpenedSession | null;
}

export const NO_OFFER = 'There is no offer to accept.';

/**
 * TOKEN_INVALID for a queue token whose business day ended while its party still waited (the entry is
 * out of the queue with the day's close): `details.reason` says so, and the `/q/` page says the day's
 * queue closed. Only the holder of a real token ever reads it.
 */
export function dayClosedToken(): DomainException {
  return new DomainException(ErrorCode.TOKEN_INVALID, TOKEN_INVALID_MESSAGE, { reason: 'day-closed' });
}

/**
 * What a party's queue session may do, always with its own entry: read it, leave the queue, accept
 * its live offer. The entry comes from the session, never from the request, so no other id is reachable.
 */
@Injectable()
export class PartyQueueService {
  constructor(
    private readonly tx: TransactionRunner,
    private readonly venues: VenueRepository,
    private readonly partyOffers: PartyOfferRepository,
    private readonly cancellations: CancellationService,
    private readonly acceptance: AcceptanceService,
    private readonly tokens: QueueTokenReader,
    private readonly reader: PartyViewReader,
    private readonly sessions: QueueSessionService,
  ) {}

  /** Where the party stands now (PartyViewReader). */
  view(session: QueueSessionIdentity): Promise<PartyQueueView> {
    return this.reader.read(session.venueId, session.entryId);
  }

  /**
   * The same view by the queue token itself, which stays unused: the page reads where the party
   * stands while it waits, and exchanges the token only when the party acts.
   */
  async status(token: string): Promise<PartyQueueView> {
    const { venueId, entryId, lapsed } = await this.tokens.entryOf(token, { lapsed: 'answer' });
    const view = await this.reader.read(venueId, entryId);
    if (!lapsed) return view;
    // A token dies at the end of its business day: it reads nothing then, but a page left open past
    // midnight is told that the day's queue closed, not that its link stopped working for no reason.
    throw view.entry.status === 'expired' && view.outReason === 'day-closed' ? dayClosedToken() : tokenInvalid();
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
   * Accepts the entry's offer by its open queue token, then exchanges the token for the session
   * (with the page's `key`): a refused accept (the hold lapsed just before the tap reached the
   * server) spends nothing, where an exchange first spent the link for a session that ends within
   * the hour while the party's place goes on. `session` is null when the token was spent by another
   * phone of the party between the two steps: the accept stands, and that phone holds the session.
   */
  async acceptByToken(token: string, offerId: string, key?: string): Promise<AcceptedByToken> {
    const { venueId, entryId } = await this.tokens.entryOf(token);
    // The party acts, proven by its token: its history and board event say so (`party:{entryId}`, by
    // party), as for an accept with the session the token opens.
    const ctx = requestContext.current();
    if (ctx) ctx.principal = { kind: 'queue-session', sessionId: '', entryId };
    const accepted = await this.accept({ sessionId: '', venueId, entryId }, offerId);
    const session = await this.sessions.exchange(token, key).catch((err: unknown) => {
      if (err instanceof DomainException && err.code === ErrorCode.TOKEN_INVALID) return null;
      throw err;
    });
    return { ...accepted, session };
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
