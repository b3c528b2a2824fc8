/**
 * The position quote of a table venue, as pure arithmetic (the spec's "position quote"):
 *
 * - the kind of table a party needs is the smallest capacity among the venue's tables and approved
 *   combinations that seats it (null when none does);
 * - an earlier same-day active party counts as ahead when its size fits that capacity, so a couple is
 *   not queued behind a party of ten; when no table or combination seats the party, every earlier
 *   active party counts (nothing smaller can be said honestly);
 * - position = ahead + 1, and the wait is that position times the running window's turn length.
 */
export interface TableQuote {
  /** The capacity of the smallest table or combination that seats the party; null when none does. */
  kind: number | null;
  ahead: number;
  position: number;
  /** Null when no service window runs (nothing to multiply by). */
  waitMinutes: number | null;
}

export function tableKind(partySize: number, capacities: number[]): number | null {
  const fitting = capacities.filter((c) => c >= partySize);
  return fitting.length === 0 ? null : Math.min(...fitting);
}

export function tableQuote(
  partySize: number,
  earlierPartySizes: number[],
  capacities: number[],
  turnMinutes: number | null,
): TableQuote {
  const kind = tableKind(partySize, capacities);
  const ahead = earlierPartySizes.filter((size) => kind === null || size <= kind).length;
  const position = ahead + 1;
  return { kind, ahead, position, waitMinutes: turnMinutes === null ? null : position * turnMinutes };
}

/**
 * "position 3 (2 ahead), quoted ~50 min (approx)". With no wait to quote, the position alone; a table
 * venue's position is an estimate too (parties ahead may leave or be seated elsewhere), so it keeps
 * the marker: "position 3 (2 ahead) (approx)". A pool's strict order makes its position exact.
 */
export function quoteText(position: number, ahead: number, waitMinutes: number | null, approx = false): string {
  const where = `position ${position} (${ahead} ahead)`;
  if (waitMinutes !== null) return `${where}, quoted ~${waitMinutes} min (approx)`;
  return approx ? `${where} (approx)` : where;
}
