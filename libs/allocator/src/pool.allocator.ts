import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DomainException, ErrorCode, type PendingInsert } from '@hostboard/core';
import type { Venue } from '@hostboard/venue';
import { Reservation } from './reservation.entity.js';
import { ReservationRepository } from './reservation.repository.js';

export interface PoolCounts {
  capacity: number;
  confirmed: number;
  held: number;
  available: number;
}

export interface Party {
  name: string;
  partySize: number;
  email: string | null;
  phone: string | null;
  entryId: string | null;
}

/**
 * The only code that decides seats in a pool. It counts people, not rows. The caller holds the venue
 * row lock, so the counts it reads are the counts it writes against; the database backs it anyway:
 * a trigger keeps the venue's pool counters and a check refuses confirmed + held > capacity.
 */
@Injectable()
export class PoolAllocator {
  constructor(private readonly reservations: ReservationRepository) {}

  counts(venue: Pick<Venue, 'poolCapacity' | 'poolConfirmed' | 'poolHeld'>): PoolCounts {
    const capacity = venue.poolCapacity ?? 0;
    return {
      capacity,
      confirmed: venue.poolConfirmed,
      held: venue.poolHeld,
      available: capacity - venue.poolConfirmed - venue.poolHeld,
    };
  }

  fits(venue: Venue, partySize: number): boolean {
    return partySize <= this.counts(venue).available;
  }

  /** A confirmed registration counting against the pool. */
  async register(tx: EntityManager, venue: Venue, party: Party, now: Date): Promise<Reservation> {
    return this.create(tx, venue, party, 'CONFIRMED', now, null);
  }

  /**
   * Reserves the whole party as HELD until `expiresAt` (exclusive), for a command that writes its new
   * rows in one statement: the reservation, answered with its row to travel with the command's others (insertTogether; the pool
   * trigger and the venue's check apply to it there as to an insert of its own).
   */
  holdRow(venue: Venue, party: Party, now: Date, expiresAt: Date): { reservation: Reservation; row: PendingInsert<Reservation> } {
    const reservation = this.reservationFor(venue, party, 'HELD', now, expiresAt);
    return { reservation, row: { target: Reservation, rows: [reservation] } };
  }

  private async create(
    tx: EntityManager,
    venue: Venue,
    party: Party,
    state: 'HELD' | 'CONFIRMED',
    now: Date,
    expiresAt: Date | null,
  ): Promise<Reservation> {
    const r = this.reservationFor(venue, party, state, now, expiresAt);
    await this.reservations.insert(tx, r);
    return r;
  }

  /**
   * The new reservation, refused when the party does not fit; the in-memory venue follows it as the
   * trigger will once it is written, for later decisions in this transaction.
   */
  private reservationFor(
    venue: Venue,
    party: Party,
    state: 'HELD' | 'CONFIRMED',
    now: Date,
    expiresAt: Date | null,
  ): Reservation {
    const { available } = this.counts(venue);
    if (party.partySize > available) {
      throw new DomainException(
        ErrorCode.CONFLICT,
        available === 0
          ? `All ${venue.poolCapacity} seats are taken.`
          : `Only ${available} of ${venue.poolCapacity} seats ${available === 1 ? 'is' : 'are'} available.`,
        {
          available,
          needed: party.partySize,
        },
      );
    }
    const r: Reservation = {
      id: randomUUID(),
      venueId: venue.id,
      entryId: party.entryId,
      kind: 'pool',
      name: party.name,
      partySize: party.partySize,
      email: party.email,
      phone: party.phone,
      state,
      holdExpiresAt: expiresAt,
      stateReason: null,
      termsVersion: venue.termsVersion,
      bookingLinkHash: null,
      createdAt: now,
      updatedAt: now,
      confirmedAt: state === 'CONFIRMED' ? now : null,
    };
    // Keep the in-memory venue in step with what the trigger writes, for later decisions in this transaction.
    if (state === 'HELD') venue.poolHeld += party.partySize;
    else venue.poolConfirmed += party.partySize;
    return r;
  }
}
