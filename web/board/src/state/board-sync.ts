import { batch, signal } from '@preact/signals';
import { io, type Socket } from 'socket.io-client';
import { ApiError, messageOf, type ApiClient } from '../api/client';
import type { BoardPush, BoardSnapshot, SubscribeAck } from '../api/types';
import { readWallClock } from './clock';

export type Connection = 'connecting' | 'live' | 'reconnecting' | 'refused';

/** Reads in a row while pushes keep coming, before a short pause (a guard against a hot loop). */
const MAX_CATCH_UP_READS = 3;
/**
 * Still behind after those reads (the last push came during the last read): read again this soon.
 * Waiting for the next push or heartbeat instead left a tablet up to ten seconds behind after a
 * burst of changes.
 */
const CATCH_UP_PAUSE_MS = 250;
/**
 * Parties' names kept for pushes that come after a read without them (the most recently shown).
 * Well above a board's queue (the server sends at most 200 rows), so every party on the board
 * shown is named here too.
 */
const MAX_NAMES = 2_000;
/** After a failed read while connected, try again this soon rather than at the next heartbeat. */
const RETRY_READ_MS = 2_000;

/** Said when the server stops this user's board of the venue (removed from its staff). */
export const ACCESS_ENDED = 'You are no longer on the staff of this venue. Ask a manager if this is a mistake.';
/**
 * Said when the board was refused from the start: the server answers a stranger's "not found"
 * (it tells no one which venues exist), which read to a host just removed as if the venue had gone.
 */
export const NO_ACCESS = 'This venue’s board is not open to you: you are not on its staff. Ask a manager if this is a mistake.';
/** The server's refusals that mean this user may not read this venue's board at all. */
const NO_BOARD = new Set(['FORBIDDEN', 'NOT_FOUND']);

/**
 * One venue's board, kept equal to the server's. socket.io delivers at most once, so pushes are
 * only a signal: any push or heartbeat (`board.version`) ahead of the version shown makes the page
 * read the whole board again (`GET /board`, one transaction, so its version and contents agree),
 * and a (re)connection subscribes with the last version shown, so whatever was missed while away
 * is caught up. A board never shows an older version than it has shown.
 */
export class BoardSync {
  readonly board = signal<BoardSnapshot | null>(null);
  /** Wall-clock ms at which `board` was read, to run countdowns between reads. */
  readonly readAt = signal(0);
  readonly connection = signal<Connection>('connecting');
  readonly problem = signal<string | null>(null);
  /**
   * The server no longer lets this user read the venue's board (removed from its staff): the board
   * shown is dropped, guests' names with it, and nothing more is read.
   */
  readonly ended = signal(false);

  /** Told of each pushed event (for alerts such as a lapsed offer); a missed push is not replayed. */
  onEvent: ((e: BoardPush, before: BoardSnapshot | null) => void) | null = null;

  /**
   * The name of each party this board has shown, by entry id: a push about a party that has left
   * the queue (its hold lapsed) can arrive after a read that no longer has it (with several api
   * processes pushes travel through Redis), and the alert still names it.
   */
  private readonly names = new Map<string, string>();
  private version = -1;
  private heard = -1;
  private fetching: Promise<void> | null = null;
  private again = false;
  private closed = false;
  private later: number | null = null;
  private readonly socket: Socket;

  constructor(
    private readonly api: ApiClient,
    readonly venueId: string,
    token: string,
  ) {
    this.socket = io('/board', {
      auth: { token },
      // The server accepts WebSocket only (several api processes share one port; see the gateway).
      transports: ['websocket'],
      // Back within about two seconds of the api returning, not socket.io's default five.
      reconnectionDelay: 300,
      reconnectionDelayMax: 2000,
      timeout: 5000,
    });
    this.socket.on('connect', () => void this.subscribe());
    this.socket.on('disconnect', (reason: string) => {
      if (this.closed) return;
      this.connection.value = 'reconnecting';
      // The server closed the socket itself: the session ended (signed out or its password changed
      // on another device, or it lapsed). socket.io never reconnects after that, and the page said
      // "Reconnecting… actions paused" for good. Connecting again is refused at the handshake for an
      // ended session, which reads the board (401: signed out, saying why); else it carries on.
      if (reason === 'io server disconnect') this.socket.connect();
    });
    this.socket.on('connect_error', (err: Error) => {
      if (this.socket.active) {
        // A transport failure: socket.io retries by itself.
        this.connection.value = this.version < 0 ? 'connecting' : 'reconnecting';
      } else if (err.message !== 'UNAUTHENTICATED') {
        // The server could not check the session just now (its database away for a moment):
        // socket.io gives up on any refused handshake, so the page asks again itself.
        this.connection.value = this.version < 0 ? 'connecting' : 'reconnecting';
        window.setTimeout(() => {
          if (!this.closed && !this.socket.active) this.socket.connect();
        }, RETRY_READ_MS);
      } else {
        // The handshake was refused (the session lapsed): a read says so, and signs the page out.
        this.connection.value = 'refused';
        void this.refetch();
      }
    });
    this.socket.on('board.event', (e: BoardPush) => {
      // Read the event's kind before the board moves on (the lapse alert names the party).
      if (e.venueId === this.venueId) this.onEvent?.(e, this.board.value);
      this.notice(e);
    });
    this.socket.on('board.version', (e: BoardPush) => this.notice(e));
    // This user's membership of the venue ended (removed from its staff): nothing reaches the board
    // any more, so it must not go on saying "Up to date".
    this.socket.on('board.access-ended', (e: { venueId?: string }) => {
      if (e?.venueId !== this.venueId) return;
      this.endAccess(ACCESS_ENDED);
    });
    // Show the board at once over HTTP; the subscription then keeps it current.
    void this.refetch();
  }

