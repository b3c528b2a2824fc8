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
