/**
 * Thrown from inside a command whose transaction did work that must stand on its own before the
 * command decides: the sweep of lapsed holds, found due under the command's venue lock. The spec
 * wants that sweep "in its own committed transaction" before an offer or an acceptance, so the runner
 * commits what the transaction did so far (the sweep, nothing of the command) and runs the command
 * again in a new transaction, which reads everything afresh. Nothing is recorded for the
 * Idempotency-Key by the committed part.
 */
export class CommitThenRetry extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'CommitThenRetry';
  }
}

/**
 * How many times one command may be sent round again: each round commits a sweep of what had lapsed
 * at its instant, so another round needs another hold to lapse in the milliseconds between; a command
 * that still meets one after this many is answered as busy (transient, retried by the client).
 */
export const COMMIT_THEN_RETRY_LIMIT = 5;
