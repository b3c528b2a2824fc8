import { randomUUID } from 'node:crypto';
import { QueryFailedError, type DataSource } from 'typeorm';
import {
  HistoryRow,
  insertEntities,
  insertTogether,
  jsonRows,
  preparedQuery,
  readTogether,
  selectEntities,
} from '@hostboard/core';
import { QueueEntry } from '@hostboard/queue';
import { Venue } from '@hostboard/venue';
import { freshDatabase, type TestDatabase } from '../../../test/support/test-database.js';
import { migratedDataSource } from '../../../test/support/memory-image.js';

/**
 * The hot paths write and read entities with plain SQL (entity-rows). Whatever they write must read
 * back through TypeORM exactly as TypeORM's own insert would, and the other way round: dates stay
 * dates, a `date` column stays 'YYYY-MM-DD', bigints stay strings, jsonb stays an object.
 */
describe('entity rows (plain SQL with TypeORM conversions)', () => {
  let ds: DataSource;
  let venue: Venue;
  let db: TestDatabase;

  // On PostgreSQL when DATABASE_URL is set (pg's conversions), else on the embedded database (PGlite's).
  beforeAll(async () => {
    db = await freshDatabase();
    ds = await migratedDataSource(db);
    const id = randomUUID();
    await ds.query(
      `INSERT INTO venues (id, slug, name, time_zone, preset, seating, hold_seconds, on_offer_expired,
                           require_service_window, one_entry_per_contact, queue_order, created_at)
       VALUES ($1, 'rows', 'Rows', 'America/Chicago', 'restaurant', 'tables', 300, 'keep-place', true, true, 'host-pick', $2)`,
      [id, new Date('2026-12-01T18:30:00.123Z')],
    );
    venue = await ds.manager.findOneByOrFail(Venue, { id });
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  const entry = (over: Partial<QueueEntry> = {}): QueueEntry => ({
    id: randomUUID(),
    venueId: venue.id,
    name: 'Ana Ruiz',
    partySize: 3,
    email: 'ana@example.com',
    phone: null,
    contactKey: 'ana@example.com',
    status: 'waiting',
    receivedAt: new Date('2026-12-01T18:31:02.456Z'),
    queueSequence: '9007199254740993',
    businessDate: '2026-12-01',
    version: 1,
    quotedPosition: 4,
    quotedWaitMinutes: 25,
    quotedAt: new Date('2026-12-01T18:31:02.456Z'),
    createdAt: new Date('2026-12-01T18:31:02.456Z'),
    staffNote: null,
    staffTags: [],
    ...over,
  });

  it('reads a venue as TypeORM does', async () => {
    const [plain] = await selectEntities(ds.manager, Venue, 'id = $1', [venue.id]);
    expect(plain).toEqual({ ...venue });
  });

  it('an entry written with plain SQL reads back through TypeORM unchanged, and the other way round', async () => {
    const a = entry();
    await insertEntities(ds.manager, QueueEntry, [a]);
    // The database driver decides how a bigint arrives (a string from pg, a BigInt from PGlite),
    // for TypeORM's reads and ours alike; every other value must be exactly what was written.
    const back = await ds.manager.findOneByOrFail(QueueEntry, { id: a.id });
    expect({ ...back, queueSequence: String(back.queueSequence) }).toEqual(a);

    const b = entry({
      contactKey: 'b@example.com',
      email: 'b@example.com',
      quotedWaitMinutes: null,
      phone: '+13125550100',
      queueSequence: '9007199254740994',
    });
    await ds.manager.insert(QueueEntry, b);
    const [read] = await selectEntities(ds.manager, QueueEntry, 'id = $1', [b.id]);
    expect(read).toEqual(await ds.manager.findOneByOrFail(QueueEntry, { id: b.id }));
    expect(read?.businessDate).toBe('2026-12-01');
    expect(String(read?.queueSequence)).toBe('9007199254740994');
  });

  it('leaves an undefined property to the column default (a generated id), in one statement for many rows', async () => {
    const subject = randomUUID();
    await insertEntities(
      ds.manager,
      HistoryRow,
      ['waiting', 'offered'].map((to, i) => ({
        venueId: venue.id,
        subjectType: 'entry',
        subjectId: subject,
        fromState: i === 0 ? null : 'waiting',
        toState: to,
        at: new Date(`2026-12-01T18:3${i}:00Z`),
        actor: 'staff:test',
        operationId: `op-${i}`,
        reason: null,
      })),
    );
    const rows = await ds.manager.find(HistoryRow, { where: { subjectId: subject }, order: { at: 'ASC' } });
    expect(rows.map((r) => r.toState)).toEqual(['waiting', 'offered']);
    expect(rows.every((r) => r.id !== undefined && r.id !== null)).toBe(true);
  });

  it('reads and writes the same inside a transaction, where statements go as named prepared statements', async () => {
    const a = entry({ contactKey: 'tx@example.com', email: 'tx@example.com', queueSequence: '9007199254740995' });
    const subject = a.id;
    const history = {
      venueId: venue.id,
      subjectType: 'entry',
      subjectId: subject,
      fromState: null,
      toState: 'waiting',
      at: a.receivedAt,
      actor: 'staff:test',
      operationId: `op-${subject}`,
      reason: null,
    };
    for (let i = 0; i < 2; i++) {
      // Twice: the second use of each text runs the statement prepared by the first.
      await ds.transaction(async (m) => {
        const row = i === 0 ? a : { ...a, id: randomUUID(), queueSequence: '9007199254740996', contactKey: null };
        // The history row travels with its entry: foreign keys are checked at the end of the statement.
        const [done] = await insertTogether<{ n: number }>(
          m,
          [
            { target: QueueEntry, rows: [row] },
            { target: HistoryRow, rows: [{ ...history, subjectId: row.id }] },
          ],
          {
            sql: 'SELECT $1::int AS n',
            params: [7],
          },
        );
        expect(Number(done?.n)).toBe(7);
        const [back] = await selectEntities(m, QueueEntry, 'id = $1', [row.id]);
        expect({ ...back, queueSequence: String(back?.queueSequence) }).toEqual(row);
        const together = await readTogether(m, {
          count: { sql: 'SELECT count(*)::int FROM history WHERE subject_id = $1', params: [row.id], parse: Number },
          names: {
            sql: 'SELECT json_agg(name ORDER BY name) FROM queue_entries WHERE venue_id = $1 AND id = $2',
            params: [venue.id, row.id],
            parse: (v) => jsonRows<string>(v),
          },
          skipped: undefined,
        });
        expect(together).toEqual({ count: 1, names: ['Ana Ruiz'], skipped: undefined });
        // On a server, the connection now holds them as prepared statements (PGlite has no pg client).
        const prepared: Array<{ n: number }> = await m.query(
          "SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name LIKE 'hb\\_%'",
        );
        if (db.url) expect(prepared[0]?.n).toBeGreaterThanOrEqual(3);
      });
    }
  });

  it('a refusal from a prepared statement reads as TypeORM reports it (its SQLSTATE)', async () => {
    const err = await ds
      .transaction((m) =>
        preparedQuery(m, 'INSERT INTO queue_entries SELECT * FROM queue_entries WHERE venue_id = $1 LIMIT 1', [venue.id]),
      )
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(QueryFailedError);
    expect((err as { code?: string }).code).toBe('23505');
  });
});
