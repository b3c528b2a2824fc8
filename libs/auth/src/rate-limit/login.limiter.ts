import { Injectable } from '@nestjs/common';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppConfig } from '@hostboard/core';
import { LimiterStore, rateLimited, take } from './limiter.store.js';

/** The longest back-off one (account, address) pair can reach. */
const MAX_BACKOFF_SECONDS = 24 * 3600;

/** What a login attempt must do before its password is checked. */
export interface LoginAllowance {
  /** Wait this long first (the account is under attack from many addresses). */
  slowdownMs: number;
}

/**
 * Login limits that stop guessing without handing an attacker a way to lock the owner out:
 *
 * - per (account, address): AUTH_RATE_LIMIT failures in AUTH_RATE_WINDOW_SECONDS, then that pair
 *   waits the window; each further lockout of the same pair within a day doubles the wait;
 * - per address (any account): AUTH_ADDRESS_LIMIT failures in the window, then 429 (credential
 *   stuffing from one place);
 * - per account (every address together): past AUTH_ACCOUNT_LIMIT failures in the window the
 *   account is not locked: each attempt waits AUTH_ACCOUNT_SLOWDOWN_MS, and each address gets one
 *   try per window. The owner, on an address of their own, still signs in.
 *
 * Every attempt is counted before the password is checked (atomically, so a burst cannot slip past
 * a read-then-count); a success forgives the pair and the account and refunds the address.
 */
@Injectable()
export class LoginLimiter {
  private readonly pair: RateLimiterAbstract;
  private readonly strikes: RateLimiterAbstract;
  private readonly address: RateLimiterAbstract;
  private readonly account: RateLimiterAbstract;
  private readonly strict: RateLimiterAbstract;

  constructor(
    private readonly config: AppConfig,
    store: LimiterStore,
  ) {
    const window = config.AUTH_RATE_WINDOW_SECONDS;
    this.pair = store.create({ name: 'login-pair', points: config.AUTH_RATE_LIMIT, durationSeconds: window });
    this.strikes = store.create({ name: 'login-strikes', points: 1_000_000, durationSeconds: 24 * 3600 });
    this.address = store.create({ name: 'login-address', points: config.AUTH_ADDRESS_LIMIT, durationSeconds: window });
    this.account = store.create({ name: 'login-account', points: config.AUTH_ACCOUNT_LIMIT, durationSeconds: window });
    this.strict = store.create({ name: 'login-strict', points: 1, durationSeconds: window });
  }

  async attempt(email: string, ip: string): Promise<LoginAllowance> {
    const pairKey = `${email}|${ip}`;
    const [pair, address, account] = await Promise.all([
      take(this.pair, pairKey),
      take(this.address, ip),
      take(this.account, email),
    ]);
    if (pair) {
      // The attempt that crosses the limit starts the next, doubled, back-off for this pair.
      if (pair.consumedPoints === this.config.AUTH_RATE_LIMIT + 1) {
        const strike = await this.strikes.consume(pairKey);
        const wait = Math.min(this.config.AUTH_RATE_WINDOW_SECONDS * 2 ** (strike.consumedPoints - 1), MAX_BACKOFF_SECONDS);
        await this.pair.block(pairKey, wait);
        throw rateLimited(wait * 1000);
      }
      throw rateLimited(pair.msBeforeNext);
    }
    if (address) throw rateLimited(address.msBeforeNext);
    if (!account) return { slowdownMs: 0 };
    const strict = await take(this.strict, pairKey);
    if (strict) throw rateLimited(strict.msBeforeNext);
    return { slowdownMs: this.config.AUTH_ACCOUNT_SLOWDOWN_MS };
  }

  async succeeded(email: string, ip: string): Promise<void> {
    const pairKey = `${email}|${ip}`;
    await Promise.all([
      this.pair.delete(pairKey),
      this.strikes.delete(pairKey),
      this.strict.delete(pairKey),
      this.account.delete(email),
      this.address.reward(ip, 1),
    ]);
  }
}
