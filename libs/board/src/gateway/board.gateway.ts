import { Logger, type OnModuleDestroy } from '@nestjs/common';
import {
  ConnectedSocket,
  MessageBody,
  SubscribeMessage,
  WebSocketGateway,
  WebSocketServer,
  type OnGatewayConnection,
  type OnGatewayInit,
} from '@nestjs/websockets';
import type { Namespace, Socket } from 'socket.io';
import { AuthService, StaffAccessEvents, type StaffAccessChange } from '@hostboard/auth';
import { DomainException, ErrorCode, TransactionRunner } from '@hostboard/core';
import { BoardEventWriter } from '../board-event.writer.js';
import { BoardPublisher, type BoardEventMessage } from '../board-publisher.js';
import { BoardHandshakeLimiter, HANDSHAKE_RATE_LIMITED } from './board-handshake.limiter.js';
import { BoardSocketLimiter, RATE_LIMITED_ACK, TOO_MANY_BOARDS } from './board-socket.limiter.js';
import { SnapshotReads } from './snapshot-reads.js';

/** A board further behind than this gets a snapshot instead of the events it missed. */
export const MAX_REPLAY_EVENTS = 500;
/** Every room hears its current version this often, so a board that missed a push notices. */
export const VERSION_HEARTBEAT_MS = 10_000;

/** Told to a member's boards of a venue when their membership there ends: `{ venueId }`. */
export const ACCESS_ENDED = 'board.access-ended';

/**
 * Every process re-checks its own sockets' sessions and memberships this often: a session that
 * expired, or access ended by a path that sent no notice (SQL, a lost Redis message), is cut within it.
 */
export const ACCESS_RECHECK_MS = 1000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const room = (venueId: string): string => `venue:${venueId}`;
const sessionRoom = (sessionId: string): string => `session:${sessionId}`;
const userRoom = (userId: string): string => `user:${userId}`;

/** What the handshake learnt; the token stays in this process's memory to re-check every subscribe. */
interface SocketData {
  userId?: string;
  sessionId?: string;
  token?: string;
}

interface SubscribeBody {
  venueId?: unknown;
  sinceVersion?: unknown;
}

type SubscribeAck =
  | { version: number; events: BoardEventMessage[] }
  | { version: number; snapshot: Record<string, unknown> }
  | { error: { code: string; message: string } };

/**
 * The live floor board (`/board`): a staff session token in the handshake, subscriptions only to
 * the user's own venues, missed events replayed from the board_events rows, then pushes in order.
 */
// WebSocket only: with several api processes on one port (node:cluster) or behind a balancer without
// sticky sessions, a long-polling client's requests would land on processes that never saw its handshake.
@WebSocketGateway({ namespace: '/board', transports: ['websocket'] })
export class BoardGateway implements OnGatewayInit, OnGatewayConnection, OnModuleDestroy {
  private readonly logger = new Logger(BoardGateway.name);
  private heartbeat?: NodeJS.Timeout;
  private recheck?: NodeJS.Timeout;
  private rechecking = false;
  private unsubscribe?: () => void;
  private unsubscribeAccess?: () => void;

  @WebSocketServer()
  private readonly namespace: Namespace;

  constructor(
    private readonly auth: AuthService,
    private readonly access: StaffAccessEvents,
    private readonly tx: TransactionRunner,
    private readonly events: BoardEventWriter,
    private readonly publisher: BoardPublisher,
    private readonly snapshots: SnapshotReads,
    private readonly limiter: BoardSocketLimiter,
    private readonly handshakes: BoardHandshakeLimiter,
  ) {}

