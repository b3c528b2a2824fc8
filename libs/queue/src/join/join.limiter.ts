import { Injectable } from '@nestjs/common';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppConfig } from '@hostboard/core';
import { LimiterStore, rateLimited, take } from '@hostboard/auth';

const TOO_MANY = 'Too many people joined from here just now; wait a few minutes and try again.';
const VENUE_BUSY = 'This queue is taking too many joins right now; wait a few minutes and try again.';

/**
 * Abuse limits of the anonymous public join (each join records an email to an address the caller
 * chose): JOIN_RATE_PER_ADDRESS per address and JOIN_RATE_PER_VENUE per venue in
 * JOIN_RATE_WINDOW_SECONDS, then 429 RATE_LIMITED with Retry-After. Desk joins are staff and not limited.
 */
@Injectable()
export class JoinLimiter {
  private readonly byAddress: RateLimiterAbstract;
  private readonly byVenue: RateLimiterAbstract;

  constructor(config: AppConfig, store: LimiterStore) {
    const durationSeconds = config.JOIN_RATE_WINDOW_SECONDS;
    this.byAddress = store.create({ name: 'join-address', points: config.JOIN_RATE_PER_ADDRESS, durationSeconds });
    this.byVenue = store.create({ name: 'join-venue', points: config.JOIN_RATE_PER_VENUE, durationSeconds });
  }

  /** Before the venue is looked up, so scanning for slugs is limited too. */
  async fromAddress(ip: string): Promise<void> {
    const refused = await take(this.byAddress, ip);
    if (refused) throw rateLimited(refused.msBeforeNext, TOO_MANY);
  }

  async intoVenue(venueId: string): Promise<void> {
    const refused = await take(this.byVenue, venueId);
    if (refused) throw rateLimited(refused.msBeforeNext, VENUE_BUSY);
  }
}
