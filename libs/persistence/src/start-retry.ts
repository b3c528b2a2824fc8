import { databaseUnreachable } from '@hostboard/core';

export interface StartRetry {
  /** Attempts in all, the first included. */
  attempts: number;
  delayMs: number;
  /** Whether another attempt could succeed (a refused password will not; a server still starting may). */
  retryable: (err: unknown) => boolean;
  /** One line per failed attempt that is tried again; the last failure is the caller's to say. */
  log: (line: string) => void;
}

/**
 * Runs a start-up step again while it fails in a way that may pass (the app started before
 * PostgreSQL, as a restart of the whole host does). Each retry says so in one line: Nest's own
 * retry printed "Unable to connect to the database" with the driver's stack ten times, thirty
 * lines of frames before the one line that says what to fix.
 */
export async function retryStart<T>(step: () => Promise<T>, retry: StartRetry): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await step();
    } catch (err) {
      if (attempt >= retry.attempts || !retry.retryable(err)) throw err;
      const why = err instanceof Error ? err.message : String(err);
      const seconds = retry.delayMs / 1000;
      retry.log(
        databaseUnreachable(err)
          ? `the database is not reachable yet (${why}); trying again in ${seconds} s (attempt ${attempt + 1} of ${retry.attempts})`
          : `start-up failed (${why}); trying again in ${seconds} s (attempt ${attempt + 1} of ${retry.attempts})`,
      );
      await new Promise((resolve) => setTimeout(resolve, retry.delayMs));
    }
  }
}
