import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { preparedQuery, returningRows, storedAnswerOf, type KeyToRead, type PrefetchedAnswer, type Role } from '@hostboard/core';
import { StaffSession } from './staff-session.entity.js';

/** What deciding whether a session is live needs. */
export type SessionRow = Pick<StaffSession, 'id' | 'userId' | 'tokenHash' | 'expiresAt' | 'endedAt'>;

/**
 * A session row with the user's role at one venue (null: not a member), read in one round trip; with
 * the answer stored under a keyed request's Idempotency-Key when the read was asked for it (null: none).
 */
export type SessionWithRole = SessionRow & { role: Role | null; stored?: PrefetchedAnswer['row'] };

@Injectable()
export class StaffSessionRepository {
  async insert(tx: EntityManager, session: Omit<StaffSession, 'id' | 'endedAt'>): Promise<void> {
    await tx.insert(StaffSession, { ...session, endedAt: null });
  }

  findByTokenHash(tx: EntityManager, tokenHash: string): Promise<StaffSession | null> {
    return tx.findOneBy(StaffSession, { tokenHash });
  }

  /**
   * The session and the role behind a venue route, in one statement: every staff request pays for
   * this, so it is one round trip rather than two. With `key` (a keyed command's Idempotency-Key, and
   * its scope around the user's id: `scopeAroundCaller`) the same statement reads the answer stored
   * under the key for this session's user, which the Idempotency-Key interceptor would otherwise read next.
   */
  async findWithRole(tx: EntityManager, tokenHash: string, venueId: string, key?: KeyToRead): Promise<SessionWithRole | null> {
    const rows: Array<{
      id: string;
      user_id: string;
      token_hash: string;
      expires_at: Date;
      ended_at: Date | null;
      role: Role | null;
      request_hash?: string | null;
      response_status?: number | null;
      response_body?: unknown;
    }> = await preparedQuery(
      tx,
      key === undefined
        ? `SELECT s.id, s.user_id, s.token_hash, s.expires_at, s.ended_at, m.role
             FROM staff_sessions s
             LEFT JOIN venue_memberships m ON m.user_id = s.user_id AND m.venue_id = $2
            WHERE s.token_hash = $1`
        : `SELECT s.id, s.user_id, s.token_hash, s.expires_at, s.ended_at, m.role,
                  k.request_hash, k.response_status, k.response_body
             FROM staff_sessions s
             LEFT JOIN venue_memberships m ON m.user_id = s.user_id AND m.venue_id = $2
             LEFT JOIN idempotency_keys k ON k.scope = $3 || s.user_id::text || $4 AND k.key = $5
            WHERE s.token_hash = $1`,
      key === undefined ? [tokenHash, venueId] : [tokenHash, venueId, key.scope.before, key.scope.after, key.key],
    );
    const r = rows[0];
    if (!r) return null;
    const session = {
      id: r.id,
      userId: r.user_id,
      tokenHash: r.token_hash,
      expiresAt: r.expires_at,
      endedAt: r.ended_at,
      role: r.role,
    };
    if (key === undefined) return session;
    return { ...session, stored: storedAnswerOf(r) };
  }

  /** Ends every live session of a user (but `exceptId`); answers the ids it ended. */
  async endAllOf(tx: EntityManager, userId: string, at: Date, exceptId?: string): Promise<string[]> {
    const rows: unknown = await tx.query(
      `UPDATE staff_sessions SET ended_at = $2
        WHERE user_id = $1 AND ended_at IS NULL AND ($3::uuid IS NULL OR id <> $3::uuid)
        RETURNING id`,
      [userId, at, exceptId ?? null],
    );
    return returningRows<{ id: string }>(rows).map((r) => r.id);
  }

  /**
   * For the board's periodic re-check: of these sessions, which are still live at `now`, and the
   * venues their user is a member of now.
   */
  async liveWithVenues(tx: EntityManager, ids: string[], now: Date): Promise<Map<string, string[]>> {
    if (ids.length === 0) return new Map();
    const rows: Array<{ id: string; venues: string[] | null }> = await tx.query(
      `SELECT s.id, ARRAY(SELECT m.venue_id::text FROM venue_memberships m WHERE m.user_id = s.user_id) AS venues
         FROM staff_sessions s
        WHERE s.id = ANY($1::uuid[]) AND s.ended_at IS NULL AND s.expires_at > $2`,
      [ids, now],
    );
    return new Map(rows.map((r) => [r.id, r.venues ?? []]));
  }

  /** Ends a session once; a second logout changes nothing. */
  async end(tx: EntityManager, id: string, at: Date): Promise<void> {
    await tx
      .createQueryBuilder()
      .update(StaffSession)
      .set({ endedAt: at })
      .where('id = :id AND ended_at IS NULL', { id })
      .execute();
  }
}
