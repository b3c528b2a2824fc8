import { Injectable } from '@nestjs/common';
import { HistoryWriter, preparedQuery, type HistoryChange, type ScalarRead, type Tx } from '@hostboard/core';
import { BUSINESS_DAY_ENDED, ReservationRepository, Visit } from '@hostboard/allocator';
import { BoardEventWriter } from '@hostboard/board';
import { EntryCredentials, QueueEntryRepository } from '@hostboard/queue';
import { businessDateAt, runningWindowAt, ServiceWindowRepository, type ServiceWindow, type Venue } from '@hostboard/venue';
import { IsNull } from 'typeorm';

/** What the lock-free question reads: the venue's zone and own now, and the earliest turn still holding a table. */
export interface HeldTablesFacts {
  timeZone: string;
  now: Date;
  /** The start of the earliest turn of a confirmed or seated party on tables; null when there is none. */
  earliestStart: Date | null;
}

/**
 * Tables held by a party of an earlier business day. A party that confirmed its table or was seated
 * and that the host never seated, cleared or marked a no-show keeps its tables only until the venue's
 * next business day opens: from the moment a service window of a later business date is running,
 * it no longer holds them. A confirmed party that never came is cancelled (its entry too: a no-show
 * in the day's figures), a seated one's visit is closed and its booking completed, each with the
 * history reason "business day ended", actor `system`, and no message to the guest (its day is over).
 *
 * Not at midnight, nor at the end of the last window: the party seated at 22:45 in a window that
 * ends at 23:00 may well still be at its table at midnight, and with no window running nothing can be
 * offered anyway. Once the next day's service runs, the queue is that day's (the spec's same-day
 * queue), and yesterday's parties have left.
 *
 * A party's business date is that of the start of its turn (the window running then, else the
 * venue-local date), the rule a join's business date follows. Runs in the sweep, under the venue lock:
 * before every offer, acceptance and booking, before every board and queue read, in the safety-net
 * job and on a sandbox clock move. Pool venues (workshops) are not day-bound and are never touched.
 */
@Injectable()
export class EndedDayTables {
  constructor(
    private readonly windows: ServiceWindowRepository,
    private readonly reservations: ReservationRepository,
    private readonly entries: QueueEntryRepository,
    private readonly credentials: EntryCredentials,
    private readonly history: HistoryWriter,
    private readonly board: BoardEventWriter,
  ) {}

  /**
   * Lock-free, as a part of the sweep's one combined read: the venue's zone, its own now (a sandbox's
   * simulated clock, else `wallNow`) and the earliest turn start of a confirmed or seated party on
   * tables (null for a pool venue). With the venue's windows, `anyToRelease` answers the question.
   * The placements of confirmed and seated parties (`reservation_tables.holding`, kept by the database's
   * triggers from the reservation's state) are indexed by venue and turn start: the minimum is the
   * index's first entry, where min() over every confirmed booking of the venue joined to its tables
   * read them all (an acceptance adds one; a restaurant's bookings days ahead are all confirmed). A
   * placement's venue is its reservation's (both written from the one venue, TableAllocator).
   */
  factsRead(venueId: string, wallNow: Date): ScalarRead<HeldTablesFacts | null> {
    return {
      sql: `SELECT json_build_object(
              'timeZone', v.time_zone,
              'now', CASE WHEN v.sandbox AND v.clock_now IS NOT NULL THEN v.clock_now ELSE $2::timestamptz END,
              'earliestStart', (SELECT min(lower(rt.slot)) FROM reservation_tables rt WHERE rt.venue_id = $1 AND rt.holding))
              FROM venues v WHERE v.id = $1 AND v.seating = 'tables'`,
      params: [venueId, wallNow],
      parse: (value) => {
        if (value === null || value === undefined) return null;
        const f = (typeof value === 'string' ? JSON.parse(value) : value) as {
          timeZone: string;
          now: string;
          earliestStart: string | null;
        };
        return {
          timeZone: f.timeZone,
          now: new Date(f.now),
          earliestStart: f.earliestStart === null ? null : new Date(f.earliestStart),
        };
      },
    };
  }

