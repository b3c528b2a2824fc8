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

  /**
   * The open token's entry (not used, not replaced, strictly before its expiry), or TOKEN_INVALID.
   * With `lapsed: 'answer'`, a token that is still open but past its expiry (the end of its business
   * day) answers its entry too, marked `lapsed`: the caller says why it reads nothing any more.
   */
  entryOf(token: string, options: { lapsed?: 'answer' } = {}): Promise<{ venueId: string; entryId: string; lapsed?: true }> {
    const addressKey = `queue-status:ip:${limitAddress()}`;
    return this.limiter.secretCheck([addressKey], () => this.read(token, options.lapsed === 'answer'));
  }

  private async read(token: string, answerLapsed: boolean): Promise<{ venueId: string; entryId: string; lapsed?: true }> {
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
    if (!found || found.t.usedAt !== null || found.t.replacedAt !== null) throw tokenInvalid();
    if (!(found.now.getTime() < found.t.expiresAt.getTime())) {
      if (!answerLapsed) throw tokenInvalid();
      return { venueId: found.t.venueId, entryId: found.t.entryId, lapsed: true };
    }
    return { venueId: found.t.venueId, entryId: found.t.entryId };
  }
}
