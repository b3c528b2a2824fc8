import { Injectable } from '@nestjs/common';
import { DomainException, HistoryWriter, TransactionRunner, type Tx } from '@hostboard/core';
import { ReservationRepository, toReservationView, type ReservationView } from '@hostboard/allocator';
import { BoardEventWriter } from '@hostboard/board';
import { GuestMessenger, type GuestParty } from '@hostboard/outbox';
import { QueueEntryRepository, toEntryView, type EntryView } from '@hostboard/queue';
import { VenueClock, VenueRepository, type Venue } from '@hostboard/venue';
import { OfferRepository } from '../offers/offer.repository.js';
import { OfferLifecycle } from './offer-lifecycle.js';

/**
 * Cancellations. A waiting entry leaves the queue and releases nothing; a held or confirmed
 * reservation releases its seats once. A repeat, with the same or a new Idempotency-Key, finds the
 * state already changed and returns it as it is (the guards make it change nothing).
 */
@Injectable()
export class CancellationService {
  constructor(
    private readonly tx: TransactionRunner,
    private readonly venues: VenueRepository,
    private readonly clock: VenueClock,
    private readonly entries: QueueEntryRepository,
    private readonly reservations: ReservationRepository,
    private readonly offers: OfferRepository,
    private readonly lifecycle: OfferLifecycle,
    private readonly history: HistoryWriter,
    private readonly board: BoardEventWriter,
    private readonly guest: GuestMessenger,
  ) {}

  async cancelEntry(venueId: string, entryId: string, onlyEntryId?: string): Promise<{ entry: EntryView }> {
    return this.tx.command({}, async (tx) => {
      const venue = await this.venues.lock(tx.manager, venueId);
      const entry = await this.entries.find(tx.manager, venueId, entryId);
      if (!entry || (onlyEntryId !== undefined && entry.id !== onlyEntryId))
        throw DomainException.notFound('The queue entry was not found.');
      const now = this.clock.now(venue);
      const operationId = `cancel-entry-${entry.id}`;
      if (entry.status === 'offered') {
        const offer = await this.offers.liveForEntry(tx.manager, entry.id);
        if (offer) await this.lifecycle.end(tx, venue, offer, 'cancelled', now, operationId);
      } else if (entry.status === 'waiting') {
        if (await this.entries.transition(tx.manager, entry.id, ['waiting'], 'cancelled')) {
          await this.history.append(tx.manager, {
            venueId,
            subjectType: 'entry',
            subjectId: entry.id,
            from: 'waiting',
            to: 'cancelled',
            at: now,
            operationId,
          });
          await this.board.append(tx, venueId, 'entry.cancelled', { entryId: entry.id }, now);
          await this.confirmLeft(tx, venue, entry, now);
        }
      }
      const current = await this.entries.find(tx.manager, venueId, entry.id);
      return { entry: toEntryView(current ?? entry) };
    });
  }

  async cancelReservation(venueId: string, reservationId: string): Promise<{ reservation: ReservationView }> {
    return this.tx.command({}, async (tx) => {
      const venue = await this.venues.lock(tx.manager, venueId);
      const reservation = await this.reservations.find(tx.manager, venueId, reservationId);
      if (!reservation) throw DomainException.notFound('The reservation was not found.');
      const now = this.clock.now(venue);
      await this.release(tx, venue, reservation.id, reservation.state, now);
      const current = await this.reservations.find(tx.manager, venueId, reservation.id);
      return { reservation: toReservationView(current ?? reservation) };
    });
  }

  /** The party's confirmation that it left the queue (table venues, whose parties hear from the venue). */
  private async confirmLeft(tx: Tx, venue: Venue, entry: GuestParty, now: Date, reservationId?: string): Promise<void> {
    if (venue.seating !== 'tables') return;
    await this.guest.announce(tx.manager, {
      venue,
      party: entry,
      kind: 'queue-left',
      placeKept: false,
      at: now,
      reservationId: reservationId ?? null,
    });
  }

  private async release(tx: Tx, venue: Venue, reservationId: string, state: string, now: Date): Promise<void> {
    const operationId = `cancel-reservation-${reservationId}`;
    if (state === 'HELD') {
      const offer = (await this.offers.live(tx.manager, venue.id)).find((o) => o.reservationId === reservationId);
      if (offer) {
        await this.lifecycle.end(tx, venue, offer, 'cancelled', now, operationId);
        return;
      }
    }
    if (state !== 'HELD' && state !== 'CONFIRMED') return;
    if (!(await this.reservations.transition(tx.manager, reservationId, ['HELD', 'CONFIRMED'], 'CANCELLED', now, 'cancelled')))
      return;
    await this.history.append(tx.manager, {
      venueId: venue.id,
      subjectType: 'reservation',
      subjectId: reservationId,
      from: state,
      to: 'CANCELLED',
      at: now,
      operationId,
    });
    const entryId = (await this.reservations.find(tx.manager, venue.id, reservationId))?.entryId;
    if (entryId && (await this.entries.transition(tx.manager, entryId, ['confirmed'], 'cancelled'))) {
      await this.history.append(tx.manager, {
        venueId: venue.id,
        subjectType: 'entry',
        subjectId: entryId,
        from: 'confirmed',
        to: 'cancelled',
        at: now,
        operationId,
      });
      const entry = await this.entries.find(tx.manager, venue.id, entryId);
      if (entry) await this.confirmLeft(tx, venue, entry, now, reservationId);
    }
    await this.venues.refreshPoolCounts(tx.manager, venue);
    await this.board.append(tx, venue.id, 'reservation.cancelled', { reservationId, entryId: entryId ?? null }, now);
  }
}
