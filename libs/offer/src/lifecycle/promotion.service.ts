import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DomainException, ErrorCode, HistoryWriter, TransactionRunner, type Tx } from '@hostboard/core';
import { headDoesNotFit, nobodyWaiting, PoolAllocator, toReservationView, type ReservationView } from '@hostboard/allocator';
import { BoardEventWriter } from '@hostboard/board';
import { QueueEntryRepository, type QueueEntry } from '@hostboard/queue';
import { VenueClock, VenueRepository, type Venue } from '@hostboard/venue';
import type { Offer } from '../offers/offer.entity.js';
import { OfferRepository } from '../offers/offer.repository.js';
import { toOfferView, type OfferView } from '../offers/offer.view.js';
import { SweepService } from './sweep.service.js';
import { OfferExpiryScheduler } from '../jobs/offer-expiry.scheduler.js';

export type PromotionResult = { offer: OfferView; reservation: ReservationView } | { offer: null; reason: string };

/** Why the oldest waiting group cannot be promoted now, or null when it can. */
export function headBlockedReason(head: QueueEntry | null, available: number): string | null {
  if (!head) return 'The queue is empty.';
  return head.partySize > available ? headDoesNotFit(available, head.partySize) : null;
}

/**
 * The head a pool queue shows (API.md: it "explains the next promotion"): under strict order the
 * oldest waiting group, with why it cannot go yet; under first fit the oldest group that fits, which
 * is who the next promotion holds seats for, else the oldest group with the same reason the
 * promotion gives. `firstFit` is the oldest waiting group of at most `available` people.
 */
export function poolHead(
  strict: boolean,
  oldest: QueueEntry | null,
  firstFit: QueueEntry | null,
  available: number,
): { entryId: string; fits: boolean; reason: string | null } | null {
  if (!oldest) return null;
  if (!strict && firstFit) return { entryId: firstFit.id, fits: true, reason: null };
  const reason = headBlockedReason(oldest, available);
  return { entryId: oldest.id, fits: reason === null, reason };
}

/**
 * Pool promotion: hold seats for the next group. Strict order promotes only the oldest waiting
 * group and stops when it cannot fit (it is never skipped); a first-fit policy promotes the oldest
 * group that fits. Decided under the venue row lock, after a committed sweep when one was due
 * (SweepService.sweepThenDecide).
 */
@Injectable()
export class PromotionService {
  constructor(
    private readonly tx: TransactionRunner,
    private readonly venues: VenueRepository,
    private readonly clock: VenueClock,
    private readonly entries: QueueEntryRepository,
    private readonly offers: OfferRepository,
    private readonly pool: PoolAllocator,
    private readonly history: HistoryWriter,
    private readonly board: BoardEventWriter,
    private readonly sweep: SweepService,
    private readonly expiryJobs: OfferExpiryScheduler,
  ) {}

  async promote(venueId: string): Promise<PromotionResult> {
    return this.tx.command<PromotionResult>(
      { venueId, status: (r) => (r.offer ? 201 : 200), keyLockedByCommand: true },
      async (tx) => {
        const m = tx.manager;
        // The oldest waiting group, with the sweep's question, in the lock's own write (issue 18), as
        // a statement of its own after it.
        const locked = await this.venues.lockThenRead(m, venueId, tx.keyLock, {
          head: this.entries.oldestWaitingRead(m, venueId),
          ...this.sweep.dueAfterLockReads(venueId),
        });
        const venue = locked.venue;
        if (venue.seating !== 'pool') {
          throw new DomainException(
            ErrorCode.RULE_VIOLATION,
            'Promotions are for pool venues; offer tables to a chosen entry instead.',
          );
        }
        const now = this.clock.now(venue);
        // A hold that lapsed returns its seats (the sweep keeps the venue's counters) and its group to
        // the queue in a transaction of its own, and the promotion then runs again, reading the venue
        // and the head afresh (SweepService.sweepThenDecide).
        return this.sweep.sweepThenDecide(tx, venue, now, locked.found, () => this.promoted(tx, venue, now, locked.found.head));
      },
    );
  }

  private async promoted(tx: Tx, venue: Venue, now: Date, head: QueueEntry | null): Promise<PromotionResult> {
    const venueId = venue.id;
    const { available } = this.pool.counts(venue);
    const strict = venue.queueOrder === 'strict';
    // Nobody waits: say so, and how many groups hold seats (not "the queue is empty" above a queue
    // that lists them).
    if (!head) return { offer: null, reason: nobodyWaiting(await this.entries.countOffered(tx.manager, venueId)) };
    // First fit: the oldest waiting group of at most `available` people, which is the head when it fits.
    const candidate =
      strict || head.partySize <= available ? head : await this.entries.oldestWaiting(tx.manager, venue.id, available);
    if (!candidate) return { offer: null, reason: headBlockedReason(head, available) ?? 'No waiting group fits.' };
    const blocked = strict ? headBlockedReason(head, available) : null;
    if (blocked) return { offer: null, reason: blocked };

    const expiresAt = new Date(now.getTime() + venue.holdSeconds * 1000);
    const party = {
      name: candidate.name,
      partySize: candidate.partySize,
      email: candidate.email,
      phone: candidate.phone,
      entryId: candidate.id,
    };
    const { reservation, row } = this.pool.holdRow(venue, party, now, expiresAt);
    const offer: Offer = {
      id: randomUUID(),
      venueId,
      entryId: candidate.id,
      reservationId: reservation.id,
      state: 'live',
      expiresAt,
      createdAt: now,
      resolvedAt: null,
    };
    this.expiryJobs.afterCommit(tx, venue, { schedule: offer });
    const operationId = `promote-offer-${offer.id}`;
    const result = { offer: toOfferView(offer), reservation: toReservationView(reservation) };
    // Every check is behind us. The hold (the pool trigger and the venue's capacity check apply to it
    // in this statement too), the offer, the entry's move (read waiting under this lock), history and
    // the answer travel with the board event, in the order they were written one by one: one
    // statement, sent with the COMMIT. Nothing here catches its error (the commit's).
    await this.board.appendAtCommit(
      tx,
      venueId,
      'offer.created',
      { offerId: offer.id, entryId: candidate.id, reservationId: reservation.id, expiresAt: expiresAt.toISOString() },
      now,
      [
        row,
        this.offers.insertRow(offer),
        this.entries.transitionStatement(candidate.id, ['waiting'], 'offered'),
        this.history.rows(
          { venueId, subjectType: 'entry', subjectId: candidate.id, from: 'waiting', to: 'offered', at: now, operationId },
          { venueId, subjectType: 'reservation', subjectId: reservation.id, from: null, to: 'HELD', at: now, operationId },
          { venueId, subjectType: 'offer', subjectId: offer.id, from: null, to: 'live', at: now, operationId },
        ),
        ...(tx.answerRow?.(result) ?? []),
      ],
    );
    return result;
  }
}
