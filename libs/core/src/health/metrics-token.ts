import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/** `Authorization: Bearer <token>` or `X-Metrics-Token: <token>`, compared in constant time. */
export function metricsTokenMatches(expected: string | undefined, headers: IncomingHttpHeaders): boolean {
  if (!expected) return false;
  const bearer = /^Bearer (.+)$/.exec(headers.authorization ?? '')?.[1];
  const header = headers['x-metrics-token'];
  const sent = bearer ?? (typeof header === 'string' ? header : undefined);
  if (sent === undefined) return false;
  const digest = (s: string): Buffer => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(sent), digest(expected));
}
