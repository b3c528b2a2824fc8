import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppConfig, DomainException, ErrorCode, failFastRedis } from '@hostboard/core';

/** How long one limiter command may wait for Redis before the in-process insurance answers. */
const LIMITER_REDIS_TIMEOUT_MS = 300;

/**
 * Failed-attempt limits for login and token exchanges (rate-limiter-flexible), per address and per
 * account: AUTH_RATE_LIMIT failures in AUTH_RATE_WINDOW_SECONDS, then 429 until the window ends.
 * On Redis the counts are shared by every api process; on the embedded default they live in memory.
 * While Redis is down (or slow) each process counts in its own memory instead (the insurance
 * limiter), so login and token exchange go on being limited and never wait for Redis or fail.
 */
@Injectable()
export class AttemptLimiter implements OnModuleDestroy {
  private readonly limiter: RateLimiterAbstract;
  private readonly redis?: Redis;

  constructor(config: AppConfig) {
    const opts = { points: config.AUTH_RATE_LIMIT, duration: config.AUTH_RATE_WINDOW_SECONDS, keyPrefix: 'hb-auth-fail' };
    if (config.REDIS_URL) {
      // A frozen Redis costs a login at most this twice (count, then forgive): well under a second.
      this.redis = failFastRedis(config.REDIS_URL, 'login limits', LIMITER_REDIS_TIMEOUT_MS);
      this.limiter = new RateLimiterRedis({
        ...opts,
        storeClient: this.redis,
        rejectIfRedisNotReady: true,
        insuranceLimiter: new RateLimiterMemory(opts),
      });
    } else {
      this.limiter = new RateLimiterMemory(opts);
    }
  }

  /**
   * Counts an attempt on every key before the secret is checked, atomically (so concurrent attempts
   * cannot all slip past a read-then-count), and refuses with RATE_LIMITED once any key is used up.
   * A successful attempt gives its point back (`succeeded`), so only failures accumulate.
   */
  async attempt(keys: string[]): Promise<void> {
    const results = await Promise.all(
      keys.map((k) =>
        this.limiter.consume(k).then(
          () => true,
          (e: unknown) => {
            if (e instanceof RateLimiterRes) return false;
            throw unavailable();
          },
        ),
      ),
    );
    if (results.some((ok) => !ok)) throw rateLimited();
  }

  /** After a success: the account's failures are forgiven; the address gets this attempt back. */
  async succeeded(resetKeys: string[], refundKeys: string[]): Promise<void> {
    // The secret was right: a counter that cannot be updated now must not turn the success into an error.
    await Promise.all([
      ...resetKeys.map((k) => this.limiter.delete(k)),
      ...refundKeys.map((k) => this.limiter.reward(k, 1)),
    ]).catch(() => undefined);
  }

  async onModuleDestroy(): Promise<void> {
    this.redis?.disconnect();
  }
}

/** Neither Redis nor the in-memory insurance could count: a clean 503, never a 500. */
function unavailable(): DomainException {
  return new DomainException(ErrorCode.UNAVAILABLE, 'The service is briefly unavailable; retry shortly.');
}

function rateLimited(): DomainException {
  return new DomainException(ErrorCode.RATE_LIMITED, 'Too many attempts; wait a minute and try again.');
}
