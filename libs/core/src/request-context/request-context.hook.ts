import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { requestContext, type RequestContext } from './request-context.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's context, opened when it arrives (see installRequestContext). */
    hostboardContext: RequestContext | null;
  }
}

/**
 * Opens each request's context: a correlation id (echoed as `X-Request-Id`), the address (`req.ip`,
 * which follows TRUST_PROXY), no principal yet. Fastify reads the body between its hooks, in
 * callbacks that do not carry the async context of the first hook, so the context is entered again
 * just before the handler (guards, interceptors and services all run inside it).
 */
export function installRequestContext(http: FastifyInstance): void {
  http.decorateRequest('hostboardContext', null);
  http.addHook('onRequest', (req, reply, done) => {
    const incoming = req.headers['x-request-id'];
    const correlationId = typeof incoming === 'string' && /^[\w-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    reply.header('X-Request-Id', correlationId);
    req.hostboardContext = { correlationId, ip: req.ip ?? 'unknown', principal: { kind: 'anonymous' } };
    done();
  });
  http.addHook('preHandler', (req, _reply, done) => {
    if (req.hostboardContext) requestContext.run(req.hostboardContext, done);
    else done();
  });
}
