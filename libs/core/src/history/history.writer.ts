import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { requestContext } from '../request-context/request-context.js';
import { insertEntities } from '../transaction/entity-rows.js';
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
    await insertEntities(
      tx,
      HistoryRow,
      changes.map((c): Omit<HistoryRow, 'id'> => ({
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
    );
  }

  async list(tx: EntityManager, venueId: string, subjectId?: string): Promise<HistoryView[]> {
    const rows = await tx.find(HistoryRow, {
      where: subjectId ? { venueId, subjectId } : { venueId },
      order: { at: 'ASC', id: 'ASC' },
      take: 5000,
    });
    return rows.map((r) => ({
      at: r.at.toISOString(),
      subjectType: r.subjectType,
      subjectId: r.subjectId,
      from: r.fromState,
      to: r.toState,
      operationId: r.operationId,
      actor: r.actor,
      reason: r.reason,
    }));
  }
}
