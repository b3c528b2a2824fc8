import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import {
  ACCESS_RULE,
  claimableKey,
  DomainException,
  idempotencyScope,
  requestContext,
  scopeAroundCaller,
  type AccessRule,
} from '@hostboard/core';
import { QueueSessionService, tokenInvalid, type QueueSessionIdentity } from './queue-session.service.js';

export interface QueueSessionRequest extends FastifyRequest {
  queueSession?: QueueSessionIdentity;
}

/**
 * The guard of `@PartySession('queue')` routes (the global access guard lets them through to it):
 * `Authorization: QueueSession <secret>`, a live session, or TOKEN_INVALID. The session becomes the
 * request's principal, so history names the party and Idempotency-Keys are scoped to its session.
 */
@Injectable()
export class QueueSessionGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly sessions: QueueSessionService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const rule = this.reflector.getAllAndOverride<AccessRule | undefined>(ACCESS_RULE, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (rule?.kind !== 'party-session' || rule.session !== 'queue') {
      throw DomainException.forbidden('This route does not take a queue session.');
    }
    const req = context.switchToHttp().getRequest<QueueSessionRequest>();
    const header = req.headers.authorization;
    const match = typeof header === 'string' ? /^QueueSession (\S+)$/.exec(header) : null;
    if (!match?.[1]) throw tokenInvalid();
    // A retried POST (an Idempotency-Key) may come after its first try ended the session (leaving
    // does): it is let through to be answered from the stored answer, and refused if there is none.
    const retry = req.method === 'POST' && req.headers['idempotency-key'] !== undefined;
    // A keyed command's stored answer travels with the session's read (the interceptor's next).
    const key = claimableKey(req);
    const { stored, ...identity } = await this.sessions.authenticate(match[1], {
      ended: retry ? 'mark' : 'refuse',
      ...(key !== undefined && { key: { key, scope: scopeAroundCaller('queue-session', req.params) } }),
    });
    req.queueSession = identity;
    const ctx = requestContext.current();
    if (!ctx && identity.ended) throw tokenInvalid();
    if (ctx) {
      ctx.principal = { kind: 'queue-session', sessionId: identity.sessionId, entryId: identity.entryId };
      if (identity.ended) ctx.replayOnly = tokenInvalid();
      if (key !== undefined && stored !== undefined) {
        ctx.storedAnswer = { scope: idempotencyScope(ctx.principal, req.params), key, row: stored };
      }
    }
    return true;
  }
}
