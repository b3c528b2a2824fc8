import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { entityRead, insertEntities, returningRows, type ScalarRead, type TogetherStatement } from '@hostboard/core';
import { Venue } from '@hostboard/venue';
import { QueueToken } from './queue-token.entity.js';

@Injectable()
export class QueueTokenRepository {
  async insert(tx: EntityManager, token: QueueToken): Promise<void> {
    await insertEntities(tx, QueueToken, [token]);
  }

  findByHash(tx: EntityManager, tokenHash: string): Promise<QueueToken | null> {
    return tx.findOneBy(QueueToken, { tokenHash });
  }

  /** The first of `tokenHashes` (a code as typed, then as read: `queueCodeHashes`) that is stored. */
  async findByHashes(tx: EntityManager, tokenHashes: string[]): Promise<QueueToken | null> {
    for (const tokenHash of tokenHashes) {
      const found = await this.findByHash(tx, tokenHash);
      if (found) return found;
    }
    return null;
  }

  /**
   * `findByHash` with the token's venue (whose clock says whether it is still open), as parts of one
   * combined read: a party's page reads by its token every few seconds.
   */
  findByHashReads(
    tx: EntityManager,
    tokenHash: string,
  ): { token: ScalarRead<QueueToken | null>; venue: ScalarRead<Venue | null> } {
    return {
      token: entityRead(tx, QueueToken, 'token_hash = $1', [tokenHash]),
      venue: entityRead(tx, Venue, 'id = (SELECT t.venue_id FROM queue_tokens t WHERE t.token_hash = $1)', [tokenHash]),
    };
  }

  /**
   * Uses the token once: only an open token (not used, not replaced) strictly before its expiry.
   * The condition is in the UPDATE, so two racing exchanges cannot both succeed. Answers the entry.
   */
  async use(tx: EntityManager, id: string, now: Date): Promise<string | null> {
    const rows = returningRows<{ entry_id: string }>(
      await tx.query(
        `UPDATE queue_tokens SET used_at = $2
          WHERE id = $1 AND used_at IS NULL AND replaced_at IS NULL AND expires_at > $2
          RETURNING entry_id`,
        [id, now],
      ),
    );
    return rows[0]?.entry_id ?? null;
  }

  /** Retires the entry's open token (staff issue a new one); a used one stays as it is. */
  async replaceOpen(tx: EntityManager, entryId: string, now: Date): Promise<void> {
    const { sql, params } = this.replaceOpenStatement(entryId, now);
    await tx.query(sql, params);
  }

  /** `replaceOpen` to travel with a command's new rows (insertTogether). */
  replaceOpenStatement(entryId: string, now: Date): TogetherStatement {
    return {
      sql: 'UPDATE queue_tokens SET replaced_at = $2 WHERE entry_id = $1 AND used_at IS NULL AND replaced_at IS NULL',
      params: [entryId, now],
    };
  }
}
