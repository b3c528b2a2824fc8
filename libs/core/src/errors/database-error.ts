/** SQLSTATE of a failed query, from pg or PGlite errors wrapped by TypeORM's QueryFailedError. */
export function sqlState(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const e = err as { code?: unknown; driverError?: { code?: unknown } };
  const code = e.driverError?.code ?? e.code;
  return typeof code === 'string' ? code : undefined;
}

/** Name of the constraint a failed query violated, when the driver reports it. */
export function violatedConstraint(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const e = err as { constraint?: unknown; driverError?: { constraint?: unknown } };
  const name = e.driverError?.constraint ?? e.constraint;
  return typeof name === 'string' ? name : undefined;
}

export const SQLSTATE = {
  uniqueViolation: '23505',
  exclusionViolation: '23P01',
  checkViolation: '23514',
  foreignKeyViolation: '23503',
  serializationFailure: '40001',
  deadlockDetected: '40P01',
  lockNotAvailable: '55P03',
} as const;

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
]);

/** The database is down or restarting (not a refusal of this request): answered 503. */
export function databaseUnreachable(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { code?: unknown; message?: unknown; driverError?: { code?: unknown; message?: unknown } };
  const code = e.driverError?.code ?? e.code;
  if (typeof code === 'string' && UNREACHABLE_CODES.has(code)) return true;
  const raw = e.driverError?.message ?? e.message;
  const message = typeof raw === 'string' ? raw : '';
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|connect ECONNREFUSED/i.test(
    message,
  );
}
