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
  private readonly limit: number;

  constructor(config: AppConfig) {
    this.limit = config.AUTH_RATE_LIMIT;
    const opts = { points: config.AUTH_RATE_LIMIT, duration: config.AUTH_RATE_WINDOW_SECONDS, keyPrefix: 'hb-auth-fail' };
    if (config.REDIS_URL) {
      this.redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 2 });
      this.limiter = new RateLimiterRedis({ ...opts, storeClient: this.redis });
    } else {
      this.limiter = new RateLimiterMemory(opts);
    }
  }

  /** Refuses with RATE_LIMITED when any of the keys has used up its failures. */
  async assertAllowed(keys: string[]): Promise<void> {
    const states = await Promise.all(keys.map((k) => this.limiter.get(k)));
    if (states.some((s) => s !== null && s.consumedPoints >= this.limit)) throw rateLimited();
  }

  async recordFailure(keys: string[]): Promise<void> {
    await Promise.all(
      keys.map((k) =>
        this.limiter.consume(k).catch((e: unknown) => {
          if (!(e instanceof RateLimiterRes)) throw e;
        }),
      ),
    );
  }

  async reset(key: string): Promise<void> {
    await this.limiter.delete(key);
  }

  async onModuleDestroy(): Promise<void> {
    this.redis?.disconnect();
  }
}

function rateLimited(): DomainException {
  return new DomainException(ErrorCode.RATE_LIMITED, 'Too many attempts; wait a minute and try again.');
}
