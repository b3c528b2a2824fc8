import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { requestContext } from '../request-context/request-context.js';
import { insertEntities, type PendingInsert } from '../transaction/entity-rows.js';
import { HistoryRow } from './history.entity.js';

export interface HistoryChange {
  venueId: string | null;
  subjectType: string;
  subjectId: string;
  from: string | null;
  to: string;
  at: Date;
  operationId: string;
  reason?: string | null;
  /** Defaults to the calling principal. */
  actor?: string;
}

export interface HistoryView {
  at: string;
  subjectType: string;
  subjectId: string;
  from: string | null;
  to: string;
  operationId: string;
  actor: string;
  reason: string | null;
}

/** Appends history rows inside the caller's transaction (invariant 5). */
@Injectable()
export class HistoryWriter {
  async append(tx: EntityManager, ...changes: HistoryChange[]): Promise<void> {
    if (changes.length === 0) return;
    const { target, rows } = this.rows(...changes);
    await insertEntities(tx, target, rows);
  }

  /** The rows `append` writes, for a caller that writes them together with its other rows. */
  rows(...changes: HistoryChange[]): PendingInsert<HistoryRow> {
    return {
      target: HistoryRow,
      rows: changes.map((c): Omit<HistoryRow, 'id'> => ({
        venueId: c.venueId,
        subjectType: c.subjectType,
        subjectId: c.subjectId,
        fromState: c.from,
        toState: c.to,
        at: c.at,
        actor: c.actor ?? requestContext.actor(),
        operationId: c.operationId,
        reason: c.reason ?? null,
      })),
    };
  }

  async list(tx: EntityManager, venueId: string, subjectId?: string): Promise<HistoryView[]> {
    const rows = await tx.find(HistoryRow, {
      where: subjectId ? { venueId, subjectId } : { venueId },
      order: { at: 'ASC', id: 'ASC' },
      take: 5000,
    });
    return rows.map(toHistoryView);
  }

  /**
   * Newest first, one page: `before` is the id of the last row of the previous page; the page holds
   * the rows strictly older in (at, id) order. Read `limit + 1` rows to know whether more follow.
   */
  async page(
    tx: EntityManager,
    venueId: string,
    opts: { subjectId?: string; limit: number; beforeId?: string | null },
  ): Promise<Array<HistoryView & { id: string }>> {
    const qb = tx
      .createQueryBuilder(HistoryRow, 'h')
      .where('h.venue_id = :venueId', { venueId })
      .orderBy('h.at', 'DESC')
      .addOrderBy('h.id', 'DESC')
      .limit(opts.limit);
    if (opts.subjectId) qb.andWhere('h.subject_id = :subjectId', { subjectId: opts.subjectId });
    if (opts.beforeId) {
      // An unknown cursor matches no row, so the page is empty rather than restarting at the top.
      qb.andWhere('(h.at, h.id) < (SELECT c.at, c.id FROM history c WHERE c.id = :beforeId AND c.venue_id = :venueId)', {
        beforeId: opts.beforeId,
      });
    }
    const rows = await qb.getMany();
    // bigint: a string on PostgreSQL, a number on the embedded database
    return rows.map((r) => ({ id: String(r.id), ...toHistoryView(r) }));
  }
}

function toHistoryView(r: HistoryRow): HistoryView {
  return {
    at: r.at.toISOString(),
    subjectType: r.subjectType,
    subjectId: r.subjectId,
    from: r.fromState,
    to: r.toState,
    operationId: r.operationId,
    actor: r.actor,
    reason: r.reason,
  };
}
