import { Injectable } from '@nestjs/common';
import { jsonRows, type ScalarRead } from '@hostboard/core';
import { BUSINESS_DAY_ENDED } from '@hostboard/allocator';
import { DAYPART_HOURS, DAYPARTS } from '../floor/daypart.js';
import { RECENT_VISITS, type CompletedVisit } from '../floor/learned-turns.js';

/** How far back completed visits are read to learn turn lengths. */
const LEARNING_DAYS = 56;
/** How far ahead bookings are read: no service, and so no quote, runs longer than a day. */
const BOOKINGS_AHEAD_MS = 24 * 60 * 60_000;

/**
 * The SQL the floor-aware quote reads: the seating, who waits ahead, and the venue's completed
 * visits. Each is a part of one combined statement (readTogether): a join reads its floor model's
 * inputs, its queue count and its duplicate check in one round trip.
 */
@Injectable()
export class FloorStateRepository {
  /**
   * The venue's tables in service (by label) and approved combinations of them (oldest first). A
   * retired table is on no floor the host can offer from: read as free, it quoted "a few minutes"
   * at a full room.
   */
  seatingRead(venueId: string): ScalarRead<{
    tables: Array<{ id: string; capacity: number }>;
    combinations: Array<{ tableIds: string[]; capacity: number }>;
  }> {
    return {
      sql: `SELECT json_build_object(
              'tables', (SELECT json_agg(json_build_object('id', id, 'capacity', capacity) ORDER BY label, id)
                           FROM venue_tables WHERE venue_id = $1 AND retired_at IS NULL),
              'combinations', (SELECT json_agg(json_build_object('tableIds', table_ids, 'capacity', capacity) ORDER BY created_at, id) FROM (
                                 SELECT c.id, c.created_at, c.capacity, array_agg(m.table_id::text ORDER BY m.table_id) AS table_ids
                                   FROM table_combinations c JOIN table_combination_tables m ON m.combination_id = c.id
                                  WHERE c.venue_id = $1
                                    AND NOT EXISTS (SELECT 1 FROM table_combination_tables ct JOIN venue_tables t ON t.id = ct.table_id
                                                     WHERE ct.combination_id = c.id AND t.retired_at IS NOT NULL)
                                  GROUP BY c.id, c.capacity, c.created_at) c))`,
      params: [venueId],
      parse: (value) => {
        const v = (typeof value === 'string' ? JSON.parse(value) : value) as { tables: unknown; combinations: unknown };
        return {
          tables: jsonRows<{ id: string; capacity: number }>(v.tables).map((t) => ({ id: t.id, capacity: Number(t.capacity) })),
          combinations: jsonRows<{ tableIds: string[]; capacity: number }>(v.combinations).map((c) => ({
            tableIds: c.tableIds,
            capacity: Number(c.capacity),
          })),
        };
      },
    };
  }

  /**
   * Tables booked for later: each confirmed booking whose slot begins after `now` (and within a day),
   * with its tables and slot. The floor read shows a table's next hour only, and as taken from now on;
   * an offer is refused for any overlap with a booking, however far ahead, and allowed before it.
   */
  bookingsRead(venueId: string, now: Date): ScalarRead<Array<{ tableIds: string[]; start: Date; end: Date }>> {
    return {
      sql: `SELECT json_agg(json_build_object('tableIds', b.table_ids, 'start', b.start_at, 'end', b.end_at) ORDER BY b.start_at) FROM (
              SELECT array_agg(rt.table_id::text ORDER BY rt.table_id) AS table_ids,
                     min(lower(rt.slot)) AS start_at, max(upper(rt.slot)) AS end_at
                FROM reservation_tables rt JOIN reservations r ON r.id = rt.reservation_id
               WHERE rt.venue_id = $1 AND rt.active AND r.state = 'CONFIRMED'
               GROUP BY r.id
              HAVING min(lower(rt.slot)) > $2 AND min(lower(rt.slot)) < $3) b`,
      params: [venueId, now, new Date(now.getTime() + BOOKINGS_AHEAD_MS)],
      parse: (value) =>
        jsonRows<{ tableIds: string[]; start: string; end: string }>(value).map((b) => ({
          tableIds: b.tableIds,
          start: new Date(b.start),
          end: new Date(b.end),
        })),
    };
  }

