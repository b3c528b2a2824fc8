import { Injectable } from '@nestjs/common';
import { CommitThenRefuse, DomainException, ErrorCode, HistoryWriter, TransactionRunner, type Tx } from '@hostboard/core';
import { ReservationRepository, toReservationView, type Reservation, type ReservationView } from '@hostboard/allocator';
import { BoardEventWriter } from '@hostboard/board';
import { QueueEntryRepository, type QueueEntry } from '@hostboard/queue';
import { VenueClock, VenueRepository, type Seating, type Venue } from '@hostboard/venue';
import type { Offer, OfferState } from '../offers/offer.entity.js';
import { OfferRepository } from '../offers/offer.repository.js';
import { toOfferView, type OfferView } from '../offers/offer.view.js';
import { OfferLifecycle } from './offer-lifecycle.js';
import { expiryOperationId, SweepService } from './sweep.service.js';
import { OfferExpiryScheduler } from '../jobs/offer-expiry.scheduler.js';

export const OFFER_EXPIRED = 'The offer expired and its table was released.';
/** The same refusal at a seat-pool venue, in the workshop policy's words: a hold of seats, released once. */
export const HOLD_EXPIRED = 'The hold expired and its seats were released.';
export const OFFER_NOT_OPEN = 'This offer is no longer open.';
/** The same refusal at a seat-pool venue: its guest page and board speak of a hold, never an offer. */
export const HOLD_NOT_OPEN = 'This hold is no longer open.';

/** WAITLIST_OFFER_CONFLICT for an offer already accepted or withdrawn, in the venue's words (the restaurant spec's for tables). */
export function offerNotOpen(seating: Seating): DomainException {
  return new DomainException(ErrorCode.WAITLIST_OFFER_CONFLICT, seating === 'pool' ? HOLD_NOT_OPEN : OFFER_NOT_OPEN);
}

/** WAITLIST_OFFER_EXPIRED in the venue's words: the restaurant spec's for tables, the workshop's for a pool. */
export function offerExpired(seating: Seating): DomainException {
  return new DomainException(ErrorCode.WAITLIST_OFFER_EXPIRED, seating === 'pool' ? HOLD_EXPIRED : OFFER_EXPIRED);
}

/**
 * The refusal of an accept of an offer in this state, or null while it is live. An offer that has
 * ended never opens again (every change of state is from `live`), so a lock-free read of an ended
 * one already knows the answer the locked path would give.
 */
export function endedOfferRefusal(state: OfferState, seating: Seating): DomainException | null {
  if (state === 'expired') return offerExpired(seating);
  if (state !== 'live') return offerNotOpen(seating);
  return null;
}

/**
 * Acceptance: the same HELD reservation becomes CONFIRMED (no seats or tables consumed again, no
 * second reservation), valid strictly before the hold's expiry. At or after it, the hold is released
 * once and the answer is WAITLIST_OFFER_EXPIRED.
 */
@Injectable()
export class AcceptanceService {
  constructor(
    private readonly tx: TransactionRunner,
    private readonly venues: VenueRepository,
    private readonly clock: VenueClock,
    private readonly offers: OfferRepository,
    private readonly reservations: ReservationRepository,
    private readonly entries: QueueEntryRepository,
    private readonly lifecycle: OfferLifecycle,
    private readonly history: HistoryWriter,
    private readonly board: BoardEventWriter,
    private readonly sweep: SweepService,
    private readonly expiryJobs: OfferExpiryScheduler,
  ) {}

  async accept(
    venueId: string,
    offerId: string,
    onlyEntryId?: string,
  ): Promise<{ offer: OfferView; reservation: ReservationView }> {
    return this.tx.command({ venueId, keyLockedByCommand: true }, async (tx) => {
      const m = tx.manager;
      // The offer, its reservation and tables in one read after the lock (issue 18), with the sweep's
      // question; both travel in the lock's own write, as a statement of their own after it.
      const locked = await this.venues.lockThenRead(m, venueId, tx.keyLock, {
        offer: this.offers.findRead(m, venueId, offerId),
        reservation: this.offers.reservationRead(m, venueId, offerId),
        tableIds: this.offers.tableIdsRead(offerId),
        laterLive: this.offers.laterLiveRead(venueId, offerId),
        ...this.sweep.dueAfterLockReads(venueId),
      });
      const venue = locked.venue;
      const now = this.clock.now(venue);
      // Lapsed holds and ended days are swept first, in a transaction of their own, and the acceptance
      // then runs again (SweepService.sweepThenDecide).
      return this.sweep.sweepThenDecide(tx, venue, now, locked.found, () =>
        this.accepted(tx, venue, now, locked.found, onlyEntryId),
      );
    });
  }

