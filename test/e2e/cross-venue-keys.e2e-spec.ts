import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { SQLSTATE, sqlState, violatedConstraint } from '@hostboard/core';
import { MIGRATIONS } from '../../libs/persistence/src/migrations/index.js';
import { migratedDataSource } from '../support/memory-image.js';
import { freshDatabase, type TestDatabase } from '../support/test-database.js';

/**
 * A row that carries a venue_id and names another venue-scoped row (a placement's reservation and
 * table, a visit's reservation, an offer's entry and reservation, a reservation's entry, a token's,
 * a session's and a quote's entry) is refused by the database when the two venues differ, whatever
 * code writes it: composite keys on (reference, venue_id) (migration CrossVenueKeys). On PostgreSQL
 * when DATABASE_URL is set, else on the embedded database.
 */
describe('cross-venue rows are refused by the database', () => {
  let db: TestDatabase;
  let ds: DataSource;
  /** Rows of the Lisbon venue; the other venue (Osaka) names them below. */
  let own: { venue: string; table: string; entry: string; reservation: string };
  let other: string;
  const at = new Date('2026-11-14T19:05:00Z');

  const venue = async (slug: string, zone: string): Promise<string> => {
    const id = randomUUID();
    await ds.query(
      `INSERT INTO venues (id, slug, name, time_zone, preset, seating, hold_seconds, on_offer_expired,
                           require_service_window, one_entry_per_contact, queue_order, created_at)
       VALUES ($1, $2, $2, $3, 'restaurant', 'tables', 420, 'keep-place', true, true, 'host-pick', $4)`,
      [id, slug, zone, at],
    );
    return id;
  };
  const table = async (venueId: string, label: string): Promise<string> => {
    const id = randomUUID();
    await ds.query(`INSERT INTO venue_tables (id, venue_id, label, capacity, created_at) VALUES ($1, $2, $3, 6, $4)`, [
      id,
      venueId,
      label,
      at,
    ]);
    return id;
  };
  let sequence = 0;
  const entry = async (venueId: string): Promise<string> => {
    const id = randomUUID();
    await ds.query(
      `INSERT INTO queue_entries (id, venue_id, name, party_size, status, received_at, queue_sequence, business_date, created_at)
       VALUES ($1, $2, 'Ines Costa', 5, 'waiting', $3, $4, '2026-11-14', $3)`,
      [id, venueId, at, ++sequence],
    );
    return id;
  };
  const reservation = async (venueId: string, entryId: string | null): Promise<string> => {
    const id = randomUUID();
    await ds.query(
      `INSERT INTO reservations (id, venue_id, entry_id, kind, name, party_size, state, created_at, updated_at)
       VALUES ($1, $2, $3, 'tables', 'Ines Costa', 5, 'CONFIRMED', $4, $4)`,
      [id, venueId, entryId, at],
    );
    return id;
  };

  /** Each row that names the Lisbon rows, written with the venue given. */
  const rows: Array<[what: string, constraint: string, write: (venueId: string) => Promise<unknown>]> = [
    [
      "a placement on another venue's reservation",
      'reservation_tables_reservation_same_venue',
      async (venueId) =>
        ds.query<unknown>(
          `INSERT INTO reservation_tables (reservation_id, table_id, venue_id, slot) VALUES ($1, $2, $3, tstzrange($4, $5))`,
          [own.reservation, await table(venueId, `S${++sequence}`), venueId, at, new Date(at.getTime() + 75 * 60_000)],
        ),
    ],
    [
      "a placement on another venue's table",
      'reservation_tables_table_same_venue',
      async (venueId) =>
        ds.query<unknown>(
          `INSERT INTO reservation_tables (reservation_id, table_id, venue_id, slot) VALUES ($1, $2, $3, tstzrange($4, $5))`,
          [await reservation(venueId, null), own.table, venueId, at, new Date(at.getTime() + 75 * 60_000)],
        ),
    ],
    [
      "a visit of another venue's reservation",
      'visits_reservation_same_venue',
      (venueId) =>
        ds.query(`INSERT INTO visits (id, venue_id, reservation_id, opened_at, closed_at) VALUES ($1, $2, $3, $4, $4)`, [
          randomUUID(),
          venueId,
          own.reservation,
          at,
        ]),
    ],
    [
      "an offer of another venue's reservation",
      'offers_reservation_same_venue',
      async (venueId) =>
        ds.query<unknown>(
          `INSERT INTO offers (id, venue_id, entry_id, reservation_id, state, expires_at, created_at) VALUES ($1, $2, $3, $4, 'expired', $5, $5)`,
          [randomUUID(), venueId, await entry(venueId), own.reservation, at],
        ),
    ],
    [
      "an offer to another venue's entry",
      'offers_entry_same_venue',
      async (venueId) =>
        ds.query<unknown>(
          `INSERT INTO offers (id, venue_id, entry_id, reservation_id, state, expires_at, created_at) VALUES ($1, $2, $3, $4, 'expired', $5, $5)`,
          [randomUUID(), venueId, own.entry, await reservation(venueId, null), at],
        ),
    ],
    ["a reservation for another venue's entry", 'reservations_entry_same_venue', (venueId) => reservation(venueId, own.entry)],
    [
      "a queue token of another venue's entry",
      'queue_tokens_entry_same_venue',
      (venueId) =>
        ds.query(
          `INSERT INTO queue_tokens (id, venue_id, entry_id, token_hash, created_at, expires_at, used_at) VALUES ($1, $2, $3, $4, $5, $5, $5)`,
          [randomUUID(), venueId, own.entry, `hash-${randomUUID()}`, at],
        ),
    ],
    [
      "a queue session of another venue's entry",
      'queue_sessions_entry_same_venue',
      (venueId) =>
        ds.query(
          `INSERT INTO queue_sessions (id, venue_id, entry_id, token_hash, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $5)`,
          [randomUUID(), venueId, own.entry, `hash-${randomUUID()}`, at],
        ),
    ],
    [
      "a quote of another venue's entry",
      'entry_quotes_entry_same_venue',
      async (venueId) => {
        // One quote per entry (its key): the same venue's row is written for an entry of its own.
        const entryId = venueId === own.venue ? await entry(venueId) : own.entry;
        return ds.query<unknown>(
          `INSERT INTO entry_quotes (entry_id, venue_id, business_date, model, turns_inputs, floor_inputs, created_at)
           VALUES ($1, $2, '2026-11-14', 'turns', '{}', '{}', $3)`,
          [entryId, venueId, at],
        );
      },
    ],
  ];

  const refusal = (write: Promise<unknown>): Promise<{ state?: string; constraint?: string } | null> =>
    write.then(
      () => null,
      (err: unknown) => ({ state: sqlState(err), constraint: violatedConstraint(err) }),
    );

  beforeAll(async () => {
    db = await freshDatabase();
    ds = await migratedDataSource(db);
    const lisbon = await venue('lisbon', 'Europe/Lisbon');
    other = await venue('osaka', 'Asia/Tokyo');
    const e = await entry(lisbon);
    own = { venue: lisbon, table: await table(lisbon, 'L1'), entry: e, reservation: await reservation(lisbon, e) };
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it.each(rows)('refuses %s (%s); the same row in its own venue is written', async (_what, constraint, write) => {
    expect(await refusal(write(other))).toEqual({ state: SQLSTATE.foreignKeyViolation, constraint });
    expect(await refusal(write(own.venue))).toBeNull();
  });

  it("keeps the delete rules: an entry's removal clears its reservation's entry and keeps its venue; a reservation's removal takes its rows", async () => {
    const e = await entry(own.venue);
    const r = await reservation(own.venue, e);
    const t = await table(own.venue, 'L9');
    await ds.query(
      `INSERT INTO reservation_tables (reservation_id, table_id, venue_id, slot) VALUES ($1, $2, $3, tstzrange($4, $5))`,
      [r, t, own.venue, new Date(at.getTime() + 3 * 3_600_000), new Date(at.getTime() + 4 * 3_600_000)],
    );
    await ds.query(`DELETE FROM queue_entries WHERE id = $1`, [e]);
    expect(await ds.query(`SELECT entry_id, venue_id FROM reservations WHERE id = $1`, [r])).toEqual([
      { entry_id: null, venue_id: own.venue },
    ]);
    await ds.query(`DELETE FROM reservations WHERE id = $1`, [r]);
    expect(await ds.query(`SELECT count(*)::int AS n FROM reservation_tables WHERE reservation_id = $1`, [r])).toEqual([
      { n: 0 },
    ]);
  });

  it('a database that already holds a mismatched row stops the migration; without the migration it was written', async () => {
    // Undone with the migrations after it (CombinationOutboxVenueKeys), which the run below applies again.
    const later = MIGRATIONS.length - 1 - MIGRATIONS.findIndex((M) => new M().name === 'CrossVenueKeys1796523400000');
    expect(later).toBeGreaterThanOrEqual(0);
    for (let i = 0; i <= later; i++) await ds.undoLastMigration({ transaction: 'each' });
    try {
      // Before the migration: the code's convention only, and a placement filed under another venue is written.
      const stray = randomUUID();
      await ds.query(`INSERT INTO visits (id, venue_id, reservation_id, opened_at, closed_at) VALUES ($1, $2, $3, $4, $4)`, [
        stray,
        other,
        own.reservation,
        at,
      ]);
      const stopped = await ds.runMigrations({ transaction: 'each' }).then(
        () => null,
        (err: unknown) => ({ state: sqlState(err), constraint: violatedConstraint(err) }),
      );
      expect(stopped).toEqual({ state: SQLSTATE.foreignKeyViolation, constraint: 'visits_reservation_same_venue' });
      await ds.query(`DELETE FROM visits WHERE id = $1`, [stray]);
    } finally {
      await ds.runMigrations({ transaction: 'each' });
    }
    expect(await refusal(rows[0]![2](other))).toEqual({
      state: SQLSTATE.foreignKeyViolation,
      constraint: 'reservation_tables_reservation_same_venue',
    });
  });
});
