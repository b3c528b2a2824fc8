import type { DataSource } from 'typeorm';

/**
 * The invariants of ARCHITECTURE.md, checked as SQL against the saved data. Written once; every
 * test that changes state can end with `expect(await violations(ds)).toEqual([])`.
 */
const CHECKS: Array<{ name: string; sql: (at: (column: string) => string) => string }> = [
  {
    name: 'pool counters equal the people in held and confirmed reservations',
    sql: (at) => `SELECT v.id FROM venues v
          LEFT JOIN LATERAL (
            SELECT COALESCE(SUM(party_size) FILTER (WHERE state IN ('CONFIRMED','SEATED')), 0) AS confirmed,
                   COALESCE(SUM(party_size) FILTER (WHERE state = 'HELD'), 0) AS held
              FROM reservations r WHERE r.venue_id = v.id AND r.kind = 'pool') s ON true
         WHERE (v.pool_confirmed <> s.confirmed OR v.pool_held <> s.held) ${at('v.id')}`,
  },
  {
    name: 'confirmed + held + available = capacity, none negative',
    sql: (at) => `SELECT id FROM venues WHERE pool_capacity IS NOT NULL ${at('id')}
            AND (pool_confirmed < 0 OR pool_held < 0 OR pool_capacity - pool_confirmed - pool_held < 0)`,
  },
  {
    name: 'at most one live offer per entry',
    sql: (at) => `SELECT entry_id FROM offers WHERE state = 'live' ${at('venue_id')} GROUP BY entry_id HAVING COUNT(*) > 1`,
  },
  {
    name: 'a reservation belongs to at most one offer',
    sql: (at) => `SELECT reservation_id FROM offers WHERE true ${at('venue_id')} GROUP BY reservation_id HAVING COUNT(*) > 1`,
  },
  {
    name: 'a live offer holds a HELD reservation for an offered entry',
    sql: (at) => `SELECT o.id FROM offers o JOIN reservations r ON r.id = o.reservation_id JOIN queue_entries e ON e.id = o.entry_id
           WHERE o.state = 'live' ${at('o.venue_id')} AND (r.state <> 'HELD' OR e.status <> 'offered')`,
  },
  {
    name: 'an offered entry has exactly one live offer',
    sql: (at) => `SELECT e.id FROM queue_entries e WHERE e.status = 'offered' ${at('e.venue_id')}
            AND (SELECT COUNT(*) FROM offers o WHERE o.entry_id = e.id AND o.state = 'live') <> 1`,
  },
  {
    name: 'a HELD reservation of a queue entry is behind a live offer',
    sql: (at) => `SELECT r.id FROM reservations r WHERE r.state = 'HELD' ${at('r.venue_id')} AND r.entry_id IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM offers o WHERE o.reservation_id = r.id AND o.state = 'live')`,
  },
  {
    name: 'an accepted offer left a CONFIRMED (or later) reservation',
    sql: (at) => `SELECT o.id FROM offers o JOIN reservations r ON r.id = o.reservation_id
           WHERE o.state = 'accepted' ${at('o.venue_id')} AND r.state NOT IN ('CONFIRMED', 'SEATED', 'COMPLETED', 'CANCELLED')`,
  },
  {
    name: 'every entry, reservation and offer has history, and its last history row is its state',
    sql: (at) => `SELECT x.id FROM (
            SELECT id, status AS state, 'entry' AS t, venue_id FROM queue_entries
            UNION ALL SELECT id, state, 'reservation', venue_id FROM reservations
            UNION ALL SELECT id, state, 'offer', venue_id FROM offers) x
          LEFT JOIN LATERAL (SELECT h.to_state FROM history h WHERE h.subject_id = x.id AND h.subject_type = x.t ORDER BY h.at DESC, h.id DESC LIMIT 1) last ON true
          WHERE last.to_state IS DISTINCT FROM x.state ${at('x.venue_id')}`,
  },
  {
    name: 'one active entry per contact per venue and day',
    sql: (at) => `SELECT venue_id FROM queue_entries WHERE status IN ('waiting','offered') AND contact_key IS NOT NULL ${at('venue_id')}
           GROUP BY venue_id, business_date, contact_key HAVING COUNT(*) > 1`,
  },
  {
    name: 'no table carries two active reservations with overlapping slots',
    sql: (at) => `SELECT x.table_id FROM reservation_tables x JOIN reservation_tables y
            ON x.table_id = y.table_id AND x.reservation_id < y.reservation_id AND x.active AND y.active AND x.slot && y.slot
         WHERE true ${at('x.venue_id')}`,
  },
  {
    name: 'a table row is active exactly while its reservation is HELD, CONFIRMED or SEATED',
    sql: (at) => `SELECT rt.reservation_id FROM reservation_tables rt JOIN reservations r ON r.id = rt.reservation_id
           WHERE rt.active <> (r.state IN ('HELD', 'CONFIRMED', 'SEATED')) ${at('r.venue_id')}`,
  },
  {
    name: 'a SEATED reservation has exactly one open visit, and an open visit a SEATED reservation',
    sql: (at) => `SELECT r.id FROM reservations r WHERE (r.state = 'SEATED') <> EXISTS (SELECT 1 FROM visits v WHERE v.reservation_id = r.id AND v.closed_at IS NULL) ${at('r.venue_id')}`,
  },
  {
    name: "an open visit's tables are taken from the moment it opened (a party seated early moved its slot)",
    sql: (at) => `SELECT v.id FROM visits v JOIN reservation_tables rt ON rt.reservation_id = v.reservation_id
           WHERE v.closed_at IS NULL AND lower(rt.slot) > v.opened_at ${at('v.venue_id')}`,
  },
  {
    name: 'board versions have no gaps and end at the venue version',
    sql: (at) => `SELECT v.id FROM venues v LEFT JOIN LATERAL (SELECT COUNT(*) AS n, COALESCE(MAX(version), 0) AS top FROM board_events b WHERE b.venue_id = v.id) b ON true
           WHERE (b.n <> v.version OR b.top <> v.version) ${at('v.id')}`,
  },
];

/**
 * Every invariant broken in the saved data, or only at one venue's rows (`venueId`): a test that
 * checks after every step of a long run keeps the cost of a step from growing with the database.
 */
export async function violations(ds: DataSource, venueId?: string): Promise<string[]> {
  const found: string[] = [];
  const at = (column: string): string => (venueId === undefined ? '' : `AND ${column} = $1`);
  for (const c of CHECKS) {
    const rows: unknown[] = await ds.query(c.sql(at), venueId === undefined ? [] : [venueId]);
    if (rows.length > 0) found.push(`${c.name}: ${JSON.stringify(rows.slice(0, 3))}`);
  }
  return found;
}
