import type { INestApplicationContext } from '@nestjs/common';
import { IoAdapter } from '@nestjs/platform-socket.io';
import { createAdapter } from '@socket.io/redis-adapter';
import type { Redis } from 'ioredis';
import type { IncomingMessage } from 'node:http';
import type { Server, ServerOptions } from 'socket.io';
import { disconnectRedis, publisherRedis, subscriberRedis, withTimeout } from '@hostboard/core';
import { boardChannelKey } from '../board-channel.js';

/** Board socket messages larger than this are refused. */
export const BOARD_MAX_MESSAGE_BYTES = 64 * 1024;

/**
 * A connection that has not opened the board namespace by then is closed (socket.io's connectTimeout;
 * its default, 45 s, let a script hold raw connections that never even sent a token). The board page
 * opens the namespace at once, and its handshake's session read has this long to finish.
 */
export const BOARD_CONNECT_TIMEOUT_MS = 10_000;

/**
 * socket.io for the board: messages capped at 64 KB, handshakes only from the api's own origin or
 * an allowed one, and with REDIS_URL the Redis adapter, so an event emitted by any api process
 * reaches boards held by every api process of this deployment (its channel is under JOBS_PREFIX; while
 * Redis is down, only the boards of the emitting one).
 */
export class BoardIoAdapter extends IoAdapter {
  private readonly clients: Redis[] = [];

  constructor(
    app: INestApplicationContext,
    private readonly options: { allowedOrigins: string[]; redisUrl?: string; jobsPrefix: string },
  ) {
    super(app);
  }

  override createIOServer(port: number, options?: ServerOptions): Server {
    const server = super.createIOServer(port, {
      ...options,
      maxHttpBufferSize: BOARD_MAX_MESSAGE_BYTES,
      connectTimeout: BOARD_CONNECT_TIMEOUT_MS,
      allowRequest: (req: IncomingMessage, callback: (err: string | null | undefined, ok: boolean) => void) =>
        callback(null, originAllowed(req, this.options.allowedOrigins)),
    } as ServerOptions);
    if (this.options.redisUrl) {
      // Built for outages: pushes fail fast and quietly while Redis is away (boards resync by
      // version), and the subscriber subscribes again by itself when it returns.
      const pub = publisherRedis(this.options.redisUrl, 'board publisher');
      const sub = subscriberRedis(this.options.redisUrl, 'board subscriber');
      this.clients.push(pub, sub);
      server.adapter(createAdapter(pub, sub, { key: boardChannelKey(this.options.jobsPrefix) }));
    }
    return server;
  }

  override async close(server: Server): Promise<void> {
    await super.close(server);
    const clients = this.clients.splice(0);
    // The adapter's SUBSCRIBEs (two per namespace) wait in the subscriber's queue until Redis
    // answers. Closed before that (an api stopped moments after it started, on a loaded machine),
    // they were rejected where nobody listens: "Connection is closed", four times. A PING queued
    // after them is answered after them. Not when a connection has already failed (Redis is down):
    // then nothing is waited for; at most 3 s when it is merely slow.
    const answered = (c: Redis): Promise<unknown> =>
      c.status === 'connecting' || c.status === 'connect' || c.status === 'ready'
        ? withTimeout(c.ping(), 3000, 'a board Redis client').catch(() => undefined)
        : Promise.resolve();
    await Promise.all(clients.map(answered));
    for (const c of clients) disconnectRedis(c);
  }
}

/** No Origin (a non-browser client), the api's own origin, or one of the allowed list. */
export function originAllowed(req: IncomingMessage, allowed: string[]): boolean {
  const origin = req.headers.origin;
  if (!origin) return true;
  if (allowed.includes(origin)) return true;
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    return false;
  }
}
