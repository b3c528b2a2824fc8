import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { HistoryWriter, type ScalarRead, type Tx } from '@hostboard/core';
import { BUSINESS_DAY_ENDED } from '@hostboard/allocator';
import { BoardEventWriter } from '@hostboard/board';
import { RunningWindowFinder, VenueClock, type Venue } from '@hostboard/venue';
import { QueueEntryRepository } from '../entries/queue-entry.repository.js';

/**
 * The history reason of an entry whose business day ended while it was still waiting (and of a
 * booking whose tables an ended day released: defined beside the reservations, which the quotes read).
 */
export { BUSINESS_DAY_ENDED };

/**
 * A table venue's queue is same-day: when a business day ends, its parties still waiting leave the
 * queue (status `expired`, reason "business day ended", a history row, no email). The day has ended
 * when the business date running now (the running window's, which past midnight is still the day
 * before; else the venue-local date) is later than the entry's. An entry holding a live offer is
 * left to that offer: it is accepted, or it expires as usual and the entry is closed by the next
 * sweep. Pool queues (workshop registration) are not day-bound and are never closed here.
 *
 * Triggers: the sweep (before every decision, the safety-net job, a sandbox clock move) and
 * the join itself (under its lock, before its guards); reads of the queue sweep first, so yesterday never shows as waiting.
 */
@Injectable()
export class BusinessDayCloser {
  constructor(
    private readonly clock: VenueClock,
    private readonly windows: RunningWindowFinder,
    private readonly entries: QueueEntryRepository,
    private readonly history: HistoryWriter,
    private readonly board: BoardEventWriter,
  ) {}

  /** The business date running at `now`: the running window's (the day it started), else the local date. */
  async currentBusinessDate(m: EntityManager, venue: Venue, now: Date): Promise<string> {
    return (await this.windows.find(m, venue, now))?.businessDate ?? this.clock.localDate(venue, now);
  }

  /**
   * Lock-free and cheap, a part of the sweep's one lock-free question: whether some waiting entry of
   * a table venue is older than the venue-local date. That is every entry whose day has ended, and
   * also, between midnight and the end of a window that runs past it, the previous day's
   * still-running entries (the locked close then finds nothing to do). The venue's own clock is read
   * in the statement (a sandbox's simulated now, else `wallNow`), and its date in its IANA zone.
   */
  anyToCloseRead(venueId: string, wallNow: Date): ScalarRead<boolean> {
    return this.entries.anyWaitingBeforeLocalDateRead(venueId, wallNow);
  }

  /** Inside a transaction that holds the venue lock: closes the waiting entries of ended days. */
  async closeLocked(tx: Tx, venue: Venue, now: Date): Promise<string[]> {
    if (venue.seating !== 'tables') return [];
    const m = tx.manager;
    const today = await this.currentBusinessDate(m, venue, now);
    const closed = await this.entries.closeWaitingBefore(m, venue.id, today);
    if (closed.length === 0) return [];
    await this.history.append(
      m,
      ...closed.map((e) => ({
        venueId: venue.id,
        subjectType: 'entry',
        subjectId: e.id,
        from: 'waiting',
        to: 'expired',
        at: now,
        // Deterministic: closing the same entry's day twice is the same operation.
        operationId: `close-day-${e.businessDate}-${e.id}`,
        reason: BUSINESS_DAY_ENDED,
        actor: 'system',
      })),
    );
    await this.board.append(tx, venue.id, 'queue.day-closed', { entryIds: closed.map((e) => e.id), businessDate: today }, now);
    return closed.map((e) => e.id);
  }
}
