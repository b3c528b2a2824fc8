import { ApiError } from '../api/client';

/**
 * Acts this page did itself, so that the board event they cause does not also raise a notice here
 * (the page already said "Ada accepted."). Another tablet's or the party's own act is not in it.
 */
const mine = new Set<string>();

export function markOwn(key: string): void {
  mine.add(key);
}

/** Whether this page did the act; forgets it, since one act raises one event. */
export function takeOwn(key: string): boolean {
  return mine.delete(key);
}

/**
 * Runs an act of this page marked as its own (`key`). Refused, it was not this page's: still marked,
 * the mark is dropped (another screen's act, if its event comes later, is told as that); no longer
 * marked, that event came while this tap was on its way and was taken for this page's own, unsaid:
 * `doneElsewhere` says it (the host would read only "This offer is no longer open."). An act left
 * unanswered (offline, or a server error) may have been done by this page: it keeps its mark.
 */
export async function ownAct(key: string, run: () => Promise<void>, doneElsewhere: () => Promise<void>): Promise<void> {
  markOwn(key);
  try {
    await run();
  } catch (err) {
    const refused = err instanceof ApiError && err.status >= 400 && err.status < 500;
    if (!refused || takeOwn(key)) throw err;
    await doneElsewhere();
  }
}
