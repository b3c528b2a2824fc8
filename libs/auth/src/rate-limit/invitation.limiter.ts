import { Injectable } from '@nestjs/common';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppConfig, limitAddress } from '@hostboard/core';
import { LimiterStore, rateLimited, take } from './limiter.store.js';

const TOO_MANY = 'Too many invitation emails were sent just now, by you or to this address; wait a while and try again.';

/**
 * Abuse limits of invitation emails: any signed-in user may open a venue, name it as they like and
 * have its invitation sent to any address. INVITE_RATE_PER_INVITER emails per inviting account and
 * per address it invites from (accounts a venue creates are free to make, the address is not), and
 * INVITE_RATE_PER_RECIPIENT per recipient from every venue together, in INVITE_RATE_WINDOW_SECONDS;
 * then 429 RATE_LIMITED with Retry-After. The answer does not say which limit, so it tells nothing
 * about who else invited the address.
 */
@Injectable()
export class InvitationLimiter {
  private readonly byInviter: RateLimiterAbstract;
  private readonly byRecipient: RateLimiterAbstract;

  constructor(config: AppConfig, store: LimiterStore) {
    const durationSeconds = config.INVITE_RATE_WINDOW_SECONDS;
    this.byInviter = store.create({ name: 'invite-inviter', points: config.INVITE_RATE_PER_INVITER, durationSeconds });
    this.byRecipient = store.create({ name: 'invite-recipient', points: config.INVITE_RATE_PER_RECIPIENT, durationSeconds });
  }

  /**
   * Counts one email before it is recorded (atomically, so a burst cannot slip past a read-then-count).
   * The inviter's counts come first and a refused send gives back what it took, so a spammer held back
   * by their own limit does not use up a recipient's, nor a recipient's limit an inviter's.
   */
  async email(inviterId: string, recipient: string): Promise<void> {
    const inviterKeys = [`user:${inviterId}`, `ip:${limitAddress()}`];
    const taken: string[] = [];
    try {
      for (const key of inviterKeys) {
        const refused = await take(this.byInviter, key);
        if (refused) throw rateLimited(refused.msBeforeNext, TOO_MANY);
        taken.push(key);
      }
      const refused = await take(this.byRecipient, recipient);
      if (refused) throw rateLimited(refused.msBeforeNext, TOO_MANY);
    } catch (err) {
      await Promise.all(taken.map((k) => this.byInviter.reward(k, 1)));
      throw err;
    }
  }
}
