import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { jsonRows, type ScalarRead } from '@hostboard/core';
import { DAYPART_HOURS, type Daypart } from '../floor/daypart.js';
import { RECENT_VISITS, type CompletedVisit } from '../floor/learned-turns.js';

/** How far back completed visits are read to learn turn lengths. */
const LEARNING_DAYS = 56;

/** The SQL the floor-aware quote reads: who waits ahead, and the venue's completed visits. */
@Injectable()
export class FloorStateRepository {
  /** The venue's tables and approved combinations, in two plain statements (joins are a hot path). */
  async seating(
    tx: EntityManager,
    venueId: string,
  ): Promise<{ tables: Array<{ id: string; capacity: number }>; combinations: Array<{ tableIds: string[]; capacity: number }> }> {
    const tables: Array<{ id: string; capacity: number }> = await tx.query(
      'SELECT id, capacity FROM venue_tables WHERE venue_id = $1 ORDER BY label, id',
      [venueId],
    );
    const combinations: Array<{ table_ids: string[]; capacity: number }> = await tx.query(
      `SELECT c.capacity, array_agg(m.table_id::text ORDER BY m.table_id) AS table_ids
         FROM table_combinations c JOIN table_combination_tables m ON m.combination_id = c.id
        WHERE c.venue_id = $1
        GROUP BY c.id, c.capacity, c.created_at
        ORDER BY c.created_at, c.id`,
      [venueId],
    );
    return {
      tables: tables.map((t) => ({ id: t.id, capacity: Number(t.capacity) })),
      combinations: combinations.map((c) => ({ tableIds: c.table_ids, capacity: Number(c.capacity) })),
    };
  }

  /** Party sizes of this business day's waiting parties (not holding an offer), in waiting order. */
  async waitingSizes(tx: EntityManager, venueId: string, businessDate: string): Promise<number[]> {
    const rows: Array<{ party_size: number }> = await tx.query(
      `SELECT party_size FROM queue_entries
        WHERE venue_id = $1 AND business_date = $2 AND status = 'waiting'
        ORDER BY received_at, queue_sequence`,
      [venueId, businessDate],
    );
    return rows.map((r) => Number(r.party_size));
  }

  /**
   * Completed visits (seat → clear) of the last eight weeks before `now` that were seated in
   * `daypart` (venue-local), with the seats of their tables: the `RECENT_VISITS` newest per capacity,
   * so a join reads a few dozen rows however long the venue has run. learnTurns takes the medians.
   */
  async completedVisits(
    tx: EntityManager,
    venue: { id: string; timeZone: string },
    daypart: Daypart,
    now: Date,
  ): Promise<CompletedVisit[]> {
    const { sql, params } = visitsQuery(venue, daypart, now);
    const rows: Array<{ opened_at: Date; closed_at: Date; capacity: number }> = await tx.query(sql, params);
    return rows.map((r) => ({ openedAt: new Date(r.opened_at), closedAt: new Date(r.closed_at), capacity: Number(r.capacity) }));
  }

  /*
   * The same reads as parts of one combined statement (readTogether): a join reads its floor model's
   * inputs in one round trip. Same SQL, same order, as JSON.
   */

  seatingRead(venueId: string): ScalarRead<{
    tables: Array<{ id: string; capacity: number }>;
    combinations: Array<{ tableIds: string[]; capacity: number }>;
  }> {
    return {
      sql: `SELECT json_build_object(
              'tables', (SELECT json_agg(json_build_object('id', id, 'capacity', capacity) ORDER BY label, id)
                           FROM venue_tables WHERE venue_id = $1),
              'combinations', (SELECT json_agg(json_build_object('tableIds', table_ids, 'capacity', capacity) ORDER BY created_at, id) FROM (
                                 SELECT c.id, c.created_at, c.capacity, array_agg(m.table_id::text ORDER BY m.table_id) AS table_ids
                                   FROM table_combinations c JOIN table_combination_tables m ON m.combination_id = c.id
                                  WHERE c.venue_id = $1
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

  waitingSizesRead(venueId: string, businessDate: string): ScalarRead<number[]> {
    return {
      sql: `SELECT json_agg(party_size ORDER BY received_at, queue_sequence) FROM queue_entries
             WHERE venue_id = $1 AND business_date = $2 AND status = 'waiting'`,
      params: [venueId, businessDate],
      parse: (value) => jsonRows<number>(value).map(Number),
    };
  }

  completedVisitsRead(venue: { id: string; timeZone: string }, daypart: Daypart, now: Date): ScalarRead<CompletedVisit[]> {
    const { sql, params } = visitsQuery(venue, daypart, now);
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

/** The completed visits of `completedVisits`, as SQL and its parameters. */
function visitsQuery(venue: { id: string; timeZone: string }, daypart: Daypart, now: Date): { sql: string; params: unknown[] } {
  const [from, to] = DAYPART_HOURS[daypart];
  return {
    sql: `SELECT opened_at, closed_at, capacity FROM (
         SELECT v.opened_at, v.closed_at, sum(t.capacity)::int AS capacity,
                row_number() OVER (PARTITION BY sum(t.capacity) ORDER BY v.closed_at DESC, v.id) AS recent
           FROM visits v
           JOIN reservation_tables rt ON rt.reservation_id = v.reservation_id
           JOIN venue_tables t ON t.id = rt.table_id
          WHERE v.venue_id = $1 AND v.closed_at IS NOT NULL AND v.closed_at <= $2 AND v.closed_at > $3
            AND (extract(hour FROM timezone($4, v.opened_at)) >= $5 ${from < to ? 'AND' : 'OR'} extract(hour FROM timezone($4, v.opened_at)) < $6)
          GROUP BY v.id, v.opened_at, v.closed_at
       ) visits WHERE recent <= $7`,
    params: [venue.id, now, new Date(now.getTime() - LEARNING_DAYS * 86_400_000), venue.timeZone, from, to, RECENT_VISITS],
  };
}
