import { AsyncLocalStorage } from 'node:async_hooks';
import type { Role } from '../access/access.decorators.js';

/** Who is calling: a staff user, a party's queue or booking session, or nobody. */
export type Principal =
  | { kind: 'staff'; userId: string; sessionId: string }
  | { kind: 'queue-session'; sessionId: string; entryId: string }
  | { kind: 'booking-session'; sessionId: string; reservationId: string }
  | { kind: 'anonymous' };

/** An Idempotency-Key claim carried from the HTTP edge to the command's transaction. */
export interface IdempotencyClaim {
  scope: string;
  key: string;
  requestHash: string;
  /** HTTP status the route answers on success. */
  successStatus: number;
  claimed: boolean;
}

export interface RequestContext {
  correlationId: string;
  ip: string;
  principal: Principal;
  idempotency?: IdempotencyClaim;
  /**
   * The caller's credential has ended (a party that left), but the request is a retry carrying an
   * Idempotency-Key: it may still be answered from the key's stored answer, and nothing else; this
   * is the refusal when nothing is stored.
   */
  replayOnly?: Error;
  /**
   * The answer stored under the request's key (null: none), read by the access guard together with
   * the caller's session (one round trip less on every keyed staff command); the interceptor uses it
   * instead of reading again when its scope and key are the claim's.
   */
  storedAnswer?: PrefetchedAnswer;
  /**
   * The venue and the least role the access guard let a staff caller in with: a command of that
   * venue reads the membership again once it holds the venue's lock (TransactionRunner.command), so
   * a removal or demotion that committed while the command waited for the lock is not acted through.
   */
  venueAccess?: { venueId: string; role: Role };
}

/** A stored Idempotency-Key answer read ahead of the interceptor (RequestContext.storedAnswer). */
export interface PrefetchedAnswer {
  scope: string;
  key: string;
  row: { requestHash: string; responseStatus: number; responseBody: unknown } | null;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** Per-request facts that every layer may read without threading them through each call. */
export const requestContext = {
  run<T>(ctx: RequestContext, fn: () => T): T {
    return storage.run(ctx, fn);
  },
  current(): RequestContext | undefined {
    return storage.getStore();
  },
  /** Actor label for history and audit rows. */
  actor(): string {
    const p = storage.getStore()?.principal;
    switch (p?.kind) {
      case 'staff':
        return `staff:${p.userId}`;
      case 'queue-session':
        return `party:${p.entryId}`;
      case 'booking-session':
        return `booking:${p.reservationId}`;
      case 'anonymous':
      case undefined:
        return 'public';
    }
  },
};