  /** Party sizes of this business day's waiting parties (not holding an offer), in waiting order. */
  waitingSizesRead(venueId: string, businessDate: string): ScalarRead<number[]> {
    return {
      sql: `SELECT json_agg(party_size ORDER BY received_at, queue_sequence) FROM queue_entries
             WHERE venue_id = $1 AND business_date = $2 AND status = 'waiting'`,
      params: [venueId, businessDate],
      parse: (value) => jsonRows<number>(value).map(Number),
    };
  }

  /**
   * Completed visits (seat → clear) of the last eight weeks before `now`, with the seats of their
   * tables: the `RECENT_VISITS` newest per daypart (venue-local, of the seating) and capacity, so a
   * join reads a few dozen rows however long the venue has run. learnTurns takes the medians of one
   * daypart; every daypart is read because a party seated at dinner keeps a dinner turn after 22:00.
   */
  completedVisitsRead(venue: { id: string; timeZone: string }, now: Date): ScalarRead<CompletedVisit[]> {
    const { sql, params } = visitsQuery(venue, now);
    return {
      sql: `SELECT json_agg(json_build_object('openedAt', opened_at, 'closedAt', closed_at, 'capacity', capacity)) FROM (${sql}) r`,
      params,
      parse: (value) =>
        jsonRows<{ openedAt: string; closedAt: string; capacity: number }>(value).map((r) => ({
          openedAt: new Date(r.openedAt),
          closedAt: new Date(r.closedAt),
          capacity: Number(r.capacity),
        })),
    };
  }
}

/** The daypart of an hour (SQL), as daypartOf counts it: the bands that do not wrap, else `late`. */
function daypartSql(hour: string): string {
  const bands = DAYPARTS.map((d) => [d, ...DAYPART_HOURS[d]] as const).filter(([, from, to]) => from < to);
  return `CASE ${bands.map(([d, from, to]) => `WHEN ${hour} >= ${from} AND ${hour} < ${to} THEN '${d}'`).join(' ')} ELSE 'late' END`;
}

/** The completed visits of `completedVisitsRead`, as SQL and its parameters. */
function visitsQuery(venue: { id: string; timeZone: string }, now: Date): { sql: string; params: unknown[] } {
  const daypart = daypartSql('extract(hour FROM timezone($4, v.opened_at))');
  return {
    sql: `SELECT opened_at, closed_at, capacity FROM (
         SELECT v.opened_at, v.closed_at, sum(t.capacity)::int AS capacity,
                row_number() OVER (PARTITION BY ${daypart}, sum(t.capacity) ORDER BY v.closed_at DESC, v.id) AS recent
           FROM visits v
           JOIN reservation_tables rt ON rt.reservation_id = v.reservation_id
           JOIN venue_tables t ON t.id = rt.table_id
           JOIN reservations r ON r.id = v.reservation_id
          WHERE v.venue_id = $1 AND v.closed_at IS NOT NULL AND v.closed_at <= $2 AND v.closed_at > $3
            -- A visit its business day's end closed was never cleared: how long it lasted is unknown.
            AND r.state_reason IS DISTINCT FROM $6
          GROUP BY v.id, v.opened_at, v.closed_at
       ) visits WHERE recent <= $5`,
    params: [
      venue.id,
      now,
      new Date(now.getTime() - LEARNING_DAYS * 86_400_000),
      venue.timeZone,
      RECENT_VISITS,
      BUSINESS_DAY_ENDED,
    ],
  };
}
