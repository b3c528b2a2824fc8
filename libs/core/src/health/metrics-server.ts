import { createServer, type Server } from 'node:http';
import { metricsTokenMatches } from './metrics-token.js';

/**
 * The worker's `/metrics` (it has no HTTP server of its own): the same rule as the api's, served
 * only to a scrape that sends the token, and to anything else the 404 of a path that does not exist.
 */
export function serveMetrics(port: number, host: string, token: string, text: () => Promise<string>): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'GET' || path !== '/metrics' || !metricsTokenMatches(token, req.headers)) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
      return;
    }
    text().then(
      (body) => res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' }).end(body),
      (err: unknown) => res.writeHead(503, { 'content-type': 'text/plain' }).end(`${(err as Error).message}\n`),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      // The scrape port alone never keeps a stopping worker alive.
      server.unref();
      resolve(server);
    });
  });
}
