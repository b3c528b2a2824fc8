import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppConfig, DomainException, ErrorCode, disconnectRedis, failFastRedis } from '@hostboard/core';

/** How long one limiter command may wait for Redis before the in-process insurance answers. */
const LIMITER_REDIS_TIMEOUT_MS = 300;

export interface LimiterOptions {
  /** What the counter counts; part of the Redis key. */
  name: string;
  points: number;
  durationSeconds: number;
}

/**
 * Makes the counters every limit uses: on Redis (shared by every api process, keys under
 * JOBS_PREFIX, which the processes of one deployment share) with an in-memory insurance limiter, so a
 * Redis outage degrades to per-process counting instead of answering 500; in memory on the embedded
 * default.
 */
@Injectable()
export class LimiterStore implements OnModuleDestroy {
  private readonly redis?: Redis;

  constructor(private readonly config: AppConfig) {
    if (config.REDIS_URL) {
      // No offline queue and a short command timeout: while Redis is down or frozen a count fails
      // at once and the insurance limiter answers (a frozen Redis costs a login well under a second).
      this.redis = failFastRedis(config.REDIS_URL, 'rate limits', LIMITER_REDIS_TIMEOUT_MS);
    }
  }

  create(o: LimiterOptions): RateLimiterAbstract {
    const opts = { points: o.points, duration: o.durationSeconds, keyPrefix: `${this.config.JOBS_PREFIX}:limit:${o.name}` };
    if (!this.redis) return new RateLimiterMemory(opts);
    const insurance = new RateLimiterMemory(opts);
    return followedByInsurance(
      new RateLimiterRedis({ ...opts, storeClient: this.redis, rejectIfRedisNotReady: true, insuranceLimiter: insurance }),
      insurance,
    );
  }

  onModuleDestroy(): void {
    if (this.redis) disconnectRedis(this.redis);
  }
}

/** What `followedByInsurance` reaches inside rate-limiter-flexible 11's store limiters (pinned in package.json). */
interface StoreInternals {
  _afterConsume(
    resolve: unknown,
    reject: unknown,
    rlKey: string,
    changedPoints: number,
    storeResult: unknown,
    options?: unknown,
  ): void;
  _getRateLimiterRes(rlKey: string, changedPoints: number, storeResult: unknown): RateLimiterRes;
}

/**
 * The insurance limiter answers only when Redis fails (down, or slower than LIMITER_REDIS_TIMEOUT_MS
 * on a loaded machine), and it used to count from zero: the first count that timed out let one more
 * through a limit Redis had reached (a CI run let a 21st join through a limit of 20). Every count
 * Redis answers is now copied into the insurance, so a process goes on from the last count it saw.
 * (Across processes each insurance knows only what Redis told it last, as before.)
 */
function followedByInsurance(limiter: RateLimiterRedis, insurance: RateLimiterMemory): RateLimiterRedis {
  const store = limiter as unknown as StoreInternals;
  const after = store._afterConsume.bind(limiter);
  store._afterConsume = (resolve, reject, rlKey, changedPoints, storeResult, options) => {
    const res = store._getRateLimiterRes(rlKey, changedPoints, storeResult);
    const seconds = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
    void insurance.set(limiter.parseKey(rlKey), res.consumedPoints, seconds).catch(() => undefined);
    after(resolve, reject, rlKey, changedPoints, storeResult, options);
  };
  return limiter;
}

/** Consumes one point; answers the refusal (how long to wait) or null when allowed. */
export async function take(limiter: RateLimiterAbstract, key: string, points = 1): Promise<RateLimiterRes | null> {
  try {
    await limiter.consume(key, points);
    return null;
  } catch (e: unknown) {
    if (e instanceof RateLimiterRes) return e;
    // Neither Redis nor the in-memory insurance could count: a clean 503, never a 500.
    throw new DomainException(ErrorCode.UNAVAILABLE, 'The service is briefly unavailable; retry shortly.');
  }
}

/** 429 RATE_LIMITED, with the wait in whole seconds (the filter also sends it as Retry-After). */
export function rateLimited(waitMs: number, message = 'Too many attempts; wait a while and try again.'): DomainException {
  return new DomainException(ErrorCode.RATE_LIMITED, message, { retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) });
}
