import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  Clock,
  DomainException,
  ErrorCode,
  HistoryWriter,
  readTogether,
  TransactionRunner,
  type PendingInsert,
  type TogetherStatement,
  type Tx,
} from '@hostboard/core';
import {
  checkFree,
  checkNotOccupied,
  checkTarget,
  placementsReadAt,
  TableAllocator,
  tableTaken,
  toReservationView,
  type ReservationView,
  type TablePlacement,
  type TargetFacts,
} from '@hostboard/allocator';
import { BoardEventWriter } from '@hostboard/board';
import { OutboxWriter } from '@hostboard/outbox';
import { QueueEntryRepository, type QueueEntry } from '@hostboard/queue';
import { RunningWindowFinder, VenueClock, VenueRepository, type RunningServiceWindow, type Venue } from '@hostboard/venue';
import type { Offer } from '../offers/offer.entity.js';
import { OfferRepository } from '../offers/offer.repository.js';
import { toOfferView, type OfferView } from '../offers/offer.view.js';
import { OfferExpiryScheduler } from '../jobs/offer-expiry.scheduler.js';
import { OFFER_NOT_OPEN } from './acceptance.service.js';
import { SweepService } from './sweep.service.js';
import { TableReadyMessages } from './table-ready.messages.js';

export const SKIPS_HEAD = 'This queue is in strict order: offer a table to the oldest waiting party first (details.headEntryId).';

export interface TableOfferInput {
  entryId: string;
  entryVersion: number;
  tableIds: string[];
}

/**
 * A host offers real tables to a waiting party: one HELD reservation through the table allocator,
 * one live offer, the entry's new state, history and the table-ready email, in one transaction,
 * after a sweep committed on its own when anything was due. The refusals name what is in the way.
 */
@Injectable()
export class TableOfferService {
  constructor(
    private readonly tx: TransactionRunner,
    private readonly venues: VenueRepository,
    private readonly clock: VenueClock,
    private readonly windows: RunningWindowFinder,
    private readonly entries: QueueEntryRepository,
    private readonly offers: OfferRepository,
    private readonly tables: TableAllocator,
    private readonly history: HistoryWriter,
    private readonly board: BoardEventWriter,
    private readonly outbox: OutboxWriter,
    private readonly ready: TableReadyMessages,
    private readonly sweep: SweepService,
    private readonly expiryJobs: OfferExpiryScheduler,
    private readonly wallClock: Clock,
  ) {}

  async offer(venueId: string, input: TableOfferInput): Promise<{ offer: OfferView; reservation: ReservationView }> {
    return this.tx.command({ venueId, translate: tableTaken, keyLockedByCommand: true }, async (tx) => {
      const m = tx.manager;
      // Everything the checks need in one read after the lock (issue 18), sent in the lock's own write
      // as a statement of its own after it (so it sees everything committed before the lock was
      // granted), with the sweep's question. Its parameters are known before the venue is read: the
      // running window is found from the venue's windows once its now is known, the head of the queue
      // is read whatever the venue's order, and the placements from the instant the read ran at.
      const wallNow = this.wallClock.now();
      const reads = (from: Date) => ({
        entry: this.entries.findRead(m, venueId, input.entryId),
        head: this.entries.headOfEntryDayRead(venueId, input.entryId),
        target: this.tables.targetRead(venueId, input.tableIds),
        placements: this.tables.placementsFromVenueNowRead(venueId, input.tableIds, from),
      });
      const locked = await this.venues.lockThenRead(m, venueId, tx.keyLock, {
        ...reads(wallNow),
        ...this.sweep.dueAfterLockReads(venueId),
      });
      const venue = locked.venue;
      if (venue.seating !== 'tables') {
        throw new DomainException(ErrorCode.RULE_VIOLATION, 'This venue seats from one pool: promote the oldest group instead.');
      }
      const now = this.clock.now(venue);
      // Lapsed holds and ended days are swept first, in a transaction of their own, and the offer then
      // runs again (SweepService.sweepThenDecide); the placements are read again if they were read from
      // later than now (a wall clock set back).
      const readAt = placementsReadAt(venue, wallNow);
      return this.sweep.sweepThenDecide(tx, venue, now, locked.found, async () => {
        const found =
          readAt.getTime() > now.getTime() ? { ...locked.found, ...(await readTogether(m, reads(now))) } : locked.found;
        return this.offered(tx, venue, now, input, { ...found, running: this.windows.runningIn(found.windows, venue, now) });
      });
    });
  }

