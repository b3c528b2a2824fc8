import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A loopback proxy to Redis that holds every reply back `delayMs`: a Redis slow to answer. The delay
 * may change while it runs (`setDelay`): a Redis that turns slow mid-test.
 */
export async function slowRedis(
  target: URL,
  delayMs: number,
): Promise<{ url: string; setDelay: (ms: number) => void; close: () => Promise<void> }> {
  let delay = delayMs;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = createConnection(Number(target.port || 6379), target.hostname);
    sockets.add(client).add(upstream);
    client.on('data', (d) => upstream.write(d));
    upstream.on('data', (d) => setTimeout(() => client.writable && client.write(d), delay));
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
    setDelay: (ms) => {
      delay = ms;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