  afterInit(namespace: Namespace): void {
    // The handshake check: refused clients see connect_error and never reach a handler.
    namespace.use((socket, next) => {
      const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
      if (typeof token !== 'string' || token.length > 256) return next(new Error('UNAUTHENTICATED'));
      // Made-up tokens each cost a session read: an address past its failures is refused before it,
      // unless the token is a session this process has seen live: a restaurant's tablets share their
      // address with whoever floods from its Wi-Fi, and must go on connecting (the read still decides).
      const address = this.handshakes.addressOf(socket.request);
      const refuse = (code: string): void => next(new Error(code));
      this.handshakes.attempt(address).then(
        (allowed) =>
          allowed || this.auth.seenLive(token) ? this.admit(socket, token, address, next) : refuse(HANDSHAKE_RATE_LIMITED),
        () => refuse('UNAVAILABLE'),
      );
    });
    // Subscribes past a socket's limit are refused before any read (board-socket.limiter.ts).
    namespace.on('connection', (socket: Socket) => socket.use(this.limiter.middleware(socket)));
    this.unsubscribe = this.publisher.subscribe((e) => namespace.to(room(e.venueId)).emit('board.event', e));
    this.heartbeat = setInterval(() => void this.sendVersions(namespace), VERSION_HEARTBEAT_MS);
    this.heartbeat.unref();
    this.unsubscribeAccess = this.access.subscribe((c) => this.cut(namespace, c));
    this.recheck = setInterval(() => void this.recheckAccess(namespace), ACCESS_RECHECK_MS);
    this.recheck.unref();
  }

  private admit(socket: Socket, token: string, address: string, next: (err?: Error) => void): void {
    this.auth.authenticate(token).then(
      (identity) => {
        void this.handshakes.forgive(address);
        // A login's sockets on this process are capped (board-socket.limiter.ts).
        if (!this.limiter.place(socket, identity.userId)) return next(new Error(TOO_MANY_BOARDS));
        Object.assign(socket.data as SocketData, { userId: identity.userId, sessionId: identity.sessionId, token });
        next();
      },
      // Only a session that is not valid is refused as such: a tablet told UNAUTHENTICATED stops
      // reconnecting. A read that failed (the database away for a moment) is UNAVAILABLE, which the
      // board page tries again after a pause, and not counted against the address.
      (err: unknown) => {
        if (err instanceof DomainException && err.code === ErrorCode.UNAUTHENTICATED) return next(new Error('UNAUTHENTICATED'));
        void this.handshakes.forgive(address);
        next(new Error('UNAVAILABLE'));
      },
    );
  }

  /** Rooms by session and by user, so an ended session or a removed member reaches this socket from any process. */
  async handleConnection(socket: Socket): Promise<void> {
    const data = socket.data as SocketData;
    if (data.sessionId && data.userId) await socket.join([sessionRoom(data.sessionId), userRoom(data.userId)]);
  }

  onModuleDestroy(): void {
    clearInterval(this.heartbeat);
    clearInterval(this.recheck);
    this.unsubscribe?.();
    this.unsubscribeAccess?.();
  }

  /** Through the adapter (Redis with REDIS_URL), so the sockets on every api process are reached. */
  private cut(namespace: Namespace, change: StaffAccessChange): void {
    try {
      if (change.kind === 'sessions-ended') namespace.in(change.sessionIds.map(sessionRoom)).disconnectSockets(true);
      else {
        namespace.in(userRoom(change.userId)).socketsLeave(room(change.venueId));
        // Leaving the room alone left the board on screen saying "Up to date" while nothing reached it.
        namespace.to(userRoom(change.userId)).emit(ACCESS_ENDED, { venueId: change.venueId });
      }
    } catch (err) {
      this.logger.warn(`could not cut board access at once (the re-check will): ${(err as Error).message}`);
    }
  }

  /** This process's sockets only: each process checks its own, so together they cover every socket. */
  private async recheckAccess(namespace: Namespace): Promise<void> {
    if (this.rechecking) return;
    this.rechecking = true;
    try {
      const sockets = [...namespace.sockets.values()];
      const ids = [...new Set(sockets.map((s) => (s.data as SocketData).sessionId).filter((id): id is string => !!id))];
      if (ids.length === 0) return;
      const live = await this.auth.liveSessions(ids);
      for (const socket of sockets) {
        const venues = live.get((socket.data as SocketData).sessionId ?? '');
        if (!venues) {
          socket.disconnect(true);
          continue;
        }
        for (const r of socket.rooms) {
          if (r.startsWith('venue:') && !venues.includes(r.slice(6))) {
            await socket.leave(r);
            socket.emit(ACCESS_ENDED, { venueId: r.slice(6) });
          }
        }
      }
    } catch (err) {
      this.logger.warn(`board access re-check failed: ${(err as Error).message}`);
    } finally {
      this.rechecking = false;
    }
  }

