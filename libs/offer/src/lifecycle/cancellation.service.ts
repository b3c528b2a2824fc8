import { Injectable } from '@nestjs/common';
import {
  DomainException,
  ErrorCode,
  HistoryWriter,
  insertTogetherAtCommit,
  TransactionRunner,
  type HistoryChange,
  type PendingInsert,
  type TogetherStatement,
  type Tx,
} from '@hostboard/core';
import {
  ReservationRepository,
  TableAllocator,
  toReservationView,
  type Reservation,
  type ReservationView,
} from '@hostboard/allocator';
import { BoardEventWriter } from '@hostboard/board';
import { GuestMessenger, type GuestParty } from '@hostboard/outbox';
import { EntryCredentials, QueueEntryRepository, toEntryView, type EntryView, type QueueEntry } from '@hostboard/queue';
import { VenueClock, VenueRepository, type Venue } from '@hostboard/venue';
import type { Offer } from '../offers/offer.entity.js';
import { OfferRepository } from '../offers/offer.repository.js';
import { OfferLifecycle } from './offer-lifecycle.js';
import { SweepService } from './sweep.service.js';

export const ALREADY_SEATED = 'The party is already seated; there is no queue place or booking to leave.';

export interface CancelledEntry {
  entry: EntryView;
  /**
   * Present when this call also cancelled the party's confirmed booking (an entry that had accepted
   * its offer): the booking, now CANCELLED, whose tables were released.
   */
  cancelledBooking?: ReservationView;
}

/** `released`: this request cancelled the reservation and freed its seats or tables (see cancelReservation). */
export interface CancelledReservation {
  reservation: ReservationView;
  released: boolean;
}

