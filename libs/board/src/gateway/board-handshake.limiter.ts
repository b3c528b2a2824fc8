import { Injectable } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { LimiterStore } from '@hostboard/auth';
import { AppConfig, forwardedAddress, limitAddress } from '@hostboard/core';

/**
 * Failed board handshakes (a token that is no session) allowed from one address in a window.
 * A tablet fails once, when its session has ended, and then stops: a restaurant's tablets behind one
 * address stay far inside it, while a script's made-up tokens each cost a session read.
 */
export const BOARD_HANDSHAKE_FAILURES = { points: 100, durationSeconds: 60 };
/** The handshake's refusal past that limit (connect_error's message); the board page tries again later. */
export const HANDSHAKE_RATE_LIMITED = 'RATE_LIMITED';

/**
 * Per-address failed board handshakes, counted where the sign-in limits are (Redis with REDIS_URL,
 * shared by every api process): each handshake takes a point before its session is read and one that
 * succeeds (or meets a database away for a moment) gives it back, so only failures accumulate. Past
 * the limit a handshake is refused at once, before any read: from that address, tablets too, until
 * the window ends (the board page tries again by itself).
 */
@Injectable()
export class BoardHandshakeLimiter {
  private readonly limiter: RateLimiterAbstract;

  constructor(
    private readonly config: AppConfig,
    store: LimiterStore,
  ) {
    this.limiter = store.create({ name: 'board-handshake-fail', ...BOARD_HANDSHAKE_FAILURES });
  }

  /** The address the limit counts, by the rules the HTTP limits use (TRUST_PROXY, IPv6 by /64). */
  addressOf(req: Pick<IncomingMessage, 'headers' | 'socket'>): string {
    return limitAddress(forwardedAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], this.config.trustProxy));
  }

  /** Takes a point for a handshake about to be checked; false when the address is past its limit. */
  async attempt(address: string): Promise<boolean> {
    try {
      await this.limiter.consume(address);
      return true;
    } catch (e: unknown) {
      if (e instanceof Error) throw e;
      return false;
    }
  }

  /** The handshake was not a failure of its token: its point is given back. */
  async forgive(address: string): Promise<void> {
    await this.limiter.reward(address, 1).catch(() => undefined);
  }
}
