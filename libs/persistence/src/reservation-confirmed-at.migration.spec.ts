import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { MIGRATIONS } from './migrations/index.js';
import { freshDatabase, type TestDatabase } from '../../../test/support/test-database.js';
import { migratedDataSource } from '../../../test/support/memory-image.js';

/**
 * The migration that gives reservations `confirmed_at` fills it for rows written before: from the
 * first history row to CONFIRMED (a booking seated later keeps its acceptance's time), else, for one
 * still CONFIRMED, from `updated_at`; one never confirmed stays null.
 */
describe('migration: reservation confirmed_at for earlier rows', () => {
  let ds: DataSource;
  let db: TestDatabase;

  beforeAll(async () => {
    db = await freshDatabase();
    ds = await migratedDataSource(db);
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  it('fills it from history, else from updated_at for a confirmed row, else leaves it null', async () => {
    const index = MIGRATIONS.findIndex((m) => m.name === 'ReservationConfirmedAt1796523600000');
    expect(index).toBeGreaterThanOrEqual(0);
    for (let i = MIGRATIONS.length - 1; i >= index; i--) await ds.undoLastMigration({ transaction: 'each' });
    const venueId = randomUUID();
    await ds.query(
      `INSERT INTO venues (id, slug, name, time_zone, preset, seating, hold_seconds, on_offer_expired,
                           require_service_window, one_entry_per_contact, queue_order, pool_capacity, created_at)
       VALUES ($1, 'mig-conf', 'Mig', 'Asia/Tbilisi', 'workshop', 'pool', 1500, 'leave-queue', false, false, 'strict', 23, now())`,
      [venueId],
    );
    const at = (minute: number): Date => new Date(Date.UTC(2026, 9, 21, 7, minute));
    const reservation = async (state: string, created: number, updated: number): Promise<string> => {
      const id = randomUUID();
      await ds.query(
        `INSERT INTO reservations (id, venue_id, kind, name, party_size, state, hold_expires_at, created_at, updated_at)
         VALUES ($1, $2, 'pool', 'Group', 2, $3, $4, $5, $6)`,
        [id, venueId, state, state === 'HELD' ? at(59) : null, at(created), at(updated)],
      );
      return id;
    };
    const accepted = await reservation('CANCELLED', 3, 44);
    await ds.query(
      `INSERT INTO history (venue_id, subject_type, subject_id, from_state, to_state, at, actor, operation_id)
       VALUES ($1, 'reservation', $2, 'HELD', 'CONFIRMED', $3, 'staff', 'accept-x')`,
      [venueId, accepted, at(17)],
    );
    const noHistory = await reservation('CONFIRMED', 5, 26);
    const held = await reservation('HELD', 8, 8);

    await ds.runMigrations({ transaction: 'each' });
    const rows: Array<{ id: string; confirmed_at: Date | null }> = await ds.query(
      'SELECT id, confirmed_at FROM reservations WHERE venue_id = $1',
      [venueId],
    );
    const confirmed = Object.fromEntries(rows.map((r) => [r.id, r.confirmed_at && new Date(r.confirmed_at).toISOString()]));
    expect(confirmed).toEqual({ [accepted]: at(17).toISOString(), [noHistory]: at(26).toISOString(), [held]: null });
  });
});
