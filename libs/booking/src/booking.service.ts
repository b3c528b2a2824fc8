import { Injectable } from '@nestjs/common';
import { DomainException, ErrorCode, HistoryWriter, TransactionRunner } from '@hostboard/core';
import { hashSecret, newSecretToken } from '@hostboard/auth';
import { PoolAllocator, Reservation, ReservationRepository, toReservationView, type ReservationView } from '@hostboard/allocator';
import { BoardEventWriter } from '@hostboard/board';
import { normaliseContact } from '@hostboard/queue';
import { VenueClock, VenueRepository } from '@hostboard/venue';
import type { CreateReservationDto } from './http/create-reservation.dto.js';

export type CreatedBooking = ReservationView & { bookingLink: string | null };

/** Confirmed bookings: on a pool venue, a registration counting against the capacity. */
@Injectable()
export class BookingService {
  constructor(
    private readonly tx: TransactionRunner,
    private readonly venues: VenueRepository,
    private readonly clock: VenueClock,
    private readonly pool: PoolAllocator,
    private readonly reservations: ReservationRepository,
    private readonly history: HistoryWriter,
    private readonly board: BoardEventWriter,
  ) {}

  async create(venueId: string, input: CreateReservationDto): Promise<CreatedBooking> {
    const contact = normaliseContact(input.email, input.phone);
    const link = newSecretToken();
    return this.tx.command<CreatedBooking>({ storedAs: (r) => ({ ...r, bookingLink: null }) }, async (tx) => {
      const venue = await this.venues.lock(tx.manager, venueId);
      if (venue.seating !== 'pool') {
        throw new DomainException(
          ErrorCode.RULE_VIOLATION,
          'Table bookings (start and tableIds) are not available yet at this venue.',
        );
      }
      if (input.start !== undefined || input.tableIds !== undefined) {
        throw DomainException.validation('start and tableIds apply to table venues only.');
      }
      if (input.partySize > (venue.poolCapacity ?? 0)) {
        throw DomainException.validation(`The party size must be a whole number from 1 to ${venue.poolCapacity}.`, {
          field: 'partySize',
        });
      }
      const now = this.clock.now(venue);
      const r: Reservation = await this.pool.register(
        tx.manager,
        venue,
        { name: input.name, partySize: input.partySize, email: contact.email, phone: contact.phone, entryId: null },
        now,
      );
      await tx.manager.update(Reservation, { id: r.id }, { bookingLinkHash: hashSecret(link) });
      await this.history.append(tx.manager, {
        venueId,
        subjectType: 'reservation',
        subjectId: r.id,
        from: null,
        to: 'CONFIRMED',
        at: now,
        operationId: `book-${r.id}`,
      });
      await this.board.append(tx, venueId, 'reservation.created', { reservationId: r.id, state: r.state }, now);
      return { ...toReservationView(r), bookingLink: link };
    });
  }

  async list(venueId: string): Promise<ReservationView[]> {
    return this.tx.run(async ({ manager }) => (await this.reservations.list(manager, venueId)).map((r) => toReservationView(r)));
  }
}