  /**
   * Whether some party holds tables from a business day before the one running now. Exact: business
   * dates only grow with time, so the earliest turn has the earliest business date.
   */
  anyToRelease(facts: HeldTablesFacts | null, windows: ServiceWindow[]): boolean {
    if (!facts?.earliestStart) return false;
    const running = runningWindowAt(windows, facts.timeZone, facts.now);
    return running !== null && businessDateAt(windows, facts.timeZone, facts.earliestStart) < running.businessDate;
  }

  /** Inside a transaction that holds the venue lock: releases the tables of ended days' parties. */
  async releaseLocked(tx: Tx, venue: Venue, now: Date): Promise<string[]> {
    if (venue.seating !== 'tables') return [];
    const m = tx.manager;
    const windows = await this.windows.list(m, venue.id);
    const running = runningWindowAt(windows, venue.timeZone, now);
    if (!running) return [];
    // A turn of an earlier business day started before this window did.
    const candidates: Array<{
      id: string;
      state: 'CONFIRMED' | 'SEATED';
      entry_id: string | null;
      start: Date;
      table_ids: string[];
    }> = await preparedQuery(
      m,
      `SELECT r.id, r.state, r.entry_id, min(lower(rt.slot)) AS start, array_agg(rt.table_id::text ORDER BY rt.table_id) AS table_ids
           FROM reservations r JOIN reservation_tables rt ON rt.reservation_id = r.id AND rt.active
          WHERE r.venue_id = $1 AND r.state IN ('CONFIRMED', 'SEATED') AND lower(rt.slot) < $2
          GROUP BY r.id, r.state, r.entry_id
          ORDER BY min(lower(rt.slot)), r.id`,
      [venue.id, running.startsAt],
    );
    const ended = candidates.filter((c) => businessDateAt(windows, venue.timeZone, new Date(c.start)) < running.businessDate);
    if (ended.length === 0) return [];
    const changes: HistoryChange[] = [];
    const released: typeof ended = [];
    for (const r of ended) {
      const operationId = `end-day-${r.id}`;
      const change = { venueId: venue.id, at: now, operationId, reason: BUSINESS_DAY_ENDED, actor: 'system' as const };
      if (r.state === 'CONFIRMED') {
        if (!(await this.reservations.transition(m, r.id, ['CONFIRMED'], 'CANCELLED', now, BUSINESS_DAY_ENDED))) continue;
        changes.push({ ...change, subjectType: 'reservation', subjectId: r.id, from: 'CONFIRMED', to: 'CANCELLED' });
        if (r.entry_id && (await this.entries.transition(m, r.entry_id, ['confirmed'], 'cancelled'))) {
          changes.push({ ...change, subjectType: 'entry', subjectId: r.entry_id, from: 'confirmed', to: 'cancelled' });
          await this.credentials.revoke(m, r.entry_id, now);
        }
      } else {
        if (!(await this.reservations.transition(m, r.id, ['SEATED'], 'COMPLETED', now, BUSINESS_DAY_ENDED))) continue;
        await m.update(Visit, { reservationId: r.id, closedAt: IsNull() }, { closedAt: now });
        changes.push({ ...change, subjectType: 'reservation', subjectId: r.id, from: 'SEATED', to: 'COMPLETED' });
      }
      released.push(r);
    }
    if (released.length === 0) return [];
    await this.history.append(m, ...changes);
    await this.board.append(
      tx,
      venue.id,
      'tables.day-ended',
      {
        businessDate: running.businessDate,
        reservationIds: released.map((r) => r.id),
        tableIds: [...new Set(released.flatMap((r) => r.table_ids))].sort(),
      },
      now,
    );
    return released.map((r) => r.id);
  }
}
