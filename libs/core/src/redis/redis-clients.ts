import { Logger } from '@nestjs/common';
import { Redis, type RedisOptions } from 'ioredis';

/**
 * Redis carries fan-out, jobs and rate counters; PostgreSQL is the truth. So every Redis client is
 * built here, for outages: it reconnects forever, at most a second apart (ioredis's default backs
 * off to 2 s, BullMQ's to 20 s, which would leave a restarted Redis unused for that long), it logs
 * the loss and the return once each instead of an error line per retry, and no command it runs can
 * wait for Redis or reject unheard.
 */

/** Reconnect attempts: 200 ms, 400 ms, … then every second, forever (never gives up: no 'end'). */
export const redisRetry = (times: number): number => Math.min(200 * times, 1000);

/** How long a command on a fail-fast client may take before it is given up. */
export const REDIS_COMMAND_TIMEOUT_MS = 750;

/** Logs "unreachable" at the first error and "reachable again" at the next ready, nothing between. */
export function watchRedis(client: Pick<Redis, 'on'>, role: string): void {
  const logger = new Logger(`Redis ${role}`);
  let down = false;
  client.on('error', (err: Error) => {
    if (down) return;
    down = true;
    logger.warn(`Redis unreachable (${err.message}); retrying every second, carrying on without it`);
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    logger.log('Redis reachable again');
  });
}

/**
 * Commands fail at once while Redis is down (no offline queue) and after REDIS_COMMAND_TIMEOUT_MS
 * when it hangs: for requests that must answer within a second (rate counters, job scheduling).
 */
export function failFastRedisOptions(commandTimeout = REDIS_COMMAND_TIMEOUT_MS): RedisOptions {
  return {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout,
    retryStrategy: redisRetry,
  };
}

export function failFastRedis(url: string, role: string, commandTimeout = REDIS_COMMAND_TIMEOUT_MS): Redis {
  const client = new Redis(url, failFastRedisOptions(commandTimeout));
  watchRedis(client, role);
  return client;
}

/**
 * A publisher for the socket.io Redis adapter and emitter. Both call `publish` and drop the promise,
 * so while Redis is down each push would be an unhandled rejection (which ends a Node process):
 * here every publish fails fast and its rejection is handled. A lost push is repaired by the
 * board's versioned resync.
 */
export function publisherRedis(url: string, role: string): Redis {
  const client = new Redis(url, failFastRedisOptions());
  watchRedis(client, role);
  const logger = new Logger(`Redis ${role}`);
  const publish = (channel: string | Buffer, message: string | Buffer): Promise<number> =>
    Redis.prototype.publish.call(client, channel, message);
  let dropped = 0;
  Object.assign(client, {
    publish(channel: string | Buffer, message: string | Buffer): Promise<number> {
      const sent = publish(channel, message);
      sent.catch(() => {
        // One line per hundred dropped pushes: an outage under traffic must not flood the log.
        if (dropped++ % 100 === 0) logger.warn(`push not relayed through Redis (${dropped} so far); boards resync by version`);
      });
      return sent;
    },
  });
  return client;
}

/**
 * A subscriber: its SUBSCRIBE waits for Redis however long it is away (no retry limit, offline queue
 * on), and ioredis subscribes again by itself after every reconnect (autoResubscribe).
 */
export function subscriberRedis(url: string, role: string): Redis {
  const client = new Redis(url, { maxRetriesPerRequest: null, autoResubscribe: true, retryStrategy: redisRetry });
  watchRedis(client, role);
  return client;
}

/**
 * Ends a client for good, leaving no timer behind. ioredis's disconnect() ends the socket and arms a
 * timer (its disconnectTimeout, 2 s) that only the socket's 'close' clears; while Redis is down the
 * client sits between reconnect attempts on a socket that has already closed, so that timer ran its
 * full 2 s and kept a stopping process alive (a shut-down api, a test worker). For such a socket,
 * its 'close' is given again once disconnect() has listened for it.
 */
export function disconnectRedis(client: Redis): void {
  const stream = client.stream as Redis['stream'] | undefined;
  const closed = stream?.destroyed === true;
  client.disconnect();
  if (closed) stream.emit('close', false);
}

/** Resolves as `work` does, or rejects after `ms`; `work`'s own late rejection is handled either way. */
export function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  work.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