/**
 * Cancellations. A waiting entry leaves the queue and releases nothing; a held or confirmed
 * reservation releases its seats once. A repeat, with the same or a new Idempotency-Key, finds the
 * state already changed and returns it as it is (the guards make it change nothing). A cancelled
 * entry's queue token and sessions stop working in the same transaction. Lapsed holds are swept
 * first (when any is due under the venue lock, in a transaction of their own), so an offer that ran out
 * before the cancellation is recorded as expired, not cancelled. Every outcome is decided on rows
 * read under the venue lock, so its writes (or, when nothing changes, the answer alone) travel with
 * the COMMIT: the same for states no command leaves (a hold with no live offer, a confirmed party
 * whose booking is not CONFIRMED; test/e2e/cancel-unusual-states), which a hand repair, a restore or
 * a bug elsewhere could leave.
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
    private readonly sweep: SweepService,
    private readonly credentials: EntryCredentials,
    private readonly guest: GuestMessenger,
    private readonly tables: TableAllocator,
  ) {}

  /**
   * An entry leaves the queue. Waiting: it is cancelled. Holding a live offer: the hold is released.
   * Confirmed (it accepted its offer): its booking is cancelled too, tables released once, and the
   * answer says so (`cancelledBooking`). Seated: the party asking is refused (there is nothing to
   * leave); staff get the entry unchanged.
   */
  async cancelEntry(venueId: string, entryId: string, onlyEntryId?: string): Promise<CancelledEntry> {
    return this.tx.command({ venueId, keyLockedByCommand: true }, async (tx) => {
      const m = tx.manager;
      // The entry and the offer it holds or accepted, with the sweep's question, in the lock's own
      // write (issue 18), as a statement of its own after it.
      // The live offer's reservation too: it tells which of the ending's guarded steps apply.
      const locked = await this.venues.lockThenRead(m, venueId, tx.keyLock, {
        entry: this.entries.findRead(m, venueId, entryId),
        live: this.offers.liveForEntryRead(m, venueId, entryId),
        held: this.offers.liveReservationForEntryRead(m, venueId, entryId),
        accepted: this.offers.acceptedForEntryRead(m, venueId, entryId),
        booking: this.offers.acceptedReservationForEntryRead(m, venueId, entryId),
        // Its tables, for the answer: a removed party's booking names the tables it freed.
        bookingTables: this.offers.acceptedTablesForEntryRead(venueId, entryId),
        laterLive: this.offers.laterLiveForEntryRead(venueId, entryId),
        ...this.sweep.dueAfterLockReads(venueId),
      });
      const venue = locked.venue;
      const now = this.clock.now(venue);
      // Lapsed holds are swept first, in a transaction of their own (an offer that ran out is recorded
      // as expired, not cancelled), and the cancellation then runs again (SweepService.sweepThenDecide).
      return this.sweep.sweepThenDecide(tx, venue, now, locked.found, () =>
        this.entryCancelled(tx, venue, now, locked.found, onlyEntryId),
      );
    });
  }

  private async entryCancelled(
    tx: Tx,
    venue: Venue,
    now: Date,
    found: {
      entry: QueueEntry | null;
      live: Offer | null;
      held: Reservation | null;
      accepted: Offer | null;
      booking: Reservation | null;
      bookingTables: Map<string, string[]>;
      laterLive: boolean;
    },
    onlyEntryId: string | undefined,
  ): Promise<CancelledEntry> {
    const venueId = venue.id;
    const entry = found.entry;
    if (!entry || (onlyEntryId !== undefined && entry.id !== onlyEntryId))
      throw DomainException.notFound('The queue entry was not found.');
    const operationId = `cancel-entry-${entry.id}`;
    // The board says "… left the queue from their phone" when the party itself left.
    const by = onlyEntryId !== undefined ? 'party' : 'staff';
    if (entry.status === 'seated' && onlyEntryId !== undefined) {
      throw new DomainException(ErrorCode.RULE_VIOLATION, ALREADY_SEATED);
    }
    if (entry.status === 'confirmed' && found.accepted) {
      // The booking the party accepted, read under this lock (a second read only if the lock's read
      // found another: an entry with two accepted offers).
      const accepted = found.accepted;
      const booking =
        found.booking?.id === accepted.reservationId
          ? found.booking
          : await this.reservations.find(tx.manager, venueId, accepted.reservationId);
      if (booking?.state === 'CONFIRMED' || booking?.state === 'HELD') {
        // Every guarded step of the release is known: it travels with the COMMIT, the answer as the
        // guarded moves leave both. The party that follows is the one the booking names: this entry,
        // or (a booking repaired by hand) another, read now, or none; this entry then stays as it is.
        const named = booking.entryId;
        const party = named === entry.id ? entry : named ? await this.entries.find(tx.manager, venueId, named) : null;
        const tableIds =
          found.bookingTables.get(booking.id) ??
          (booking === found.booking ? [] : ((await this.tables.tableIdsOf(tx.manager, [booking.id])).get(booking.id) ?? []));
        const result = {
          entry: toEntryView(party === entry ? leftAs(entry) : entry),
          cancelledBooking: toReservationView(cancelledAt(booking, now), tableIds),
        };
        // The history says what the booking was (a HELD booking of a confirmed party, left so by a hand
        // repair or a restore, reads HELD → CANCELLED), as the reservation's own cancel writes it:
        // history records the row's real transition, not what a confirmed party's booking should be.
        await this.releaseAtCommit(tx, venue, booking, booking.state, party, now, operationId, by, result);
        return result;
      }
    } else if (entry.status === 'offered' && found.live) {
      // The entry, its live offer and its hold read under this lock: the ending, the revoked token
      // and sessions and the answer go with the COMMIT, the entry as the guarded move leaves it.
      const result = { entry: toEntryView(leftAs(entry)) };
      const read = { offer: found.live, reservation: found.held, entry, laterLive: found.laterLive };
      const revoke = this.credentials.revokeStatements(entry.id, now);
      await this.lifecycle.endReadAtCommit(tx, venue, read, 'cancelled', now, operationId, by, result, revoke);
      return result;
    } else if (entry.status === 'waiting') {
      // Read waiting under this lock: its move, history, message, revoked token and sessions and the
      // answer travel with the board event, sent with the COMMIT.
      const result = { entry: toEntryView(leftAs(entry)) };
      const change = {
        venueId,
        subjectType: 'entry',
        subjectId: entry.id,
        from: 'waiting',
        to: 'cancelled',
        at: now,
        operationId,
      };
      const left = this.leftRows(venue, entry, now, by);
      const rows: Array<PendingInsert | TogetherStatement> = [
        this.entries.transitionStatement(entry.id, ['waiting'], 'cancelled'),
        this.history.rows(change),
        ...(left ? [left] : []),
        ...this.credentials.revokeStatements(entry.id, now),
        ...(tx.answerRow?.(result) ?? []),
      ];
      await this.board.appendAtCommit(tx, venueId, 'entry.cancelled', { entryId: entry.id, by, name: entry.name }, now, rows);
      return result;
    }
    // Nothing to change (already ended, seated, a booking no longer held or confirmed): the entry as
    // read under this lock, the answer recorded with the COMMIT.
    return this.unchangedAtCommit(tx, { entry: toEntryView(entry) });
  }

  /**
   * `released`: this request cancelled the reservation and freed its seats or tables. False when it
   * was no longer held or confirmed (another device, or the party, cancelled it first; it expired):
   * the answer is its current state and nothing changed, so the board can say so.
   */
  async cancelReservation(venueId: string, reservationId: string): Promise<CancelledReservation> {
    return this.tx.command({ venueId, keyLockedByCommand: true }, async (tx) => {
      const m = tx.manager;
      // The reservation and the entry it came from, with the sweep's question, in the lock's own write
      // (issue 18).
      const locked = await this.venues.lockThenRead(m, venueId, tx.keyLock, {
        reservation: this.reservations.findRead(m, venueId, reservationId),
        entry: this.entries.ofReservationRead(m, venueId, reservationId),
        // Its tables, for the answer (released or not, a reservation names the tables it had).
        tableIds: this.tables.tableIdsOfRead(reservationId),
        // A hold: the live offer that holds it, and whether a later hold of the venue is live.
        live: this.offers.liveForReservationRead(m, venueId, reservationId),
        laterLive: this.offers.laterLiveForReservationRead(venueId, reservationId),
        ...this.sweep.dueAfterLockReads(venueId),
      });
      const venue = locked.venue;
      const now = this.clock.now(venue);
      // A hold that lapsed is expired first, in a transaction of its own, not cancelled
      // (SweepService.sweepThenDecide).
      return this.sweep.sweepThenDecide(tx, venue, now, locked.found, async () => {
        const { reservation, entry, live, laterLive, tableIds } = locked.found;
        if (!reservation) throw DomainException.notFound('The reservation was not found.');
        const operationId = `cancel-reservation-${reservation.id}`;
        if (reservation.state === 'HELD' && live?.reservationId === reservation.id) {
          // A hold, its live offer and the party read under this lock: the offer's ending (as an entry's
          // cancellation ends it), the revoked token and sessions and the answer go with the COMMIT.
          // The party is the offer's, whatever its status (the ending's guards say what moves); read
          // now when the hold names another (a hold repaired by hand).
          const party = entry?.id === live.entryId ? entry : await this.entries.find(m, venueId, live.entryId);
          const result = { reservation: toReservationView(cancelledAt(reservation, now), tableIds), released: true };
          const read = { offer: live, reservation, entry: party, laterLive };
          const revoke = this.credentials.revokeStatements(live.entryId, now);
          await this.lifecycle.endReadAtCommit(tx, venue, read, 'cancelled', now, operationId, 'staff', result, revoke);
          return result;
        }
        if (reservation.state === 'CONFIRMED' || reservation.state === 'HELD') {
          // A booking, or a hold with no live offer: its release is known, and travels with the COMMIT.
          const result = { reservation: toReservationView(cancelledAt(reservation, now), tableIds), released: true };
          await this.releaseAtCommit(tx, venue, reservation, reservation.state, entry, now, operationId, 'staff', result);
          return result;
        }
        // No longer held or confirmed: as read under this lock, nothing changed, the answer with the COMMIT.
        return this.unchangedAtCommit(tx, { reservation: toReservationView(reservation, tableIds), released: false });
      });
    });
  }

  /**
   * Releases a booking (or a hold with no live offer) read under the venue lock, so every guard below
   * applies: the reservation cancelled, the party it names too when `party` is that one, read
   * `confirmed` (its token and sessions stop working, it is told), their history (the reservation's
   * `from` as the caller states it), the board event and the command's `answer`, in one statement
   * sent with the COMMIT. Nothing in the command may follow it or catch its error (the commit's).
   */
  private async releaseAtCommit(
    tx: Tx,
    venue: Venue,
    booking: Reservation,
    from: 'HELD' | 'CONFIRMED',
    party: QueueEntry | null,
    now: Date,
    operationId: string,
    by: 'party' | 'staff',
    answer: unknown,
  ): Promise<void> {
    const venueId = venue.id;
    const changes: HistoryChange[] = [
      { venueId, subjectType: 'reservation', subjectId: booking.id, from, to: 'CANCELLED', at: now, operationId },
    ];
    const rows: Array<PendingInsert | TogetherStatement> = [
      this.reservations.transitionStatement(booking.id, ['HELD', 'CONFIRMED'], 'CANCELLED', now, 'cancelled'),
    ];
    const entry = party?.id === booking.entryId && party.status === 'confirmed' ? party : null;
    if (entry) {
      rows.push(this.entries.transitionStatement(entry.id, ['confirmed'], 'cancelled'));
      changes.push({
        venueId,
        subjectType: 'entry',
        subjectId: entry.id,
        from: 'confirmed',
        to: 'cancelled',
        at: now,
        operationId,
      });
    }
    rows.push(this.history.rows(...changes));
    if (entry) {
      rows.push(...this.credentials.revokeStatements(entry.id, now));
      const left = this.leftRows(venue, entry, now, by, booking.id);
      if (left) rows.push(left);
    }
    rows.push(...(tx.answerRow?.(answer) ?? []));
    await this.board.appendAtCommit(
      tx,
      venueId,
      'reservation.cancelled',
      { reservationId: booking.id, entryId: booking.entryId ?? null, by, name: booking.name },
      now,
      rows,
    );
  }

  /**
   * The party's confirmation that it left the queue, or (staff cancelled it: the board's removal, a
   * no-show) that the host removed it, with the confirmed table released when there was one: rows to
   * travel with the command's others. Null at a pool venue (table venues' parties hear from the venue).
   */
  private leftRows(
    venue: Venue,
    entry: GuestParty,
    now: Date,
    by: 'party' | 'staff',
    reservationId?: string,
  ): PendingInsert | null {
    if (venue.seating !== 'tables') return null;
    const removed = by === 'staff';
    return this.guest.announcementRows([
      {
        venue,
        party: entry,
        kind: removed ? 'queue-removed' : 'queue-left',
        placeKept: false,
        at: now,
        reservationId: reservationId ?? null,
        ...(removed && reservationId && { table: 'confirmed' as const }),
      },
    ]);
  }

  /**
   * A cancellation that changes nothing (decided on rows read under the venue lock): its answer is
   * recorded for the Idempotency-Key with the COMMIT, as the changing ones record theirs.
   */
  private async unchangedAtCommit<T>(tx: Tx, result: T): Promise<T> {
    await insertTogetherAtCommit(tx.manager, tx.answerRow?.(result) ?? []);
    return result;
  }
}

/** A booking as its cancellation leaves it (`ReservationRepository.transitionStatement`'s columns). */
function cancelledAt(r: Reservation, now: Date): Reservation {
  return { ...r, state: 'CANCELLED', updatedAt: now, stateReason: 'cancelled' };
}

/** An entry as `transitionStatement` to `cancelled` leaves it: the status, and the version bumped. */
function leftAs(entry: QueueEntry): QueueEntry {
  return { ...entry, status: 'cancelled', version: entry.version + 1 };
}
