import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  DomainException,
  ErrorCode,
  HistoryWriter,
  TransactionRunner,
  type HistoryChange,
  type PendingInsert,
  type TogetherStatement,
} from '@hostboard/core';
import {
  checkFree,
  checkNotOccupied,
  checkTarget,
  closeVisitStatement,
  plannedFor,
  ReservationRepository,
  reservationOfVisitRead,
  seatedDuring,
  seatedNow,
  TableAllocator,
  tableTaken,
  toReservationView,
  Visit,
  visitRead,
  type ReservationView,
} from '@hostboard/allocator';
import { BoardEventWriter } from '@hostboard/board';
import { QueueEntryRepository } from '@hostboard/queue';
import { VenueClock, VenueRepository } from '@hostboard/venue';

export interface VisitView {
  id: string;
  reservationId: string;
  openedAt: string;
  closedAt: string | null;
}

export const toVisitView = (v: Visit): VisitView => ({
  id: v.id,
  reservationId: v.reservationId,
  openedAt: v.openedAt.toISOString(),
  closedAt: v.closedAt?.toISOString() ?? null,
});

/** Arrivals, seating and visits: seat a confirmed reservation, clear its tables, move it. */
@Injectable()
export class SeatingService {
  constructor(
    private readonly tx: TransactionRunner,
    private readonly venues: VenueRepository,
    private readonly clock: VenueClock,
    private readonly reservations: ReservationRepository,
    private readonly tables: TableAllocator,
    private readonly entries: QueueEntryRepository,
    private readonly history: HistoryWriter,
    private readonly board: BoardEventWriter,
  ) {}

  /**
   * A visit opens on the reservation's tables; they become occupied from now. A party seated before
   * its slot starts has its turn moved to start now (TableAllocator.occupyFromStatement).
   */
  async seat(venueId: string, reservationId: string): Promise<{ reservation: ReservationView; visit: VisitView }> {
    return this.tx.command({ venueId, translate: tableTaken, keyLockedByCommand: true }, async (tx) => {
      const m = tx.manager;
      // Everything the checks need in the lock's own write (issue 18), as a statement of its own after
      // it: the reservation, its tables and slot, who sits at them, and its entry. The lock
      // takes the Idempotency-Key's lock too. Seating asks no sweep (it never did): only a CONFIRMED
      // reservation is seated, and no hold's expiry changes that.
      const { venue, found } = await this.venues.lockThenRead(m, venueId, tx.keyLock, {
        r: this.reservations.findRead(m, venueId, reservationId),
        tableIds: this.tables.tableIdsOfRead(reservationId),
        slot: this.tables.slotOfRead(reservationId),
        seated: this.tables.seatedAtTablesOfRead(venueId, reservationId),
        entry: this.entries.ofReservationRead(m, venueId, reservationId),
      });
      const r = found.r;
      if (!r) throw DomainException.notFound('The reservation was not found.');
      if (r.kind !== 'tables') throw new DomainException(ErrorCode.RULE_VIOLATION, 'Only a reservation on tables can be seated.');
      if (r.state !== 'CONFIRMED')
        throw new DomainException(ErrorCode.RULE_VIOLATION, `A ${r.state} reservation cannot be seated; confirm it first.`, {
          state: r.state,
          reason: 'not-seatable',
        });
      const tableIds = found.tableIds;
      checkNotOccupied(found.seated);
      const now = this.clock.now(venue);
      const planned = found.slot;
      // An early seat checks the earlier turn is free (a read of its own); the move goes with the rows.
      const moved = await this.tables.occupyFromStatement(m, venueId, r.id, tableIds, planned, now);
      const early = moved !== null && planned !== null;
      const visit: Visit = { id: randomUUID(), venueId, reservationId: r.id, openedAt: now, closedAt: null };
      const operationId = `seat-${r.id}`;
      const changes: HistoryChange[] = [
        {
          venueId,
          subjectType: 'reservation',
          subjectId: r.id,
          from: 'CONFIRMED',
          to: 'SEATED',
          at: now,
          operationId,
          reason: early ? `seated early: turn moved from ${planned.start.toISOString()} to ${now.toISOString()}` : null,
        },
      ];
      const rows: Array<PendingInsert | TogetherStatement> = [
        ...(moved ? [moved] : []),
        // Read CONFIRMED under this lock: the guard applies.
        this.reservations.transitionStatement(r.id, ['CONFIRMED'], 'SEATED', now),
        { target: Visit, rows: [visit] },
      ];
      // The entry follows only from `confirmed`, as read under this lock (the guard then applies).
      if (r.entryId && found.entry?.status === 'confirmed') {
        rows.push(this.entries.transitionStatement(r.entryId, ['confirmed'], 'seated'));
        changes.push({
          venueId,
          subjectType: 'entry',
          subjectId: r.entryId,
          from: 'confirmed',
          to: 'seated',
          at: now,
          operationId,
        });
      }
      rows.push(this.history.rows(...changes));
      const result = {
        reservation: toReservationView({ ...r, state: 'SEATED', updatedAt: now }, tableIds),
        visit: toVisitView(visit),
      };
      // Every check is behind us: the moves, the visit, history and the answer travel with the board
      // event in one statement, sent with the COMMIT. Nothing here catches its error, which goes to
      // the command's translate (a table taken meanwhile) or the key's replay.
      rows.push(...(tx.answerRow?.(result) ?? []));
      await this.board.appendAtCommit(
        tx,
        venueId,
        'reservation.seated',
        { reservationId: r.id, visitId: visit.id, tableIds },
        now,
        rows,
      );
      return result;
    });
  }

