/** Who a table is taken by, named in CONFLICT and OCCUPANCY_CONFLICT refusals. */
export interface TablePlacement {
  tableId: string;
  label: string;
  reservationId: string;
  name: string;
  state: string;
  slot: { start: string; end: string };
}

/** Parses a PostgreSQL tstzrange literal `["2026-10-09 14:00:00+00","2026-10-09 15:30:00+00")`. */
export function parseSlot(range: string): { start: string; end: string } {
  const m = /^[[(]"?([^",]+)"?,"?([^")]+)"?[\])]$/.exec(range.trim());
  if (!m?.[1] || !m[2]) return { start: '', end: '' };
  return { start: new Date(m[1]).toISOString(), end: new Date(m[2]).toISOString() };
}

export function slotLiteral(start: Date, end: Date): string {
  return `[${start.toISOString()},${end.toISOString()})`;
}