  private async accepted(
    tx: Tx,
    venue: Venue,
    now: Date,
    found: { offer: Offer | null; reservation: Reservation | null; tableIds: string[]; laterLive: boolean },
    onlyEntryId: string | undefined,
  ): Promise<{ offer: OfferView; reservation: ReservationView }> {
    const venueId = venue.id;
    const offer = found.offer;
    if (!offer || (onlyEntryId !== undefined && offer.entryId !== onlyEntryId))
      throw DomainException.notFound('The offer was not found.');
    const ended = endedOfferRefusal(offer.state, venue.seating);
    if (ended) throw ended;
    // Strictly before: at the expiry instant itself it is too late (compared at full precision).
    if (!(now.getTime() < offer.expiresAt.getTime())) {
      await this.lifecycle.end(tx, venue, offer, 'expired', now, expiryOperationId(offer.id));
      throw new CommitThenRefuse(offerExpired(venue.seating));
    }
    const reservation = found.reservation;
    if (!reservation) throw new Error(`reservation ${offer.reservationId} of offer ${offer.id} vanished`);
    // Who accepted, the party's name and its tables travel with the event: a board that did not
    // accept it says so to the host ("Ada confirmed: table T1, to be seated").
    const by = onlyEntryId !== undefined ? 'party' : 'staff';
    const operationId = `accept-offer-${offer.id}`;
    // Its expiry job is removed unless a later hold of the venue is live: the job may be theirs (an
    // offer made while this one was live added none); it then runs at this deadline, expires nothing
    // of this offer and schedules the next hold's.
    // (A pool's promotions each have their own job: nothing hangs on this one there.)
    if (!found.laterLive || venue.seating !== 'tables') this.expiryJobs.afterCommit(tx, venue, { cancel: offer.id });
    const history = this.history.rows(
      { venueId, subjectType: 'offer', subjectId: offer.id, from: 'live', to: 'accepted', at: now, operationId },
      {
        venueId,
        subjectType: 'reservation',
        subjectId: offer.reservationId,
        from: 'HELD',
        to: 'CONFIRMED',
        at: now,
        operationId,
      },
      { venueId, subjectType: 'entry', subjectId: offer.entryId, from: 'offered', to: 'confirmed', at: now, operationId },
    );
    const confirmed =
      reservation.state === 'HELD'
        ? {
            ...reservation,
            state: 'CONFIRMED' as const,
            updatedAt: now,
            confirmedAt: reservation.confirmedAt ?? now,
            stateReason: null,
          }
        : reservation;
    const result = {
      offer: toOfferView({ ...offer, state: 'accepted', resolvedAt: now }, found.tableIds),
      reservation: toReservationView(confirmed, found.tableIds),
    };
    // The three moves (each read above under this lock), their history and the answer travel with
    // the board event: one statement, sent with the COMMIT. Nothing here catches its error.
    await this.board.appendAtCommit(
      tx,
      venueId,
      'offer.accepted',
      {
        offerId: offer.id,
        entryId: offer.entryId,
        reservationId: offer.reservationId,
        by,
        name: reservation.name,
        partySize: reservation.partySize,
        tableIds: found.tableIds,
      },
      now,
      [
        this.offers.endStatement(offer.id, 'accepted', now),
        this.reservations.transitionStatement(offer.reservationId, ['HELD'], 'CONFIRMED', now),
        this.entries.transitionStatement(offer.entryId, ['offered'], 'confirmed'),
        history,
        ...(tx.answerRow?.(result) ?? []),
      ],
    );
    return result;
  }

  /**
   * A host withdraws a live offer: the hold is released and the entry goes where the policy says.
   * Lapsed holds are swept first (under the lock), so an offer that ran out is recorded as expired, not withdrawn.
   */
  async withdraw(venueId: string, offerId: string): Promise<{ offer: OfferView }> {
    return this.tx.command({ venueId, keyLockedByCommand: true }, async (tx) => {
      const m = tx.manager;
      // The offer and its tables, with the sweep's question, in the lock's own write (issue 18). The
      // tables are read before the hold ends (ending it releases them), so the answer still says
      // which tables the withdrawn offer held.
      // Its reservation and entry too: read under the lock, they tell which of the ending's guarded
      // steps apply, so its rows can travel with the COMMIT.
      const locked = await this.venues.lockThenRead(m, venueId, tx.keyLock, {
        offer: this.offers.findRead(m, venueId, offerId),
        tableIds: this.offers.tableIdsRead(offerId),
        reservation: this.offers.reservationRead(m, venueId, offerId),
        entry: this.offers.entryRead(m, venueId, offerId),
        laterLive: this.offers.laterLiveRead(venueId, offerId),
        ...this.sweep.dueAfterLockReads(venueId),
      });
      const venue = locked.venue;
      const now = this.clock.now(venue);
      // Lapsed holds are swept first, in a transaction of their own (an offer that ran out is recorded
      // as expired, not withdrawn), and the withdrawal then runs again (SweepService.sweepThenDecide).
      return this.sweep.sweepThenDecide(tx, venue, now, locked.found, () => this.withdrawn(tx, venue, now, locked.found));
    });
  }

  private async withdrawn(
    tx: Tx,
    venue: Venue,
    now: Date,
    {
      offer,
      tableIds,
      reservation,
      entry,
      laterLive,
    }: { offer: Offer | null; tableIds: string[]; reservation: Reservation | null; entry: QueueEntry | null; laterLive: boolean },
  ): Promise<{ offer: OfferView }> {
    if (!offer) throw DomainException.notFound('The offer was not found.');
    if (offer.state === 'expired') throw offerExpired(venue.seating);
    // A hold due at this instant has lapsed too: expire it, not withdraw it (the sweep before the
    // decision expires it first; this stays as the decision's own guard).
    if (offer.state === 'live' && !(now.getTime() < offer.expiresAt.getTime())) {
      await this.lifecycle.end(tx, venue, offer, 'expired', now, expiryOperationId(offer.id));
      throw new CommitThenRefuse(offerExpired(venue.seating));
    }
    if (offer.state !== 'live') throw offerNotOpen(venue.seating);
    // Read live under this lock: the ending's rows and the answer go with the COMMIT.
    const result = { offer: toOfferView({ ...offer, state: 'withdrawn', resolvedAt: now }, tableIds) };
    const read = { offer, reservation, entry, laterLive };
    await this.lifecycle.endReadAtCommit(tx, venue, read, 'withdrawn', now, `withdraw-offer-${offer.id}`, undefined, result);
    return result;
  }
}