  /**
   * The party has left: the visit closes, the reservation completes, the tables are free. A visit
   * already closed (another tablet cleared it, or a retry with a new key) answers as it stands.
   */
  async clear(venueId: string, visitId: string): Promise<{ visit: VisitView }> {
    return this.tx.command({ venueId, keyLockedByCommand: true }, async (tx) => {
      const m = tx.manager;
      // The visit and its reservation in the lock's own write (issue 18); the rows go with the COMMIT.
      const { venue, found } = await this.venues.lockThenRead(m, venueId, tx.keyLock, {
        visit: visitRead(m, venueId, visitId),
        r: reservationOfVisitRead(m, venueId, visitId),
      });
      const visit = found.visit;
      if (!visit) throw DomainException.notFound('The visit was not found.');
      if (visit.closedAt) return { visit: toVisitView(visit) };
      const now = this.clock.now(venue);
      const rows: Array<PendingInsert | TogetherStatement> = [closeVisitStatement(visit.id, now)];
      // Read SEATED under this lock: the guard applies. A reservation no longer seated stays as it is.
      if (found.r?.state === 'SEATED') {
        rows.push(
          this.reservations.transitionStatement(visit.reservationId, ['SEATED'], 'COMPLETED', now),
          this.history.rows({
            venueId,
            subjectType: 'reservation',
            subjectId: visit.reservationId,
            from: 'SEATED',
            to: 'COMPLETED',
            at: now,
            operationId: `clear-${visit.id}`,
          }),
        );
      }
      const result = { visit: toVisitView({ ...visit, closedAt: now }) };
      rows.push(...(tx.answerRow?.(result) ?? []));
      await this.board.appendAtCommit(
        tx,
        venueId,
        'visit.cleared',
        { visitId: visit.id, reservationId: visit.reservationId },
        now,
        rows,
      );
      return result;
    });
  }

  /** A table move, under the same target rules as an offer, refused the same way on conflict. */
  async move(venueId: string, reservationId: string, tableIds: string[]): Promise<{ reservation: ReservationView }> {
    return this.tx.command({ venueId, translate: tableTaken, keyLockedByCommand: true }, async (tx) => {
      const m = tx.manager;
      // Everything the checks need in the lock's own write (issue 18): the reservation, the target's
      // tables and combinations, the slot and the tables it has, and who else is on the target tables
      // at any time (the venue's now, which narrows them, is known only after the lock).
      const { venue, found } = await this.venues.lockThenRead(m, venueId, tx.keyLock, {
        r: this.reservations.findRead(m, venueId, reservationId),
        target: this.tables.targetRead(venueId, tableIds),
        slot: this.tables.slotOfRead(reservationId),
        before: this.tables.tableIdsOfRead(reservationId),
        others: this.tables.placementsOnTablesRead(venueId, tableIds, reservationId),
      });
      const r = found.r;
      if (!r) throw DomainException.notFound('The reservation was not found.');
      if (r.kind !== 'tables' || (r.state !== 'CONFIRMED' && r.state !== 'SEATED')) {
        throw new DomainException(ErrorCode.RULE_VIOLATION, 'Only a confirmed or seated reservation on tables can be moved.', {
          state: r.state,
        });
      }
      checkTarget(found.target, tableIds, r.partySize);
      const slot = found.slot;
      if (!slot) throw DomainException.validation('This reservation has no tables to move.');
      const now = this.clock.now(venue);
      // A seated party moves to tables free now; a booking for later, to tables free for its turn,
      // as a new booking for that turn would be (a party seated there now may have left by then).
      checkNotOccupied(r.state === 'SEATED' ? seatedNow(found.others) : seatedDuring(found.others, slot.start, slot.end, now));
      checkFree(plannedFor(found.others, slot.start, slot.end, now), slot.start, slot.end, now);
      const before = found.before;
      // Every check is behind us: the placements' delete (a statement of its own, see moveAtCommit),
      // then their re-insert, history, the answer and the board event in one statement, both sent
      // with the COMMIT. A table taken meanwhile is the exclusion constraint's refusal, through the
      // command's translate; nothing here catches an error.
      const place = await this.tables.moveAtCommit(m, venueId, r.id, tableIds, slot);
      const result = { reservation: toReservationView(r, [...tableIds].sort()) };
      await this.board.appendAtCommit(
        tx,
        venueId,
        'reservation.moved',
        { reservationId: r.id, from: before, to: tableIds },
        now,
        [
          place,
          this.history.rows({
            venueId,
            subjectType: 'reservation',
            subjectId: r.id,
            from: r.state,
            to: r.state,
            at: now,
            // Its own id: a sandbox clock stands still, so two moves of one booking can share an instant.
            operationId: `move-${r.id}-${randomUUID()}`,
            reason: `moved from ${before.join(',')} to ${[...tableIds].sort().join(',')}`,
          }),
          ...(tx.answerRow?.(result) ?? []),
        ],
      );
      return result;
    });
  }
}
