import { Injectable } from '@nestjs/common';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppConfig, DomainException, ErrorCode } from '@hostboard/core';
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
    this.limiter = store.create({
      name: 'token-fail',
      points: config.AUTH_RATE_LIMIT,
      durationSeconds: config.AUTH_RATE_WINDOW_SECONDS,
    });
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

  /**
   * A guest's secret (a queue token, a booking link) checked against the address's failures: `check`
   * runs even past the limit, and a secret that proves itself is honoured. Guests on one venue's
   * Wi-Fi, or one carrier's shared address, share a count that anyone there could use up; a 256-bit
   * secret cannot be guessed, so the limit need only keep failures cheap. Past the limit every
   * refusal of the secret reads RATE_LIMITED, so the answer says nothing about it (unknown, used,
   * expired, replaced). Below it, a success gives its point back.
   */
  async secretCheck<T>(keys: string[], check: () => Promise<T>): Promise<T> {
    let limited: DomainException | null = null;
    try {
      await this.attempt(keys);
    } catch (err) {
      if (!(err instanceof DomainException && err.code === ErrorCode.RATE_LIMITED)) throw err;
      limited = err;
    }
    let result: T;
    try {
      result = await check();
    } catch (err) {
      if (limited && err instanceof DomainException && err.code === ErrorCode.TOKEN_INVALID) throw limited;
      throw err;
    }
    if (!limited) await this.succeeded([], keys);
    return result;
  }

  /** After a success: `resetKeys` are forgiven; `refundKeys` get this attempt back. */
  async succeeded(resetKeys: string[], refundKeys: string[]): Promise<void> {
    await Promise.all([...resetKeys.map((k) => this.limiter.delete(k)), ...refundKeys.map((k) => this.limiter.reward(k, 1))]);
  }
}
