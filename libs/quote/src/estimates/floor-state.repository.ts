import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { CompletedVisit } from '../floor/learned-turns.js';

/** How far back completed visits are read to learn turn lengths. */
const LEARNING_DAYS = 56;
/** Enough visits for every capacity and daypart to find its most recent ones. */
const LEARNING_ROWS = 2000;

/** The SQL the floor-aware quote reads: who waits ahead, and the venue's completed visits. */
@Injectable()
export class FloorStateRepository {
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

  /** Completed visits (seat → clear) before `now`, newest first, with the seats of their tables. */
  async completedVisits(tx: EntityManager, venueId: string, now: Date): Promise<CompletedVisit[]> {
    const rows: Array<{ opened_at: Date; closed_at: Date; capacity: number }> = await tx.query(
      `SELECT v.opened_at, v.closed_at, sum(t.capacity)::int AS capacity
         FROM visits v
         JOIN reservation_tables rt ON rt.reservation_id = v.reservation_id
         JOIN venue_tables t ON t.id = rt.table_id
        WHERE v.venue_id = $1 AND v.closed_at IS NOT NULL AND v.closed_at <= $2 AND v.closed_at > $3
        GROUP BY v.id, v.opened_at, v.closed_at
        ORDER BY v.closed_at DESC
        LIMIT ${LEARNING_ROWS}`,
      [venueId, now, new Date(now.getTime() - LEARNING_DAYS * 86_400_000)],
    );
    return rows.map((r) => ({ openedAt: new Date(r.opened_at), closedAt: new Date(r.closed_at), capacity: Number(r.capacity) }));
  }
}
