import { Injectable, Logger, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import {
  ACCESS_RULE,
  claimableKey,
  idempotencyScope,
  scopeAroundCaller,
  DomainException,
  requestContext,
  roleRank,
  type AccessRule,
  type Role,
} from '@hostboard/core';
import { AuthService, type StaffIdentity } from '../sessions/auth.service.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface StaffRequest extends FastifyRequest {
  staff?: StaffIdentity & { venueRole?: Role };
}

/**
 * Deny by default: a route passes only what its declared access rule lets in, and a route without
 * one is refused. Staff of another venue get 404 for its records (nothing confirms they exist);
 * members whose role is too low get 403.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  private readonly logger = new Logger(AccessGuard.name);

  constructor(
    private readonly reflector: Reflector,
    private readonly auth: AuthService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const rule = this.reflector.getAllAndOverride<AccessRule | undefined>(ACCESS_RULE, [
      context.getHandler(),
      context.getClass(),
    ]);
    const req = context.switchToHttp().getRequest<StaffRequest>();
    if (!rule) {
      this.logger.error(`route ${req.method} ${req.originalUrl} declares no access rule`);
      throw DomainException.forbidden('This route declares no access rule.');
    }
    switch (rule.kind) {
      case 'public':
        return true;
      case 'party-session':
        // Party sessions are checked by their own guard on those routes.
        return true;
      case 'signed-in':
        req.staff = await this.identify(req);
        return true;
      case 'venue-role': {
        const venueId = (req.params as Record<string, string | undefined>)['venueId'];
        // A bad venue id is still a 404 only for a signed-in caller: the token is checked first.
        if (typeof venueId !== 'string' || !UUID.test(venueId)) {
          await this.identify(req);
          throw DomainException.notFound('The venue was not found.');
        }
        // A keyed command's stored answer travels with the session's read (the interceptor's next).
        const key = claimableKey(req);
        const {
          identity: staff,
          role,
          stored,
        } = await this.auth.authenticateAt(
          bearerToken(req),
          venueId,
          key === undefined ? undefined : { key, scope: scopeAroundCaller('staff', req.params) },
        );
        this.notePrincipal(staff);
        const ctx = requestContext.current();
        if (ctx && key !== undefined && stored !== undefined) {
          ctx.storedAnswer = { scope: idempotencyScope(ctx.principal, req.params), key, row: stored };
        }
        if (!role) throw DomainException.notFound('The venue was not found.');
        if (roleRank(role) < roleRank(rule.role)) {
          throw DomainException.forbidden(`This needs the ${rule.role} role at this venue.`);
        }
        req.staff = { ...staff, venueRole: role };
        if (ctx) ctx.venueAccess = { venueId, role: rule.role };
        return true;
      }
    }
  }

  private async identify(req: FastifyRequest): Promise<StaffIdentity> {
    const identity = await this.auth.authenticate(bearerToken(req));
    this.notePrincipal(identity);
    return identity;
  }

  private notePrincipal(identity: StaffIdentity): void {
    const ctx = requestContext.current();
    if (ctx) ctx.principal = { kind: 'staff', userId: identity.userId, sessionId: identity.sessionId };
  }
}

function bearerToken(req: FastifyRequest): string {
  const header = req.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer ([A-Za-z0-9_-]{16,128})$/.exec(header) : null;
  if (!match?.[1]) throw DomainException.unauthenticated();
  return match[1];
}
