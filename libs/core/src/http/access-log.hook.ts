import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Metrics } from '../health/metrics.js';

/**
 * One structured access-log line and one latency sample per answered request, from a single
 * onResponse hook (it runs after the answer is on the wire, off the request's path). The line carries
 * the correlation id the client sees; headers are not logged, so no credential can be.
 */
export function installAccessLog(http: FastifyInstance, logger: Logger, metrics: Metrics): void {
  const logs = logger.isLevelEnabled('info');
  http.addHook('onResponse', (req, reply, done) => {
    const status = reply.statusCode;
    // The route's pattern (`/v1/venues/:venueId`), never the raw URL: one series per route, not per id.
    const route = req.routeOptions.url ?? 'unmatched';
    metrics.httpDuration.observe({ method: req.method, route, status: String(status) }, reply.elapsedTime / 1000);
    // A 503 from /ready is its answer while a dependency is down, not a failed request: the cause is
    // logged once by its watcher ("Redis unreachable"), and a probe every few seconds would otherwise
    // write an error line each time for the whole outage.
    const failed = status >= 500 && !(status === 503 && route === '/ready');
    if (logs || failed) {
      const line = {
        reqId: req.hostboardContext?.correlationId,
        req: { method: req.method, url: req.url, remoteAddress: req.ip },
        res: { statusCode: status },
        responseTime: Math.round(reply.elapsedTime),
      };
      if (failed) logger.error(line, 'request errored');
      else logger.info(line, 'request completed');
    }
    done();
  });
}
