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
        req: { method: req.method, url: loggableUrl(req.url), remoteAddress: req.ip },
        res: { statusCode: status },
        responseTime: Math.round(reply.elapsedTime),
      };
      if (failed) logger.error(line, 'request errored');
      else logger.info(line, 'request completed');
    }
    done();
  });
}

/** A query value that may be a guest's contact: an email address, or a phone number (digits, with + ( ) . - and spaces), not a date. */
const contactLike = (value: string): boolean => {
  const v = value.trim();
  if (v.includes('@')) return true;
  return /^\+?[\d\s().-]+$/.test(v) && (v.match(/\d/g)?.length ?? 0) >= 6 && !/^\d{4}-\d{2}-\d{2}$/.test(v);
};

/**
 * The URL as the access log writes it: the query's values that may be a guest's phone number or
 * email address are written `[redacted]`. The Messages tab searches by recipient
 * (`…/messages?to=+13125550181`), and the log kept every phone number and address a manager looked
 * up, in files kept longer and read by more people than the database.
 */
export function loggableUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const parts = url.slice(q + 1).split('&');
  let changed = false;
  const kept = parts.map((part) => {
    const eq = part.indexOf('=');
    if (eq < 0) return part;
    let value: string;
    try {
      value = decodeURIComponent(part.slice(eq + 1).replace(/\+/g, ' '));
    } catch {
      value = part.slice(eq + 1);
    }
    if (!contactLike(value)) return part;
    changed = true;
    return `${part.slice(0, eq)}=[redacted]`;
  });
  return changed ? `${url.slice(0, q)}?${kept.join('&')}` : url;
}
