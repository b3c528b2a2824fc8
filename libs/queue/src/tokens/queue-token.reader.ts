import { Injectable } from '@nestjs/common';
import { limitAddress, readTogether, TransactionRunner } from '@hostboard/core';
import { AttemptLimiter } from '@hostboard/auth';
import { VenueClock } from '@hostboard/venue';
import { tokenInvalid } from '../sessions/queue-session.service.js';
import { queueCodeHashes } from './queue-code.js';
import { QueueTokenRepository } from './queue-token.repository.js';

/**
 * Reads which entry an open queue token belongs to, without using it: the party's page shows where
 * it stands while it merely waits, and spends the token (a 60-minute session) only when it acts.
 * Wrong guesses count against the address as exchanges do (`AttemptLimiter.secretCheck`).
 */
@Injectable()
export class QueueTokenReader {
  constructor(
    private readonly tx: TransactionRunner,
    private readonly clock: VenueClock,
    private readonly tokens: QueueTokenRepository,
    private readonly limiter: AttemptLimiter,
  ) {}

  /** The open token's entry (not used, not replaced, strictly before its expiry), or TOKEN_INVALID. */
  entryOf(token: string): Promise<{ venueId: string; entryId: string }> {
    const addressKey = `queue-status:ip:${limitAddress()}`;
    return this.limiter.secretCheck([addressKey], () => this.read(token));
  }

  private async read(token: string): Promise<{ venueId: string; entryId: string }> {
    const hashes = queueCodeHashes(token);
    const found =
      hashes.length > 0
        ? await this.tx.read(async (m) => {
            // One statement, the token with its venue: the page polls by its token every 3 seconds.
            // The code as given first (the page's own link carries it exactly): a second read only
            // for a code typed otherwise than it was issued.
            for (const hash of hashes) {
              const { token: t, venue } = await readTogether(m, this.tokens.findByHashReads(m, hash));
              if (t && venue) return { t, now: this.clock.now(venue) };
            }
            return null;
          })
        : null;
    if (!found || found.t.usedAt !== null || found.t.replacedAt !== null || !(found.now.getTime() < found.t.expiresAt.getTime()))
      throw tokenInvalid();
    return { venueId: found.t.venueId, entryId: found.t.entryId };
  }
}
