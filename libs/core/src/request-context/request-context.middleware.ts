import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { requestContext } from './request-context.js';

/** Opens the request's context: a correlation id (echoed as `X-Request-Id`), the address, no principal yet. */
export function requestContextMiddleware(req: Request, res: Response, next: NextFunction): void {
  const incoming = req.headers['x-request-id'];
  const correlationId = typeof incoming === 'string' && /^[\w-]{1,64}$/.test(incoming) ? incoming : randomUUID();
  res.setHeader('X-Request-Id', correlationId);
  requestContext.run(
    { correlationId, ip: req.ip ?? req.socket.remoteAddress ?? 'unknown', principal: { kind: 'anonymous' } },
    next,
  );
}
