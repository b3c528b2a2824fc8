/**
 * Job failures as an operator reads them: a failure is logged, and the same failure again within
 * `windowMs` is only counted, then reported as one line ("… 58 more like it") with the next line
 * logged. During a PostgreSQL outage every due job fails and retries with the same reason; one line
 * each flooded the log (59 lines in a 16 s outage for 15 offers) and hid the outage's own lines.
 */
export class FailureLog {
  private reason = '';
  private loggedAt = Number.NEGATIVE_INFINITY;
  private repeats = 0;

  constructor(
    private readonly warn: (line: string) => void,
    private readonly now: () => number = Date.now,
    private readonly windowMs = 10_000,
  ) {}

  /** `line` names the job; `reason` is what repeats (the error's message). */
  failed(line: string, reason: string): void {
    const at = this.now();
    if (reason === this.reason && at - this.loggedAt < this.windowMs) {
      this.repeats++;
      return;
    }
    this.flush();
    this.warn(line);
    this.reason = reason;
    this.loggedAt = at;
  }

  /** Reports the failures counted since the last line, if any. */
  flush(): void {
    if (this.repeats === 0) return;
    this.warn(`${this.repeats} more job failure${this.repeats === 1 ? '' : 's'} like it (${this.reason})`);
    this.repeats = 0;
  }
}
