import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { preparedQuery, storedAnswerOf, type KeyToRead, type PrefetchedAnswer, type TogetherStatement } from '@hostboard/core';
import { QueueSession } from './queue-session.entity.js';

/** A party's session as its requests are recognised (QueueSessionRepository.findForRequest). */
export type SessionForRequest = Pick<QueueSession, 'id' | 'entryId' | 'venueId' | 'expiresAt' | 'endedAt'> & {
  venue: { sandbox: boolean; clockNow: Date | null };
  stored?: PrefetchedAnswer['row'];
};

@Injectable()
export class QueueSessionRepository {
  async insert(tx: EntityManager, session: QueueSession): Promise<void> {
    await tx.insert(QueueSession, session);
  }

  findByHash(tx: EntityManager, tokenHash: string): Promise<QueueSession | null> {
    return tx.findOneBy(QueueSession, { tokenHash });
  }

  /**
   * What recognising a party's request needs, in one statement (every poll of the guest page pays
   * for it): the session behind a secret's hash and its venue's clock; with `key` (a keyed command's
   * Idempotency-Key, its scope around the session's id) the answer stored under it (null: none).
   */
  async findForRequest(tx: EntityManager, tokenHash: string, key?: KeyToRead): Promise<SessionForRequest | null> {
    const rows = await preparedQuery<{
      id: string;
      entry_id: string;
      venue_id: string;
      expires_at: Date;
      ended_at: Date | null;
      sandbox: boolean;
      clock_now: Date | null;
      request_hash?: string | null;
      response_status?: number | null;
      response_body?: unknown;
    }>(
      tx,
      key === undefined
        ? `SELECT s.id, s.entry_id, s.venue_id, s.expires_at, s.ended_at, v.sandbox, v.clock_now
             FROM queue_sessions s
             JOIN venues v ON v.id = s.venue_id
            WHERE s.token_hash = $1`
        : `SELECT s.id, s.entry_id, s.venue_id, s.expires_at, s.ended_at, v.sandbox, v.clock_now,
                  k.request_hash, k.response_status, k.response_body
             FROM queue_sessions s
             JOIN venues v ON v.id = s.venue_id
             LEFT JOIN idempotency_keys k ON k.scope = $2 || s.id::text || $3 AND k.key = $4
            WHERE s.token_hash = $1`,
      key === undefined ? [tokenHash] : [tokenHash, key.scope.before, key.scope.after, key.key],
    );
    const r = rows[0];
    if (!r) return null;
    const session: SessionForRequest = {
      id: r.id,
      entryId: r.entry_id,
      venueId: r.venue_id,
      expiresAt: r.expires_at,
      endedAt: r.ended_at,
      venue: { sandbox: r.sandbox, clockNow: r.clock_now },
    };
    return key === undefined ? session : { ...session, stored: storedAnswerOf(r) };
  }

  async endForEntry(tx: EntityManager, entryId: string, at: Date): Promise<void> {
    const { sql, params } = this.endForEntryStatement(entryId, at);
    await tx.query(sql, params);
  }

  /** `endForEntry` to travel with a command's new rows (insertTogether). */
  endForEntryStatement(entryId: string, at: Date): TogetherStatement {
    return { sql: 'UPDATE queue_sessions SET ended_at = $2 WHERE entry_id = $1 AND ended_at IS NULL', params: [entryId, at] };
  }
}
