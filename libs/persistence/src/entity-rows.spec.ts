import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { HistoryRow, insertEntities, selectEntities } from '@hostboard/core';
import { QueueEntry } from '@hostboard/queue';
import { Venue } from '@hostboard/venue';
import { IN_MEMORY } from './embedded/embedded-database.js';
import { openDataSource } from './data-source.factory.js';
import { freshDatabase, type TestDatabase } from '../../../test/support/test-database.js';

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
    ({ dataSource: ds } = await openDataSource({ databaseUrl: db.url, dataDir: IN_MEMORY }));
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
});