  @SubscribeMessage('subscribe')
  async subscribe(@ConnectedSocket() socket: Socket, @MessageBody() body: SubscribeBody): Promise<SubscribeAck> {
    const venueId = typeof body?.venueId === 'string' && UUID.test(body.venueId) ? body.venueId : null;
    const { token } = socket.data as SocketData;
    if (!venueId || !token) return { error: { code: 'NOT_FOUND', message: 'The venue was not found.' } };
    // The session and the membership are checked again on every subscribe, not only at the handshake.
    let role: string | null;
    try {
      role = (await this.auth.authenticateAt(token, venueId)).role;
    } catch (err) {
      // An ended or expired session: refused, and the socket closed. Anything else (the database
      // briefly gone) is not the session's fault and is answered as any failure is.
      if (!(err instanceof DomainException && err.code === ErrorCode.UNAUTHENTICATED)) throw err;
      setImmediate(() => socket.disconnect(true));
      return { error: { code: 'UNAUTHENTICATED', message: 'Your session is not valid; sign in again.' } };
    }
    // Not a member reads the same as no such venue: nothing confirms another venue exists.
    if (!role) return { error: { code: 'NOT_FOUND', message: 'The venue was not found.' } };
    const since =
      typeof body.sinceVersion === 'number' && Number.isSafeInteger(body.sinceVersion) && body.sinceVersion >= 0
        ? body.sinceVersion
        : null;
    // A refused subscribe leaves the socket as it found it: a socket refused its snapshot was in the
    // venue's room all the same, and a script refused every time still heard every push. With no
    // version a snapshot is needed, so the limit is asked first; with one, the room is joined before
    // the missed events are read (none falls between), and left again if the snapshot is refused.
    if (since === null && !this.limiter.admit(socket, 'snapshot')) return RATE_LIMITED_ACK;
    const wasIn = socket.rooms.has(room(venueId));
    await socket.join(room(venueId));
    if (since !== null) {
      const missed = await this.tx.run((t) => this.events.since(t, venueId, since, MAX_REPLAY_EVENTS + 1));
      if (missed.length <= MAX_REPLAY_EVENTS) {
        const version = missed.at(-1)?.version ?? since;
        const current = await this.currentVersion(venueId);
        if (version === current) return { version, events: missed };
      }
    }
    if (since !== null && !this.limiter.admit(socket, 'snapshot')) {
      if (!wasIn) await socket.leave(room(venueId));
      return RATE_LIMITED_ACK;
    }
    const snapshot = await this.snapshots.read(venueId);
    return { version: snapshot.version, snapshot };
  }

  @SubscribeMessage('unsubscribe')
  async leave(@ConnectedSocket() socket: Socket, @MessageBody() body: SubscribeBody): Promise<{ ok: true }> {
    if (typeof body?.venueId === 'string') await socket.leave(room(body.venueId));
    return { ok: true };
  }

  private async currentVersion(venueId: string): Promise<number> {
    const rows: Array<{ version: string }> = await this.tx.run((t) =>
      t.manager.query('SELECT version FROM venues WHERE id = $1', [venueId]),
    );
    return Number(rows[0]?.version ?? 0);
  }

  private async sendVersions(namespace: Namespace): Promise<void> {
    try {
      const venueIds = [...namespace.adapter.rooms.keys()].filter((r) => r.startsWith('venue:')).map((r) => r.slice(6));
      if (venueIds.length === 0) return;
      const rows: Array<{ id: string; version: string }> = await this.tx.run((t) =>
        t.manager.query('SELECT id, version FROM venues WHERE id = ANY($1::uuid[])', [venueIds]),
      );
      // Local only: every api process tells its own boards.
      for (const r of rows) namespace.local.to(room(r.id)).emit('board.version', { venueId: r.id, version: Number(r.version) });
    } catch (err) {
      this.logger.warn(`version heartbeat failed: ${(err as Error).message}`);
    }
  }
}
