import { Injectable } from '@nestjs/common';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppConfig } from '@hostboard/core';
import { LimiterStore, rateLimited, take } from './limiter.store.js';

/**
 * Failed-attempt limits for token exchanges (queue tokens, booking links, invitations), per address:
 * AUTH_RATE_LIMIT failures in AUTH_RATE_WINDOW_SECONDS, then 429 with Retry-After until the window
 * ends. Logins have their own policy (LoginLimiter).
 */
@Injectable()
export class AttemptLimiter {
  private readonly limiter: RateLimiterAbstract;

  constructor(config: AppConfig, store: LimiterStore) {
    this.limiter = store.create({ name: 'token-fail', points: config.AUTH_RATE_LIMIT, durationSeconds: config.AUTH_RATE_WINDOW_SECONDS });
  }

  /**
   * Counts an attempt on every key before the secret is checked, atomically (so concurrent attempts
   * cannot all slip past a read-then-count), and refuses with RATE_LIMITED once any key is used up.
   * A successful attempt gives its point back (`succeeded`), so only failures accumulate.
   */
  async attempt(keys: string[]): Promise<void> {
    const refusals = (await Promise.all(keys.map((k) => take(this.limiter, k)))).filter((r) => r !== null);
    if (refusals.length > 0) throw rateLimited(Math.max(...refusals.map((r) => r.msBeforeNext)));
  }

  /** After a success: `resetKeys` are forgiven; `refundKeys` get this attempt back. */
  async succeeded(resetKeys: string[], refundKeys: string[]): Promise<void> {
    await Promise.all([...resetKeys.map((k) => this.limiter.delete(k)), ...refundKeys.map((k) => this.limiter.reward(k, 1))]);
  }
}
