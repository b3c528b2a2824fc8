import { Injectable } from '@nestjs/common';
import type { Socket } from 'socket.io';

/**
 * A token bucket: `burst` at once, then one more every `refillMs`. Refusing past it (rather than
 * queueing) keeps a flooding socket's cost to a check per message.
 */
export class TokenBucket {
  private tokens: number;
  private at: number;

  constructor(
    private readonly burst: number,
    private readonly refillMs: number,
    now: number,
  ) {
    this.tokens = burst;
    this.at = now;
  }

  take(now: number): boolean {
    this.refill(now);
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** Whether the bucket has refilled completely (an idle entry that can be forgotten). */
  full(now: number): boolean {
    this.refill(now);
    return this.tokens >= this.burst;
  }

  private refill(now: number): void {
    const gained = Math.floor((now - this.at) / this.refillMs);
    if (gained <= 0) return;
    this.tokens = Math.min(this.burst, this.tokens + gained);
    this.at = this.tokens >= this.burst ? now : this.at + gained * this.refillMs;
  }
}

export interface BucketLimit {
  burst: number;
  refillMs: number;
}

/**
 * A board subscribes once on connect and again after a reconnect or a venue switch; it needs a
 * snapshot only when it has none or fell far behind. These leave a real board (several tablets on
 * one staff login, an api restart) well inside, and one flooding socket or login far outside.
 */
export const BOARD_SOCKET_LIMITS = {
  subscribePerSocket: { burst: 10, refillMs: 1_000 },
  snapshotPerSocket: { burst: 4, refillMs: 3_000 },
  subscribePerUser: { burst: 40, refillMs: 250 },
  snapshotPerUser: { burst: 20, refillMs: 1_000 },
} satisfies Record<string, BucketLimit>;

export type BoardSocketAct = 'subscribe' | 'snapshot';

/**
 * Board sockets one login keeps open at once on one api process: several tablets and phones on a
 * shared staff login, each reconnecting after a restart, stay far inside it; a script opening them by
 * the hundred (each held in the process's memory while the login lives) does not. Past it a handshake
 * is refused with TOO_MANY_BOARDS, which the board page tries again later, as it does UNAVAILABLE.
 */
export const BOARD_SOCKETS_PER_USER = 24;
export const TOO_MANY_BOARDS = 'TOO_MANY_BOARDS';

export const RATE_LIMITED_ACK = {
  error: { code: 'RATE_LIMITED', message: 'Too many board requests from this screen; wait a few seconds and try again.' },
} as const;

/** Forget idle users' buckets once this many are kept (a socket's own buckets go with the socket). */
const MAX_USER_ENTRIES = 10_000;

/**
 * Per-socket and per-login limits on the board socket's subscribes and snapshot reads: a refusal,
 * acked as RATE_LIMITED, never a queue. In-process: each api process guards its own sockets.
 */
@Injectable()
export class BoardSocketLimiter {
  private readonly users = new Map<string, Record<BoardSocketAct, TokenBucket>>();
  /** Open (or handshaking) board sockets by login, on this process. */
  private readonly open = new Map<string, number>();

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Takes one `act` from the socket's and its user's buckets; false when either is empty. */
  admit(socket: Pick<Socket, 'data'>, act: BoardSocketAct): boolean {
    const now = this.now();
    const data = socket.data as { limits?: Record<BoardSocketAct, TokenBucket>; userId?: string };
    data.limits ??= this.buckets(now, 'PerSocket');
    const user = data.userId === undefined ? undefined : this.userBuckets(data.userId, now);
    // The socket first: a socket over its own limit does not spend its login's shared budget.
    return data.limits[act].take(now) && (user === undefined || user[act].take(now));
  }

  /**
   * Takes a place for a handshaking socket of `userId`, or false when the login already holds
   * BOARD_SOCKETS_PER_USER here. Taken when the handshake is admitted (not when it completes), so
   * handshakes racing each other past the session read cannot all get in; given back once, when the
   * socket disconnects or its connection closes (one that closed mid-handshake never disconnects).
   */
  place(socket: Pick<Socket, 'once' | 'conn'>, userId: string): boolean {
    // Its connection closed while the session was read (a weak signal, a slow database): that close
    // has been heard already, so nothing would give the place back, and socket.io drops the socket.
    if (socket.conn.readyState !== 'open') return false;
    const held = this.open.get(userId) ?? 0;
    if (held >= BOARD_SOCKETS_PER_USER) return false;
    this.open.set(userId, held + 1);
    let given = false;
    const giveBack = (): void => {
      if (given) return;
      given = true;
      const left = (this.open.get(userId) ?? 1) - 1;
      if (left > 0) this.open.set(userId, left);
      else this.open.delete(userId);
    };
    socket.once('disconnect', giveBack);
    socket.conn.once('close', giveBack);
    return true;
  }

  /**
   * A socket middleware (`socket.use`) that answers a `subscribe` or `unsubscribe` past the limit
   * itself, with a RATE_LIMITED ack, before the message reaches the framework's handler pipeline:
   * a refused message must cost next to nothing.
   */
  middleware(socket: Pick<Socket, 'data'>): (packet: unknown[], next: (err?: Error) => void) => void {
    return (packet, next) => {
      const event = packet[0];
      if ((event !== 'subscribe' && event !== 'unsubscribe') || this.admit(socket, 'subscribe')) return next();
      const ack = packet.at(-1);
      if (typeof ack === 'function') (ack as (answer: unknown) => void)(RATE_LIMITED_ACK);
    };
  }

  private userBuckets(userId: string, now: number): Record<BoardSocketAct, TokenBucket> {
    let b = this.users.get(userId);
    if (!b) {
      if (this.users.size >= MAX_USER_ENTRIES) this.forgetIdle(now);
      b = this.buckets(now, 'PerUser');
      this.users.set(userId, b);
    }
    return b;
  }

  private buckets(now: number, scope: 'PerSocket' | 'PerUser'): Record<BoardSocketAct, TokenBucket> {
    const limit = (act: BoardSocketAct): BucketLimit => BOARD_SOCKET_LIMITS[`${act}${scope}`];
    return {
      subscribe: new TokenBucket(limit('subscribe').burst, limit('subscribe').refillMs, now),
      snapshot: new TokenBucket(limit('snapshot').burst, limit('snapshot').refillMs, now),
    };
  }

  private forgetIdle(now: number): void {
    for (const [id, b] of this.users) if (b.subscribe.full(now) && b.snapshot.full(now)) this.users.delete(id);
  }
}
