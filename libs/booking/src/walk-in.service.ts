import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DomainException, ErrorCode, HistoryWriter, TransactionRunner, type Tx } from '@hostboard/core';
import { ReservationRepository, tableTaken, toReservationView, Visit, type ReservationView } from '@hostboard/allocator';
import { BoardEventWriter } from '@hostboard/board';
import { SweepService } from '@hostboard/offer';
import { VenueClock, VenueRepository, type Venue, type VenueTable } from '@hostboard/venue';
import { BookingService, type TurnParty } from './booking.service.js';
import { toVisitView, type VisitView } from './seating.service.js';

export interface WalkInInput {
  tableIds: string[];
  partySize: number;
  name?: string;
}

export interface SeatedWalkIn {
  reservation: ReservationView;
  visit: VisitView;
}

/**
 * A party that walks in to a free table: booked from now for one turn and seated at once, in one
 * command (one transaction under the venue row lock, one Idempotency-Key, one board event). Booking
 * then seating as two requests left a half-done party (booked, not seated) when the second failed,
 * and a second tap then tried to book the table again and was refused.
 */
@Injectable()
export class WalkInService {
  constructor(
    private readonly tx: TransactionRunner,
    private readonly venues: VenueRepository,
    private readonly clock: VenueClock,
    private readonly reservations: ReservationRepository,
    private readonly bookings: BookingService,
    private readonly history: HistoryWriter,
    private readonly board: BoardEventWriter,
    private readonly sweep: SweepService,
  ) {}

  async seat(venueId: string, input: WalkInInput): Promise<SeatedWalkIn> {
    return this.tx.command<SeatedWalkIn>({ venueId, translate: tableTaken, keyLockedByCommand: true }, async (tx) => {
      // As a desk booking: a hold past its expiry is swept first (in a transaction of its own), so it
      // no longer keeps the table from this party.
      const locked = await this.venues.lockThenRead(tx.manager, venueId, tx.keyLock, this.sweep.dueAfterLockReads(venueId));
      const venue = locked.venue;
      const now = this.clock.now(venue);
      return this.sweep.sweepThenDecide(tx, venue, now, locked.found, () => this.seated(tx, venue, input, now));
    });
  }

  private async seated(tx: Tx, venue: Venue, input: WalkInInput, now: Date): Promise<SeatedWalkIn> {
    const venueId = venue.id;
    if (venue.seating !== 'tables')
      throw new DomainException(ErrorCode.RULE_VIOLATION, 'Walk-ins are seated at tables: this venue has a seat pool.');
    const typed = input.name?.trim();
    // Booked as the desk books from now (the same refusals, in the same order and words); the booking's
    // rows go now (the placements' trigger reads the reservation), and its seating, the visit, history,
    // the answer and the one board event travel together with the COMMIT. With no name typed, the
    // party is named from the tables' labels as the target check read them (no read of its own).
    const name: TurnParty['name'] = typed || ((tables) => `Walk-in at ${labels(tables)}`);
    const party: TurnParty = { name, partySize: input.partySize, email: null, phone: null, entryId: null };
    const r = await this.bookings.reserveTurn(tx, venue, party, input.tableIds, now, now);
    const tableIds = [...input.tableIds].sort();
    const visit: Visit = { id: randomUUID(), venueId, reservationId: r.id, openedAt: now, closedAt: null };
    const result: SeatedWalkIn = {
      reservation: toReservationView({ ...r, state: 'SEATED', updatedAt: now }, tableIds),
      visit: toVisitView(visit),
    };
    const subject = { venueId, subjectType: 'reservation' as const, subjectId: r.id, at: now };
    await this.board.appendAtCommit(
      tx,
      venueId,
      'reservation.seated',
      { reservationId: r.id, visitId: visit.id, tableIds, walkIn: true },
      now,
      [
        this.reservations.transitionStatement(r.id, ['CONFIRMED'], 'SEATED', now),
        { target: Visit, rows: [visit] },
        this.history.rows(
          { ...subject, from: null, to: 'CONFIRMED', operationId: `book-${r.id}` },
          { ...subject, from: 'CONFIRMED', to: 'SEATED', operationId: `seat-${r.id}` },
        ),
        ...(tx.answerRow?.(result) ?? []),
      ],
    );
    return result;
  }
}

/** "T2", or "T2 + T3" for a combination, in the order a host counts them. */
function labels(tables: ReadonlyArray<Pick<VenueTable, 'label'>>): string {
  return tables
    .map((t) => t.label)
    .sort((a, b) => a.localeCompare(b, undefined, { numeric: true }))
    .join(' + ');
}
