import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { SQLSTATE, sqlState, violatedConstraint } from '@hostboard/core';
import { MIGRATIONS } from '../../libs/persistence/src/migrations/index.js';
import { violations } from '../support/invariants.js';
import { migratedDataSource } from '../support/memory-image.js';
import { activeEntries, joined, messages, moveClock, sandboxVenue } from '../support/restaurant.js';
import { signUp, type Staff } from '../support/staff.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { freshDatabase, type TestDatabase } from '../support/test-database.js';

const at = new Date('2026-11-21T18:40:00Z');

const refusal = (write: Promise<unknown>): Promise<{ state?: string; constraint?: string } | null> =>
  write.then(
    () => null,
    (err: unknown) => ({ state: sqlState(err), constraint: violatedConstraint(err) }),
  );

/**
 * A combination's member table, and a guest message's entry and reservation, are of the row's own
 * venue, by the database (migration CombinationOutboxVenueKeys): each mismatched row written with
 * plain SQL is refused, naming its key. On PostgreSQL when DATABASE_URL is set, else embedded.
 */
describe('combination members and guest messages stay in their venue', () => {
  let db: TestDatabase;
  let ds: DataSource;
  /** Rows of the Porto venue; the Auckland venue names them below. */
  let own: { venue: string; table: string; combination: string; entry: string; reservation: string };
  let other: string;
  let sequence = 0;

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
  const table = async (venueId: string): Promise<string> => {
    const id = randomUUID();
    await ds.query(`INSERT INTO venue_tables (id, venue_id, label, capacity, created_at) VALUES ($1, $2, $3, 3, $4)`, [
      id,
      venueId,
      `P${++sequence}`,
      at,
    ]);
    return id;
  };
  const combination = async (venueId: string): Promise<string> => {
    const id = randomUUID();
    await ds.query(`INSERT INTO table_combinations (id, venue_id, capacity, table_key, created_at) VALUES ($1, $2, 7, $3, $4)`, [
      id,
      venueId,
      `key-${++sequence}`,
      at,
    ]);
    return id;
  };
  const entry = async (venueId: string): Promise<string> => {
    const id = randomUUID();
    await ds.query(
      `INSERT INTO queue_entries (id, venue_id, name, party_size, status, received_at, queue_sequence, business_date, created_at)
       VALUES ($1, $2, 'Rui Paiva', 7, 'waiting', $3, $4, '2026-11-21', $3)`,
      [id, venueId, at, ++sequence],
    );
    return id;
  };
  const reservation = async (venueId: string, entryId: string | null): Promise<string> => {
    const id = randomUUID();
    await ds.query(
      `INSERT INTO reservations (id, venue_id, entry_id, kind, name, party_size, state, created_at, updated_at)
       VALUES ($1, $2, $3, 'tables', 'Rui Paiva', 7, 'CONFIRMED', $4, $4)`,
      [id, venueId, entryId, at],
    );
    return id;
  };
  const member = (combinationId: string, tableId: string, venueId: string): Promise<unknown> =>
    ds.query(`INSERT INTO table_combination_tables (combination_id, table_id, venue_id) VALUES ($1, $2, $3)`, [
      combinationId,
      tableId,
      venueId,
    ]);
  const message = (venueId: string, entryId: string | null, reservationId: string | null, id = randomUUID()): Promise<unknown> =>
    ds.query(
      `INSERT INTO outbox_messages (id, venue_id, channel, to_address, template, subject, body, status, entry_id, reservation_id, created_at)
       VALUES ($1, $2, 'email', 'rui@example.test', 'table-ready', 'Your table is ready', 'Come in', 'recorded', $3, $4, $5)`,
      [id, venueId, entryId, reservationId, at],
    );

  /** Each row that names the Porto rows, written with the venue given. */
  const rows: Array<[what: string, constraint: string, write: (venueId: string) => Promise<unknown>]> = [
    [
      "a combination listing another venue's table",
      'table_combination_tables_table_same_venue',
      async (venueId) => member(await combination(venueId), own.table, venueId),
    ],
    [
      "a member row filed under another venue than its combination's",
      'table_combination_tables_combination_same_venue',
      async (venueId) => member(own.combination, await table(venueId), venueId),
    ],
    ["a message about another venue's entry", 'outbox_messages_entry_same_venue', (venueId) => message(venueId, own.entry, null)],
    [
      "a message about another venue's reservation",
      'outbox_messages_reservation_same_venue',
      async (venueId) => message(venueId, venueId === own.venue ? own.entry : await entry(venueId), own.reservation),
    ],
  ];

  beforeAll(async () => {
    db = await freshDatabase();
    ds = await migratedDataSource(db);
    const porto = await venue('porto', 'Europe/Lisbon');
    other = await venue('auckland', 'Pacific/Auckland');
    const e = await entry(porto);
    own = {
      venue: porto,
      table: await table(porto),
      combination: await combination(porto),
      entry: e,
      reservation: await reservation(porto, e),
    };
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it.each(rows)('refuses %s (%s); the same row in its own venue is written', async (_what, constraint, write) => {
    expect(await refusal(write(other))).toEqual({ state: SQLSTATE.foreignKeyViolation, constraint });
    expect(await refusal(write(own.venue))).toBeNull();
  });

  it('keeps the delete rules: a combination or a table takes its member rows; a message outlives its entry and reservation', async () => {
    const c = await combination(own.venue);
    const [t1, t2] = [await table(own.venue), await table(own.venue)];
    await member(c, t1, own.venue);
    await member(c, t2, own.venue);
    await ds.query(`DELETE FROM venue_tables WHERE id = $1`, [t2]);
    expect(await ds.query(`SELECT table_id FROM table_combination_tables WHERE combination_id = $1`, [c])).toEqual([
      { table_id: t1 },
    ]);
    await ds.query(`DELETE FROM table_combinations WHERE id = $1`, [c]);
    expect(await ds.query(`SELECT count(*)::int AS n FROM table_combination_tables WHERE combination_id = $1`, [c])).toEqual([
      { n: 0 },
    ]);

    const e = await entry(own.venue);
    const r = await reservation(own.venue, e);
    const id = randomUUID();
    await message(own.venue, e, r, id);
    await ds.query(`DELETE FROM reservations WHERE id = $1`, [r]);
    await ds.query(`DELETE FROM queue_entries WHERE id = $1`, [e]);
    expect(await ds.query(`SELECT venue_id, entry_id, reservation_id FROM outbox_messages WHERE id = $1`, [id])).toEqual([
      { venue_id: own.venue, entry_id: null, reservation_id: null },
    ]);
  });

  /** Back to just before it: it and every later migration undone (the reruns redo them all). */
  const undoToBefore = async (): Promise<void> => {
    const index = MIGRATIONS.findIndex((M) => new M().name === 'CombinationOutboxVenueKeys1796523500000');
    expect(index).toBeGreaterThanOrEqual(0);
    for (let i = MIGRATIONS.length - 1; i >= index; i--) await ds.undoLastMigration({ transaction: 'each' });
  };

  it("fills a member row's venue from its combination; a database already holding a mismatched row stops the migration", async () => {
    await undoToBefore();
    const rerun = (): Promise<{ state?: string; constraint?: string } | null> =>
      refusal(ds.runMigrations({ transaction: 'each' }));
    try {
      // Before the migration: no venue on a member row, no key on a message's entry or reservation.
      const kept = await combination(own.venue);
      const keptTable = await table(own.venue);
      await ds.query(`INSERT INTO table_combination_tables (combination_id, table_id) VALUES ($1, $2)`, [kept, keptTable]);
      const strayCombination = await combination(other);
      await ds.query(`INSERT INTO table_combination_tables (combination_id, table_id) VALUES ($1, $2)`, [
        strayCombination,
        own.table,
      ]);
      expect(await rerun()).toEqual({
        state: SQLSTATE.foreignKeyViolation,
        constraint: 'table_combination_tables_table_same_venue',
      });
      await ds.query(`DELETE FROM table_combinations WHERE id = $1`, [strayCombination]);

      const strayMessage = randomUUID();
      await message(other, own.entry, null, strayMessage);
      expect(await rerun()).toEqual({ state: SQLSTATE.foreignKeyViolation, constraint: 'outbox_messages_entry_same_venue' });
      await ds.query(`DELETE FROM outbox_messages WHERE id = $1`, [strayMessage]);
      await message(own.venue, own.entry, randomUUID(), strayMessage);
      expect(await rerun()).toEqual({
        state: SQLSTATE.foreignKeyViolation,
        constraint: 'outbox_messages_reservation_same_venue',
      });
      await ds.query(`DELETE FROM outbox_messages WHERE id = $1`, [strayMessage]);

      expect(await rerun()).toBeNull();
      expect(await ds.query(`SELECT venue_id FROM table_combination_tables WHERE combination_id = $1`, [kept])).toEqual([
        { venue_id: own.venue },
      ]);
    } finally {
      await ds.runMigrations({ transaction: 'each' });
    }
    expect(await refusal(rows[0]![2](other))).toEqual({
      state: SQLSTATE.foreignKeyViolation,
      constraint: 'table_combination_tables_table_same_venue',
    });
  });

  it('down restores the keys it replaced, and removes the column', async () => {
    const keys = async (): Promise<string[]> =>
      (
        (await ds.query(
          `SELECT conrelid::regclass::text || ' ' || conname AS key FROM pg_constraint
            WHERE conrelid IN ('table_combination_tables'::regclass, 'outbox_messages'::regclass, 'table_combinations'::regclass)
              AND contype IN ('f', 'u')`,
        )) as Array<{ key: string }>
      )
        .map((r) => r.key)
        .sort();
    const after = await keys();
    const added = [
      'table_combinations table_combinations_id_venue_key',
      'table_combination_tables table_combination_tables_combination_same_venue',
      'table_combination_tables table_combination_tables_table_same_venue',
      'outbox_messages outbox_messages_entry_same_venue',
      'outbox_messages outbox_messages_reservation_same_venue',
    ];
    expect(after).toEqual(expect.arrayContaining(added));
    await undoToBefore();
    try {
      expect(await keys()).toEqual(
        [
          ...after.filter((k) => !added.includes(k)),
          'table_combination_tables FK_0d673a87f0ab70b809bc953b4a1',
          'table_combination_tables FK_72deacd8ad682b83a572f43b89b',
        ].sort(),
      );
      expect(
        await ds.query(
          `SELECT column_name FROM information_schema.columns WHERE table_name = 'table_combination_tables' AND column_name = 'venue_id'`,
        ),
      ).toEqual([]);
    } finally {
      await ds.runMigrations({ transaction: 'each' });
    }
    expect(await keys()).toEqual(after);
  });
});

/** The paths that write these rows, through HTTP: a combination approved, a join with a message, an offer of the combination, its acceptance. */
describe('combinations and guest messages through the api, with the venue keys', () => {
  let t: TestApp;
  let owner: Staff;
  const T0 = '2026-11-21T01:10:00.000Z'; // 7:10 PM in Chicago

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'owner');
  });
  afterEach(async () => expect(await violations(t.app.get<DataSource>(getDataSourceToken()))).toEqual([]));
  afterAll(() => t.close());

  it('approves a combination, offers it to a party of seven that gave an email and a phone, and the party accepts', async () => {
    const v = await sandboxVenue(t, owner, {
      clock: T0,
      tables: [
        { label: 'B1', capacity: 3 },
        { label: 'B2', capacity: 4 },
      ],
    });
    const combo = await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/combinations`)
      .set(owner.auth)
      .send({ tableIds: [v.tableIds['B1'], v.tableIds['B2']], capacity: 7 })
      .expect(201);
    const p = await joined(t, owner, v.id, {
      name: 'Ana Lobo',
      partySize: 7,
      email: 'ana.lobo@example.test',
      phone: '+13125550167',
    });
    const entry = (await activeEntries(t, owner, v.id)).find((e) => e.id === p.entry.id);
    const offered = await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/offers`)
      .set(owner.auth)
      .send({ entryId: p.entry.id, entryVersion: entry?.version, tableIds: [v.tableIds['B2'], v.tableIds['B1']] })
      .expect(201);
    const offer = (offered.body as { offer: { id: string }; reservation: { id: string } }).offer;
    await moveClock(t, owner, v.id, '2026-11-21T01:12:00.000Z');
    await request(t.baseUrl).post(`/v1/venues/${v.id}/offers/${offer.id}/accept`).set(owner.auth).send({}).expect(200);

    const sent = await messages(t, owner, v.id);
    expect(sent.map((m) => `${m.template} ${m.channel}`).sort()).toEqual([
      'queue-joined email',
      'queue-joined sms',
      'table-ready email',
      'table-ready sms',
    ]);
    const ds = t.app.get<DataSource>(getDataSourceToken());
    expect(
      await ds.query(`SELECT DISTINCT venue_id FROM table_combination_tables WHERE combination_id = $1`, [
        (combo.body as { id: string }).id,
      ]),
    ).toEqual([{ venue_id: v.id }]);
    expect(
      await ds.query(`SELECT count(*)::int AS n FROM outbox_messages WHERE venue_id = $1 AND entry_id = $2`, [v.id, p.entry.id]),
    ).toEqual([{ n: 4 }]);
  });
});
