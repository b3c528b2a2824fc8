/**
 * Expiry jobs Redis would not take, as an operator reads them: one line when the refusals start,
 * saying why (Redis full, unreachable, or too slow) and that the sweep covers them, then only a
 * count, reported in one line when Redis takes a job again. Each refused job used to log its own
 * line ("after-commit step failed … OOM command not allowed"), one per offer made during the outage,
 * on every api process.
 */
export interface RefusedJobsLogger {
  warn(line: string): void;
  log(line: string): void;
}

export type RefusalKind = 'full' | 'unreachable' | 'slow';

/** Why Redis did not take a write: full (OOM at maxmemory), unreachable, or no answer in time. */
export function refusalKind(err: unknown): RefusalKind {
  const message = (err as Error | undefined)?.message ?? '';
  if (/^OOM\b/.test(message)) return 'full';
  if (/took longer than/.test(message)) return 'slow';
  return 'unreachable';
}

const START_LINES: Record<RefusalKind, string> = {
  full: 'Redis is refusing writes (it is full: maxmemory reached with noeviction)',
  unreachable: 'Redis cannot be reached',
  slow: 'Redis does not answer in time',
};

/** After a "takes jobs again" line, refusals this soon start no new line (they are counted). */
export const QUIET_AFTER_RECOVERY_MS = 60_000;

export class RefusedJobsLog {
  /** Since the first refusal not yet reported; undefined when nothing is pending. */
  private since: number | undefined;
  /** Whether Redis refuses now: from a refusal until a write is taken. */
  private refusingNow = false;
  /** Whether the pending refusals' start was logged. */
  private announced = false;
  private scheduled = 0;
  private cancelled = 0;
  private recoveredAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly logger: RefusedJobsLogger,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether Redis is refusing jobs now (since the first refusal, until one is taken again). */
  get refusing(): boolean {
    return this.refusingNow;
  }

  /** A job Redis did not take: logs the first of an outage, counts the rest. */
  refused(what: 'schedule' | 'cancel', err: unknown): void {
    if (what === 'schedule') this.scheduled++;
    else this.cancelled++;
    this.refusingNow = true;
    const at = this.now();
    this.since ??= at;
    // A Redis at the edge of its maxmemory takes one write and refuses the next: within a minute of
    // the last "takes jobs again" a refusal only counts, so the lines cannot flip back and forth.
    if (this.announced || at - this.recoveredAt < QUIET_AFTER_RECOVERY_MS) return;
    this.announced = true;
    const reason = (err as Error | undefined)?.message ?? String(err);
    this.logger.warn(
      `${START_LINES[refusalKind(err)]}: expiry jobs are not queued meanwhile, and the worker's 15 s sweep expires their offers instead; ` +
        `one line with the count when Redis takes jobs again (${reason})`,
    );
  }

  /**
   * Redis took a write again: reports how many jobs it refused since the last such line, at most
   * once a minute (refusals between are carried to the next report).
   */
  accepted(): void {
    this.refusingNow = false;
    if (this.since === undefined) return;
    const at = this.now();
    if (at - this.recoveredAt < QUIET_AFTER_RECOVERY_MS) return;
    const seconds = Math.round((at - this.since) / 1000);
    const jobs = (n: number, what: string): string => `${n} ${what}${n === 1 ? '' : 's'}`;
    const parts = [`${jobs(this.scheduled, 'expiry job')} refused (the sweep expires their offers)`];
    if (this.cancelled > 0)
      parts.push(`${jobs(this.cancelled, 'job cancellation')} refused (those jobs run and find nothing to do)`);
    this.logger.log(`Redis takes jobs again after ${seconds} s: ${parts.join('; ')}`);
    this.since = undefined;
    this.announced = false;
    this.recoveredAt = at;
    this.scheduled = 0;
    this.cancelled = 0;
  }
}
