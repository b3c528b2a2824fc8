import { Redis } from 'ioredis';

/** How long the start-up check waits for Redis before carrying on without an answer (Redis is optional). */
const CHECK_MS = 2000;

/**
 * One line for a REDIS_URL that a Redis server answers but refuses, or null. Redis may be down at any
 * moment, so an unreachable or silent one lets the process start (it reconnects later). But a server
 * that answers and refuses what the URL asks is a configuration mistake no retry mends:
 *  - a database number it does not have (`/99` on a server with 16): ioredis only logs the SELECT's
 *    error and carries on in database 0, so the process ran on database 0, sharing its keys with
 *    whatever else uses it, while `/ready` read `ok` and the log said "Redis reachable again";
 *  - a wrong password or user: every command was refused, for as long as the process ran.
 * The password is never part of the line.
 */
export async function redisStartupRefusal(url: string): Promise<string | null> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null; // validated by loadConfig already
  }
  const db = parsed.pathname.replace(/^\//, '');
  const where = `${parsed.hostname}:${parsed.port || '6379'}`;
  if (db !== '' && !/^\d+$/.test(db)) {
    return `Configuration error: REDIS_URL's path must be a database number, such as /0 or /12 (it is "/${db}")`;
  }
  const base = new URL(url);
  base.pathname = '/0';
  const client = new Redis(base.toString(), {
    lazyConnect: true,
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    connectTimeout: CHECK_MS,
    commandTimeout: CHECK_MS,
  });
  const errors: string[] = [];
  client.on('error', (err: Error) => void errors.push(err.message));
  const authRefusal = (): string | null => {
    const refused = errors.find((m) => /WRONGPASS|NOAUTH|invalid username-password|ERR AUTH/i.test(m));
    return refused === undefined
      ? null
      : `Configuration error: REDIS_URL: the Redis server at ${where} refused its user or password (${refused.split('\n')[0]}). Check the credentials in the URL.`;
  };
  let timer: NodeJS.Timeout | undefined;
  const connected = await Promise.race([
    client.connect().then(
      () =>
        client.ping().then(
          () => true,
          (err: Error) => void errors.push(err.message),
        ),
      (err: Error) => void errors.push(err.message),
    ),
    new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), CHECK_MS))),
  ]);
  clearTimeout(timer);
  if (connected !== true) {
    client.disconnect();
    return authRefusal();
  }
  try {
    if (db !== '' && db !== '0') {
      await client.select(Number(db)).catch((err: Error) => {
        if (/DB index is out of range/i.test(err.message)) {
          throw new Error(
            `Configuration error: REDIS_URL selects database ${db}, which the Redis server at ${where} does not have (${err.message}); its databases are numbered from 0 (0 to 15 unless its "databases" setting says otherwise).`,
          );
        }
      });
    }
    return null;
  } catch (err) {
    return (err as Error).message;
  } finally {
    client.disconnect();
  }
}
