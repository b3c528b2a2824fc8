import { createHash } from 'node:crypto';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants.js';
import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { from, switchMap, type Observable } from 'rxjs';
import { DomainException } from '../errors/domain.exception.js';
import { requestContext, type Principal } from '../request-context/request-context.js';
import { IdempotencyStore } from './idempotency.store.js';

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/**
 * The methods whose retries a key answers: POSTs (API.md), and DELETEs, whose second try after a
 * lost answer would otherwise read "already removed" (or 409) for an act that worked.
 */
const KEYED_METHODS = new Set(['POST', 'DELETE']);

/**
 * Reads `Idempotency-Key` on POSTs and DELETEs and hands a claim to the request's first command
 * transaction. A completed key is answered here, before any work; the race of two requests in flight is settled
 * inside the transaction (IdempotencyStore.enter).
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(private readonly store: IdempotencyStore) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const req = context.switchToHttp().getRequest<FastifyRequest>();
    const header = req.headers['idempotency-key'];
    const ctx = requestContext.current();
    if (!KEYED_METHODS.has(req.method) || header === undefined || !ctx) return next.handle();
    const key = Array.isArray(header) ? header[0] : header;
    if (key === undefined || !KEY_PATTERN.test(key)) {
      throw DomainException.validation('Idempotency-Key must be 1 to 255 visible characters.');
    }
    const declared: unknown = Reflect.getMetadata(HTTP_CODE_METADATA, context.getHandler());
    ctx.idempotency = {
      scope: idempotencyScope(ctx.principal, req.params),
      key,
      requestHash: hashRequest(req),
      // Nest's own default when the handler declares none: 201 for a POST, 200 otherwise.
      successStatus: typeof declared === 'number' ? declared : req.method === 'POST' ? 201 : 200,
      claimed: false,
    };
    const claim = ctx.idempotency;
    const replayOnly = ctx.replayOnly;
    return from(this.store.replayIfStored(claim, ctx.storedAnswer)).pipe(
      switchMap(() => {
        // Nothing stored under the key: an ended credential opens nothing new.
        if (replayOnly) throw replayOnly;
        return next.handle();
      }),
    );
  }
}

/**
 * The request's Idempotency-Key when it is one the interceptor will claim (a keyed method and a
 * well-formed key), for a guard that reads the stored answer ahead (RequestContext.storedAnswer): it
 * reads the row whose scope is `idempotencyScope` of the caller it finds, and says so with that scope.
 */
export function claimableKey(req: FastifyRequest): string | undefined {
  if (!KEYED_METHODS.has(req.method)) return undefined;
  const header = req.headers['idempotency-key'];
  const key = Array.isArray(header) ? header[0] : header;
  return key !== undefined && KEY_PATTERN.test(key) ? key : undefined;
}

/**
 * Keys belong to their caller, and to the venue the request acts on: one staff user's key never
 * answers another's request, and an organizer who names operations by the worksheet's ids (T-01,
 * T-02, …) can use the same ids at a practice venue and at the live one, or at two workshops,
 * without the second being refused as a reused key. Anonymous callers share one scope per venue.
 */
export function idempotencyScope(p: Principal, params: unknown): string {
  const caller = callerOf(p);
  const route = (params ?? {}) as { venueId?: unknown; slug?: unknown };
  const venue = typeof route.venueId === 'string' ? route.venueId : typeof route.slug === 'string' ? route.slug : null;
  return venue === null ? caller : `${caller} venue:${venue.toLowerCase()}`;
}

/**
 * `idempotencyScope` around a caller whose id only the database knows yet (a guard reading the
 * session and the stored answer in one statement): the text before and after the id, so SQL writes
 * the scope as `before || id || after`, by construction the same as `idempotencyScope`.
 */
export function scopeAroundCaller(kind: 'staff' | 'queue-session', params: unknown): { before: string; after: string } {
  const mark = '\u0000';
  const p: Principal = kind === 'staff' ? { kind, userId: mark, sessionId: mark } : { kind, sessionId: mark, entryId: mark };
  const [before = '', after = ''] = idempotencyScope(p, params).split(mark);
  return { before, after };
}

function callerOf(p: Principal): string {
  switch (p.kind) {
    case 'staff':
      return `staff:${p.userId}`;
    case 'queue-session':
      return `queue-session:${p.sessionId}`;
    case 'booking-session':
      return `booking-session:${p.sessionId}`;
    case 'anonymous':
      return 'public';
  }
}

function hashRequest(req: FastifyRequest): string {
  const path = req.originalUrl.split('?')[0] ?? '';
  return createHash('sha256')
    .update(`${req.method} ${path}\n${canonicalJson(req.body)}`)
    .digest('hex');
}

/** JSON with sorted keys, so `{a,b}` and `{b,a}` are the same request. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}
