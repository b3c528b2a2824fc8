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
