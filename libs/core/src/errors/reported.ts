const REPORTED = Symbol.for('hostboard.reported');

/**
 * Marks an error as already accounted for in the log (by whoever threw it, such as the job
 * scheduler's one line per Redis outage), so the caller that catches it adds no line of its own.
 */
export function reported<E>(err: E): E {
  if (typeof err === 'object' && err !== null) Object.defineProperty(err, REPORTED, { value: true });
  return err;
}

export function isReported(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as Record<symbol, unknown>)[REPORTED] === true;
}
