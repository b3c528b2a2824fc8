import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { PendingInsert } from '@hostboard/core';
import { hashSecret } from '@hostboard/auth';
import type { Venue } from '@hostboard/venue';
import type { QueueEntry } from '../entries/queue-entry.entity.js';
import { newQueueCode } from './queue-code.js';
import { QueueToken } from './queue-token.entity.js';
import { QueueTokenRepository } from './queue-token.repository.js';
import { queueTokenExpiry } from './token-expiry.js';

export interface IssuedToken {
  /** The secret (43 characters of Crockford's base 32, `queue-code.ts`): shown once, never stored. */
  queueToken: string;
  expiresAt: Date;
}

/** Issues queue tokens inside the caller's transaction (a join, a replacement). */
@Injectable()
export class QueueTokenService {
  constructor(private readonly tokens: QueueTokenRepository) {}

  async issue(tx: EntityManager, venue: Pick<Venue, 'id' | 'timeZone'>, entry: QueueEntry, now: Date): Promise<IssuedToken> {
    const { token, insert } = this.issued(venue, entry, now);
    await this.tokens.insert(tx, insert.rows[0] as QueueToken);
    return token;
  }

  /** A new token and the row that stores its hash, for a caller that writes the row with its others. */
  issued(
    venue: Pick<Venue, 'id' | 'timeZone'>,
    entry: QueueEntry,
    now: Date,
  ): { token: IssuedToken; insert: PendingInsert<QueueToken> } {
    const secret = newQueueCode();
    const expiresAt = queueTokenExpiry(entry.businessDate, venue.timeZone, now);
    const row: QueueToken = {
      id: randomUUID(),
      venueId: venue.id,
      entryId: entry.id,
      tokenHash: hashSecret(secret),
      createdAt: now,
      expiresAt,
      usedAt: null,
      replacedAt: null,
    };
    return { token: { queueToken: secret, expiresAt }, insert: { target: QueueToken, rows: [row] } };
  }

  /** A new token for the entry; the open one, if any, answers TOKEN_INVALID from now on. */
  async replace(tx: EntityManager, venue: Pick<Venue, 'id' | 'timeZone'>, entry: QueueEntry, now: Date): Promise<IssuedToken> {
    await this.tokens.replaceOpen(tx, entry.id, now);
    return this.issue(tx, venue, entry, now);
  }
}
