import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  entityRead,
  insertEntities,
  preparedQuery,
  returningRows,
  selectEntity,
  type ChainedStep,
  type ScalarRead,
  type TogetherStatement,
} from '@hostboard/core';
import { Reservation, type ReservationState } from './reservation.entity.js';

@Injectable()
export class ReservationRepository {
  async insert(tx: EntityManager, r: Reservation): Promise<void> {
    await insertEntities(tx, Reservation, [r]);
  }

  /**
   * `insert`, sent with the transaction's COMMIT after any statement held before it (or first, before
   * any statement sent after it): for a command whose remaining statements all travel with the COMMIT.
   */
  async insertAtCommit(tx: EntityManager, r: Reservation): Promise<void> {
    await insertEntities(tx, Reservation, [r], { atCommit: true });
  }

  /**
   * A queue party's name and contact, as the host corrected them, on its booking still running (held
   * by a live offer, or confirmed): the board's table and to-seat list read the booking's name, so a
   * correction that stopped at the entry left the host seating "Jon Smit" after fixing it to "John Smith".
   */
  async followEntry(
    tx: EntityManager,
    venueId: string,
    entryId: string,
    d: { name: string; email: string | null; phone: string | null; at: Date },
  ): Promise<void> {
    await preparedQuery(
      tx,
      `UPDATE reservations SET name = $3, email = $4, phone = $5, updated_at = $6
        WHERE venue_id = $1 AND entry_id = $2 AND state IN ('HELD', 'CONFIRMED')`,
      [venueId, entryId, d.name, d.email, d.phone, d.at],
    );
  }

  /** `find` as a part of a combined read (readTogether). */
  findRead(tx: EntityManager, venueId: string, id: string): ScalarRead<Reservation | null> {
    return entityRead(tx, Reservation, 'venue_id = $1 AND id = $2', [venueId, id]);
  }

  async find(tx: EntityManager, venueId: string, id: string): Promise<Reservation | null> {
    return selectEntity(tx, Reservation, 'venue_id = $1 AND id = $2', [venueId, id]);
  }

  /**
   * Newest first, one page: `beforeId` is the last reservation of the previous page; the page holds
   * those strictly older in (created_at, id) order, in `state` alone when given. Read `limit + 1` to
   * know whether more follow.
   */
  page(
    tx: EntityManager,
    venueId: string,
    limit: number,
    beforeId: string | null,
    state?: ReservationState,
  ): Promise<Reservation[]> {
    const qb = tx
      .createQueryBuilder(Reservation, 'r')
      .where('r.venue_id = :venueId', { venueId })
      .orderBy('r.created_at', 'DESC')
      .addOrderBy('r.id', 'DESC')
      .limit(limit);
    if (state) qb.andWhere('r.state = :state', { state });
    if (beforeId) {
      qb.andWhere(
        '(r.created_at, r.id) < (SELECT c.created_at, c.id FROM reservations c WHERE c.id = :beforeId AND c.venue_id = :venueId)',
        {
          beforeId,
        },
      );
    }
    return qb.getMany();
  }

  list(tx: EntityManager, venueId: string): Promise<Reservation[]> {
    return tx.find(Reservation, { where: { venueId }, order: { createdAt: 'ASC', id: 'ASC' }, take: 5000 });
  }

  /**
   * Moves a reservation from one of `from` to `to`. Guarded by the current state, so a repeated
   * release changes nothing (invariant 6); answers whether this call made the change.
   */
  async transition(
    tx: EntityManager,
    id: string,
    from: ReservationState[],
    to: ReservationState,
    at: Date,
    reason: string | null = null,
  ): Promise<boolean> {
    const { sql, params } = this.transitionStatement(id, from, to, at, reason);
    return returningRows<{ id: string }>(await preparedQuery(tx, sql, params)).length > 0;
  }

  /** `transition` to travel with a command's new rows (insertTogether), when the caller knows it applies. */
  transitionStatement(
    id: string,
    from: ReservationState[],
    to: ReservationState,
    at: Date,
    reason: string | null = null,
  ): TogetherStatement {
    return {
      // The first move to CONFIRMED records when (a later change moves updated_at alone).
      sql: `UPDATE reservations SET state = $2, updated_at = $3, state_reason = $4,
                   confirmed_at = CASE WHEN $2 = 'CONFIRMED' THEN coalesce(confirmed_at, $3) ELSE confirmed_at END
             WHERE id = $1 AND state = ANY($5::text[]) RETURNING id`,
      params: [id, to, at, reason, from],
    };
  }

  /**
   * `transition` for the reservations of the offers a previous step of the same statement ended
   * (`source`, a step whose RETURNING has reservation_id): one no longer in `from` is left alone.
   * RETURNING, under the step's name: id, kind, party_size (the pool seats it gave back). The ids
   * are read into an array first: the planner cannot count a step's rows and, joining against them
   * row by row, made a sweep of 200 offers quadratic.
   */
  releaseStep(source: string, from: ReservationState[], to: ReservationState, at: Date, reason: string | null): ChainedStep {
    return {
      name: 'released',
      sql: `UPDATE reservations SET state = $1, updated_at = $2, state_reason = $3
             WHERE id = ANY(ARRAY(SELECT reservation_id FROM ${source})) AND state = ANY($4::text[])
         RETURNING id, kind, party_size`,
      params: [to, at, reason, from],
    };
  }
}