  /** Read the board again now (after an act of this page, so it need not wait for the push). */
  refresh(): Promise<void> {
    return this.refetch();
  }

  /** The name of a party this board has shown (now or before), if it has. */
  nameOf(entryId: unknown): string | undefined {
    return typeof entryId === 'string' ? this.names.get(entryId) : undefined;
  }

  /** Test and debugging aid: the version on screen. */
  get shownVersion(): number {
    return this.version;
  }

  close(): void {
    this.closed = true;
    if (this.later !== null) window.clearTimeout(this.later);
    this.socket.disconnect();
  }

  private async subscribe(): Promise<void> {
    const body = this.version >= 0 ? { venueId: this.venueId, sinceVersion: this.version } : { venueId: this.venueId };
    let ack: SubscribeAck;
    try {
      ack = (await this.socket.timeout(10_000).emitWithAck('subscribe', body)) as SubscribeAck;
    } catch {
      // No answer in time: drop the connection and let socket.io's reconnection try again.
      if (this.socket.connected) {
        this.socket.disconnect().connect();
      }
      return;
    }
    if ('error' in ack && ack.error.code === 'RATE_LIMITED') {
      // The server's per-screen limit: not a refusal of this board, so ask again a little later.
      setTimeout(() => void (this.closed || !this.socket.connected ? undefined : this.subscribe()), RETRY_READ_MS);
      return;
    }
    if ('error' in ack) {
      // A tablet that missed the removal's push (offline at the time) is refused here on its return.
      if (NO_BOARD.has(ack.error.code)) return this.endAccess(this.version >= 0 ? ACCESS_ENDED : NO_ACCESS);
      this.connection.value = 'refused';
      this.problem.value = ack.error.message;
      return;
    }
    if ('snapshot' in ack) {
      // The server's answer to "where am I": taken even if older (a database that was reset).
      this.heard = ack.version;
      this.apply(ack.snapshot, true);
    } else {
      this.notice({ venueId: this.venueId, version: ack.version });
    }
    this.connection.value = 'live';
  }

  private notice(push: BoardPush): void {
    if (push.venueId !== this.venueId || typeof push.version !== 'number') return;
    this.heard = Math.max(this.heard, push.version);
    // The next version, or a gap: either way the whole board is read again.
    if (push.version > this.version) void this.refetch();
  }

  private refetch(): Promise<void> {
    if (this.fetching) {
      this.again = true;
      return this.fetching;
    }
    this.fetching = (async () => {
      try {
        for (let reads = 0; reads < MAX_CATCH_UP_READS && !this.closed; reads++) {
          this.again = false;
          const snapshot = await this.api.get<BoardSnapshot>(`/v1/venues/${this.venueId}/board`);
          this.apply(snapshot, false);
          if (!this.again && this.heard <= this.version) break;
        }
        if (this.again || this.heard > this.version) this.readLater(CATCH_UP_PAUSE_MS);
      } catch (err) {
        if (err instanceof ApiError && NO_BOARD.has(err.code)) {
          this.endAccess(this.version >= 0 ? ACCESS_ENDED : NO_ACCESS);
          return;
        }
        // While the api restarts the socket shows "reconnecting"; the next subscription catches up.
        if (this.connection.value === 'live' || this.version < 0) this.problem.value = messageOf(err);
        const transient = err instanceof ApiError && (err.status === 0 || err.status >= 500);
        if (transient && this.socket.connected) this.readLater(RETRY_READ_MS);
      } finally {
        this.fetching = null;
      }
    })();
    return this.fetching;
  }

  /**
   * The board is no longer this user's to read: what it showed goes (the queue's names and the
   * floor, frozen at the removal, read as current), the connection closes and no read follows.
   */
  private endAccess(message: string): void {
    if (this.ended.value) return;
    this.names.clear();
    batch(() => {
      this.ended.value = true;
      this.board.value = null;
      this.connection.value = 'refused';
      this.problem.value = message;
    });
    this.close();
  }

  /** One read scheduled at a time, whoever asks for it. */
  private readLater(ms: number): void {
    if (this.closed || this.later !== null) return;
    this.later = window.setTimeout(() => {
      this.later = null;
      void this.refetch();
    }, ms);
  }

  private apply(snapshot: BoardSnapshot, authoritative: boolean): void {
    // A read that was on its way as access ended does not bring the board back.
    if (this.ended.value) return;
    if (!authoritative && snapshot.version < this.version) return;
    this.version = snapshot.version;
    for (const row of snapshot.queue) {
      this.names.delete(row.id);
      this.names.set(row.id, row.name);
    }
    // The oldest first: a long day's parties, not a whole history.
    for (const id of this.names.keys()) {
      if (this.names.size <= MAX_NAMES) break;
      this.names.delete(id);
    }
    batch(() => {
      this.readAt.value = readWallClock();
      this.problem.value = null;
      this.board.value = snapshot;
    });
  }
}

/**
 * The venue's clock now, in ms: a live venue's clock runs with the wall clock from the instant the
 * board was read; a sandbox venue's clock stands still until it is moved (API.md "Venues").
 */
export function venueNow(board: BoardSnapshot, readAt: number, wall: number): number {
  const at = Date.parse(board.now);
  return board.venue.sandbox ? at : at + Math.max(0, wall - readAt);
}
