/** Domain refusal codes and their HTTP status: the table of `shared/API.md`, and nothing else. */
export enum ErrorCode {
  VALIDATION = 'VALIDATION',
  UNAUTHENTICATED = 'UNAUTHENTICATED',
  TOKEN_INVALID = 'TOKEN_INVALID',
  FORBIDDEN = 'FORBIDDEN',
  NOT_FOUND = 'NOT_FOUND',
  CONFLICT = 'CONFLICT',
  OCCUPANCY_CONFLICT = 'OCCUPANCY_CONFLICT',
  WAITLIST_DUPLICATE = 'WAITLIST_DUPLICATE',
  WAITLIST_STALE = 'WAITLIST_STALE',
  WAITLIST_OFFER_CONFLICT = 'WAITLIST_OFFER_CONFLICT',
  WAITLIST_OFFER_EXPIRED = 'WAITLIST_OFFER_EXPIRED',
  RULE_VIOLATION = 'RULE_VIOLATION',
  PAID_BOOKING_UNAVAILABLE = 'PAID_BOOKING_UNAVAILABLE',
  IDEMPOTENCY_KEY_REUSED = 'IDEMPOTENCY_KEY_REUSED',
  IDEMPOTENCY_IN_PROGRESS = 'IDEMPOTENCY_IN_PROGRESS',
  RATE_LIMITED = 'RATE_LIMITED',
  /** The database cannot be reached right now; nothing was half-written (the transaction did not commit). */
  UNAVAILABLE = 'UNAVAILABLE',
  /** Not a refusal: an unexpected fault, answered with a correlation id only. */
  INTERNAL = 'INTERNAL',
}

/** Exhaustive: adding a code without a status is a compile error. */
export function httpStatusOf(code: ErrorCode): number {
  switch (code) {
    case ErrorCode.VALIDATION:
      return 400;
    case ErrorCode.UNAUTHENTICATED:
    case ErrorCode.TOKEN_INVALID:
      return 401;
    case ErrorCode.FORBIDDEN:
      return 403;
    case ErrorCode.NOT_FOUND:
      return 404;
    case ErrorCode.CONFLICT:
    case ErrorCode.OCCUPANCY_CONFLICT:
    case ErrorCode.WAITLIST_DUPLICATE:
    case ErrorCode.WAITLIST_STALE:
    case ErrorCode.WAITLIST_OFFER_CONFLICT:
    case ErrorCode.WAITLIST_OFFER_EXPIRED:
    case ErrorCode.IDEMPOTENCY_IN_PROGRESS:
      return 409;
    case ErrorCode.RULE_VIOLATION:
    case ErrorCode.PAID_BOOKING_UNAVAILABLE:
    case ErrorCode.IDEMPOTENCY_KEY_REUSED:
      return 422;
    case ErrorCode.RATE_LIMITED:
      return 429;
    case ErrorCode.UNAVAILABLE:
      return 503;
    case ErrorCode.INTERNAL:
      return 500;
    default: {
      const unreachable: never = code;
      return unreachable;
    }
  }
}
