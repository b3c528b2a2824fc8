import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { hashSecret, newSecretToken } from '@hostboard/auth';
import type { Venue } from '@hostboard/venue';
import type { QueueEntry } from '../entries/queue-entry.entity.js';
import { QueueTokenRepository } from './queue-token.repository.js';
import { queueTokenExpiry } from './token-expiry.js';

export interface IssuedToken {
  /** The secret (43 characters, base64url of 32 random bytes): shown once, never stored. */
  queueToken: string;
  expiresAt: Date;
}

/** Issues queue tokens inside the caller's transaction (a join, a replacement). */
@Injectable()
export class QueueTokenService {
  constructor(private readonly tokens: QueueTokenRepository) {}

  async issue(tx: EntityManager, venue: Pick<Venue, 'id' | 'timeZone'>, entry: QueueEntry, now: Date): Promise<IssuedToken> {
    const secret = newSecretToken();
    const expiresAt = queueTokenExpiry(entry.businessDate, venue.timeZone, now);
    await this.tokens.insert(tx, {
      id: randomUUID(),
      venueId: venue.id,
      entryId: entry.id,
      tokenHash: hashSecret(secret),
      createdAt: now,
      expiresAt,
      usedAt: null,
      replacedAt: null,
    });
    return { queueToken: secret, expiresAt };
  }

  /** A new token for the entry; the open one, if any, answers TOKEN_INVALID from now on. */
  async replace(tx: EntityManager, venue: Pick<Venue, 'id' | 'timeZone'>, entry: QueueEntry, now: Date): Promise<IssuedToken> {
    await this.tokens.replaceOpen(tx, entry.id, now);
    return this.issue(tx, venue, entry, now);
  }
}
