/**
 * What `/ready` reports for one dependency: `ok`; `unreachable` (no answer, or none within the
 * check's bound); `full` (it answers but refuses writes: a Redis at its maxmemory with noeviction).
 */
export type DependencyState = 'ok' | 'unreachable' | 'full';

/** Something `/ready` checks (the database; Redis where configured). */
export interface ReadinessCheck {
  readonly name: string;
  /**
   * The api cannot serve without it (the database): while it is not `ok`, `/ready` answers 503. A
   * dependency the api carries on without (Redis) only makes the answer `degraded`, still 200, so a
   * load balancer does not take every api process out at once for an outage none of them is hurt by.
   */
  readonly required: boolean;
  /** Resolves `ok` or a state it answered in (`full`); rejects when the dependency cannot be reached. */
  check(): Promise<DependencyState>;
}

export const READINESS_CHECKS = Symbol('READINESS_CHECKS');
