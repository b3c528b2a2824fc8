import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { MIGRATIONS } from './migrations/index.js';
import { freshDatabase, type TestDatabase } from '../../../test/support/test-database.js';
import { migratedDataSource } from '../../../test/support/memory-image.js';

/**
 * The migration that gives invitations an end reason fills it for rows that ended before: from what
 * was written with them (the claim's audit event, the newer invitation that replaced one), the rest
 * cancelled with a member's removal; and two open links to one person (none should exist) leave one.
 */
describe('migration: invitation end reasons for earlier rows', () => {
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

  it('fills claimed, replaced and cancelled from the rows written with them', async () => {
    // Back to just before it: it and every later migration undone (runMigrations below redoes them all).
    const index = MIGRATIONS.findIndex((m) => m.name === 'InvitationEndReason1796400300000');
    expect(index).toBeGreaterThanOrEqual(0);
    for (let i = MIGRATIONS.length - 1; i >= index; i--) await ds.undoLastMigration({ transaction: 'each' });
    const venueId = randomUUID();
    await ds.query(
      `INSERT INTO venues (id, slug, name, time_zone, preset, seating, hold_seconds, on_offer_expired,
                           require_service_window, one_entry_per_contact, queue_order, created_at)
       VALUES ($1, 'mig', 'Mig', 'America/Chicago', 'restaurant', 'tables', 300, 'keep-place', true, true, 'host-pick', now())`,
      [venueId],
    );
    const user = async (email: string): Promise<string> => {
      const id = randomUUID();
      await ds.query(`INSERT INTO staff_users (id, email, name, created_at) VALUES ($1, $2, $2, now())`, [id, email]);
      return id;
    };
    const [owner, ana, ben, cy, dee] = [
      await user('owner@m.test'),
      await user('ana@m.test'),
      await user('ben@m.test'),
      await user('cy@m.test'),
      await user('dee@m.test'),
    ];
    const at = (minute: number): Date => new Date(Date.UTC(2026, 10, 2, 15, minute));
    const invitation = async (userId: string, created: number, ended: number | null): Promise<string> => {
      const id = randomUUID();
      await ds.query(
        `INSERT INTO staff_invitations (id, venue_id, user_id, role, token_hash, delivery, account_existed, invited_by,
                                        created_at, expires_at, ended_at)
         VALUES ($1, $2, $3, 'host', $4, 'in-person', false, $5, $6, $7, $8)`,
        [
          id,
          venueId,
          userId,
          `hash-${id}`,
          owner,
          at(created),
          new Date(at(created).getTime() + 7 * 86_400_000),
          ended === null ? null : at(ended),
        ],
      );
      return id;
    };
    const claimed = await invitation(ana, 0, 5);
    await ds.query(
      `INSERT INTO audit_events (at, action, actor, venue_id, subject_user_id, details) VALUES ($1, 'invitation-claimed', $2, $3, $4, $5)`,
      [at(5), `staff:${ana}`, venueId, ana, JSON.stringify({ invitationId: claimed, endedSessions: 0 })],
    );
    const replaced = await invitation(ben, 1, 7);
    const newer = await invitation(ben, 7, null);
    const removed = await invitation(cy, 2, 9);
    const twinOld = await invitation(dee, 3, null);
    const twinNew = await invitation(dee, 4, null);

    await ds.runMigrations({ transaction: 'each' });
    const rows: Array<{ id: string; ended_at: Date | null; end_reason: string | null }> = await ds.query(
      'SELECT id, ended_at, end_reason FROM staff_invitations WHERE venue_id = $1',
      [venueId],
    );
    const reason = Object.fromEntries(rows.map((r) => [r.id, r.end_reason]));
    expect(reason).toEqual({
      [claimed]: 'claimed',
      [replaced]: 'replaced',
      [newer]: null,
      [removed]: 'cancelled',
      [twinOld]: 'replaced',
      [twinNew]: null,
    });
    expect(new Date(rows.find((r) => r.id === twinOld)?.ended_at ?? 0).toISOString()).toBe(at(4).toISOString());
    // From now on the database keeps one open link per person and venue, and no end without its reason.
    await expect(invitation(ben, 8, null)).rejects.toThrow(/staff_invitations_one_open/);
    await expect(ds.query(`UPDATE staff_invitations SET ended_at = now() WHERE id = $1`, [newer])).rejects.toThrow(
      /staff_invitations_ended_with_reason/,
    );
  });
});
