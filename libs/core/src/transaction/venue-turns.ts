import { DomainException } from '../errors/domain.exception.js';
import { ErrorCode } from '../errors/error-code.js';

/**
 * One venue's command transactions that may hold a database connection at once in this process.
 * They take turns on the venue's row lock anyway, so more buy nothing; the rest wait here, without
 * a connection. Before, a session stuck holding one venue's lock (a client gone mid-transaction, an
 * api process frozen or cut off mid-command, an open psql) kept every one of that venue's commands
 * waiting on a pooled connection: a few retrying tablets took the whole pool, and every other venue
 * on the process answered 503 too.
 */
export const VENUE_TRANSACTIONS_AT_ONCE = 2;
/** A command waiting this long for its venue's turn answers 503 "retry shortly" (the pool's own wait for a connection). */
export const VENUE_TURN_WAIT_MS = 5000;

interface Turns {
  running: number;
  waiting: Array<() => void>;
}

/** Per-venue turns for command transactions, in this process. */
export class VenueTurns {
  private readonly venues = new Map<string, Turns>();

  constructor(
    private readonly atOnce = VENUE_TRANSACTIONS_AT_ONCE,
    private readonly waitMs = VENUE_TURN_WAIT_MS,
    private readonly onTimeout: (venueId: string, running: number) => void = () => undefined,
  ) {}

  /** Runs `fn` in one of the venue's turns; without a venue, at once. */
  async take<T>(venueId: string | undefined, fn: () => Promise<T>): Promise<T> {
    if (venueId === undefined) return fn();
    await this.enter(venueId);
    try {
      return await fn();
    } finally {
      this.leave(venueId);
    }
  }

  private enter(venueId: string): Promise<void> {
    const turns = this.venues.get(venueId) ?? { running: 0, waiting: [] };
    this.venues.set(venueId, turns);
    if (turns.running < this.atOnce) {
      turns.running++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const go = (): void => {
        clearTimeout(timer);
        turns.running++;
        resolve();
      };
      const timer = setTimeout(() => {
        turns.waiting.splice(turns.waiting.indexOf(go), 1);
        this.onTimeout(venueId, turns.running);
        reject(new DomainException(ErrorCode.UNAVAILABLE, 'The service is briefly unavailable; retry shortly.'));
      }, this.waitMs);
      turns.waiting.push(go);
    });
  }

  private leave(venueId: string): void {
    const turns = this.venues.get(venueId);
    if (!turns) return;
    turns.running--;
    const next = turns.waiting.shift();
    if (next) next();
    else if (turns.running === 0) this.venues.delete(venueId);
  }
}
