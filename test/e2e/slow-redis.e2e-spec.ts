import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { startApp } from '../support/test-app.js';
import { describeWithServerAndRedis } from '../support/test-database.js';

/** A loopback proxy to Redis that holds every reply back `delayMs`: a Redis slow to answer. */
async function slowRedis(target: URL, delayMs: number): Promise<{ url: string; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = createConnection(Number(target.port || 6379), target.hostname);
    sockets.add(client).add(upstream);
    client.on('data', (d) => upstream.write(d));
    upstream.on('data', (d) => setTimeout(() => client.writable && client.write(d), delayMs));
    const end = (): void => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `redis://127.0.0.1:${port}`,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describeWithServerAndRedis('a slow Redis needs PostgreSQL and Redis')('an api stopped moments after it started', () => {
  it('leaves no Redis command rejected unheard when Redis is slow to answer', async () => {
    const unheard: unknown[] = [];
    const listener = (reason: unknown): void => void unheard.push(reason);
    process.on('unhandledRejection', listener);
    const proxy = await slowRedis(new URL(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379'), 400);
    try {
      for (let i = 0; i < 3; i++) {
        const t = await startApp({ env: { REDIS_URL: proxy.url } });
        await t.close();
      }
      await new Promise((r) => setTimeout(r, 500));
      expect(unheard.map(String)).toEqual([]);
    } finally {
      process.off('unhandledRejection', listener);
      await proxy.close();
    }
  }, 60_000);
});
