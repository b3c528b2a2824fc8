import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppConfig, DomainException, ErrorCode } from '@hostboard/core';

/**
 * Failed-attempt limits for login and token exchanges (rate-limiter-flexible), per address and per
 * account: AUTH_RATE_LIMIT failures in AUTH_RATE_WINDOW_SECONDS, then 429 until the window ends.
 * On Redis the counts are shared by every api process; on the embedded default they live in memory.
 */
@Injectable()
export class AttemptLimiter implements OnModuleDestroy {
  private readonly limiter: RateLimiterAbstract;
  private readonly redis?: Redis;

  constructor(config: AppConfig) {
    const opts = { points: config.AUTH_RATE_LIMIT, duration: config.AUTH_RATE_WINDOW_SECONDS, keyPrefix: 'hb-auth-fail' };
    if (config.REDIS_URL) {
      this.redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 2 });
      this.limiter = new RateLimiterRedis({ ...opts, storeClient: this.redis });
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
            throw e;
          },
        ),
      ),
    );
    if (results.some((ok) => !ok)) throw rateLimited();
  }

  /** After a success: the account's failures are forgiven; the address gets this attempt back. */
  async succeeded(resetKeys: string[], refundKeys: string[]): Promise<void> {
    await Promise.all([...resetKeys.map((k) => this.limiter.delete(k)), ...refundKeys.map((k) => this.limiter.reward(k, 1))]);
  }

  async onModuleDestroy(): Promise<void> {
    this.redis?.disconnect();
  }
}

function rateLimited(): DomainException {
  return new DomainException(ErrorCode.RATE_LIMITED, 'Too many attempts; wait a minute and try again.');
}
