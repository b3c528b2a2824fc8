import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { ACCESS_RULE, DomainException, requestContext, type AccessRule } from '@hostboard/core';
import { tokenInvalid } from '@hostboard/queue';
import { BookingSessionService, type BookingSessionIdentity } from './booking-session.service.js';

export interface BookingSessionRequest extends FastifyRequest {
  bookingSession?: BookingSessionIdentity;
}

/** The guard of `@PartySession('booking')` routes: `Authorization: BookingSession <secret>`, or TOKEN_INVALID. */
@Injectable()
export class BookingSessionGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly sessions: BookingSessionService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const rule = this.reflector.getAllAndOverride<AccessRule | undefined>(ACCESS_RULE, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (rule?.kind !== 'party-session' || rule.session !== 'booking')
      throw DomainException.forbidden('This route does not take a booking session.');
    const req = context.switchToHttp().getRequest<BookingSessionRequest>();
    const header = req.headers.authorization;
    const match = typeof header === 'string' ? /^BookingSession (\S+)$/.exec(header) : null;
    if (!match?.[1]) throw tokenInvalid();
    const identity = await this.sessions.authenticate(match[1]);
    req.bookingSession = identity;
    const ctx = requestContext.current();
    if (ctx) ctx.principal = { kind: 'booking-session', sessionId: identity.sessionId, reservationId: identity.reservationId };
    return true;
  }
}