  private async offered(
    tx: Tx,
    venue: Venue,
    now: Date,
    input: TableOfferInput,
    found: {
      entry: QueueEntry | null;
      running: RunningServiceWindow | null;
      head: string | null;
      target: TargetFacts;
      placements: TablePlacement[];
      /** The earliest deadline of the venue's live holds, read under this lock (none is due: the sweep came first). */
      deadline: Date | null;
    },
  ): Promise<{ offer: OfferView; reservation: ReservationView }> {
    const m = tx.manager;
    const venueId = venue.id;
    const entry = found.entry;
    if (!entry) throw DomainException.notFound('The queue entry was not found.');
    if (entry.version !== input.entryVersion) {
      throw new DomainException(ErrorCode.WAITLIST_STALE, 'The entry changed since you read it; reload the queue and retry.', {
        currentVersion: entry.version,
      });
    }
    if (entry.status !== 'waiting')
      throw new DomainException(ErrorCode.WAITLIST_OFFER_CONFLICT, OFFER_NOT_OPEN, { status: entry.status });
    const window = found.running;
    if (!window) throw new DomainException(ErrorCode.RULE_VIOLATION, 'No service window is running now.');
    if (window.businessDate !== entry.businessDate)
      throw new DomainException(ErrorCode.RULE_VIOLATION, 'This entry is not in today’s queue.');
    // Strict order on tables: only the head of the day's queue (its oldest waiting party) may be
    // offered; a party holding a live offer is not waiting, so the next one is the head.
    if (venue.queueOrder === 'strict' && found.head && found.head !== entry.id) {
      throw new DomainException(ErrorCode.RULE_VIOLATION, SKIPS_HEAD, { headEntryId: found.head });
    }
    if (window.window.depositRequired) {
      throw new DomainException(
        ErrorCode.PAID_BOOKING_UNAVAILABLE,
        'This service requires a deposit; no free hold during the pilot. Offer a free-service table instead.',
      );
    }
    checkTarget(found.target, input.tableIds, entry.partySize);
    const slot = { start: now, end: new Date(now.getTime() + window.window.turnMinutes * 60_000) };
    checkNotOccupied(found.placements);
    checkFree(found.placements, slot.start, slot.end, now);

    const expiresAt = new Date(now.getTime() + venue.holdSeconds * 1000);
    const party = { name: entry.name, partySize: entry.partySize, email: entry.email, phone: entry.phone, entryId: entry.id };
    // The reservation is its own statement, held to go with the others and the COMMIT in one write;
    // its table placements travel with the other rows.
    const { reservation, placements } = await this.tables.reserveThenPlace(
      m,
      venue,
      party,
      input.tableIds,
      slot,
      'HELD',
      now,
      expiresAt,
    );
    const offer: Offer = {
      id: randomUUID(),
      venueId,
      entryId: entry.id,
      reservationId: reservation.id,
      state: 'live',
      expiresAt,
      createdAt: now,
      resolvedAt: null,
    };
    const operationId = `offer-${offer.id}`;
    // The placements, the entry's move (it was read waiting under this lock), the offer, its history
    // and the email travel with the board event: one statement for all of them.
    const rows: Array<PendingInsert | TogetherStatement> = [
      placements,
      this.entries.transitionStatement(entry.id, ['waiting'], 'offered'),
      this.offers.insertRow(offer),
      this.history.rows(
        { venueId, subjectType: 'entry', subjectId: entry.id, from: 'waiting', to: 'offered', at: now, operationId },
        { venueId, subjectType: 'reservation', subjectId: reservation.id, from: null, to: 'HELD', at: now, operationId },
        { venueId, subjectType: 'offer', subjectId: offer.id, from: null, to: 'live', at: now, operationId },
      ),
    ];
    // "Your table is ready", on each channel the party gave, with the other rows.
    const ready = this.ready.build({
      venue,
      party: entry,
      reservationId: reservation.id,
      expiresAt,
      holdSeconds: venue.holdSeconds,
      at: now,
    });
    if (ready.length > 0) rows.push(this.outbox.rows(ready));
    const result = { offer: toOfferView(offer, input.tableIds), reservation: toReservationView(reservation, input.tableIds) };
    // The answer travels with the rows (every check is behind us), and the last statement with the
    // COMMIT, after the reservation's: one write for the three. Nothing here catches its error, which
    // goes to the command's translate (a table taken meanwhile) or the key's replay.
    rows.push(...(tx.answerRow?.(result) ?? []));
    await this.board.appendAtCommit(
      tx,
      venueId,
      'offer.created',
      {
        offerId: offer.id,
        entryId: entry.id,
        reservationId: reservation.id,
        tableIds: input.tableIds,
        expiresAt: expiresAt.toISOString(),
      },
      now,
      rows,
    );
    // A hold of this venue due no later than this one has its expiry job (or the job of one before it),
    // whose run schedules the job of the venue's next live hold: this offer needs none of its own
    // (OfferExpiryHandlers; issue 18: the job's add, Redis's script and the worker's wake cost about
    // 2 ms of CPU per offer).
    if (found.deadline === null || found.deadline.getTime() > expiresAt.getTime())
      this.expiryJobs.afterCommit(tx, venue, { schedule: offer });
    return result;
  }
}
