import pg from 'pg';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { deskJoin, errorOf, joined, publicJoin, sandboxVenue, uniq, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';
import { describeWithServer } from '../support/test-database.js';

const POOL_WORDS = 'This contact already has a group in the queue for today.';
const SPEC_WORDS = 'This contact is already in the queue for today.';

/**
 * The unique index `queue_entries_one_active_per_contact` is the fallback behind the join's and the
 * correction's duplicate check: it refuses a second active entry for a contact that something wrote
 * past the venue lock, after the check looked. Two joins racing each other never reach it (the venue
 * lock serialises them, and the second one's check sees the first: restaurant-join's race test), so
 * the row here is written by an outside writer that takes no venue lock. The refusal must speak the
 * venue's words as the check does: a pool's of a group, a restaurant's the spec's, word for word.
 * A 9-seat workshop with 11-minute holds, and a restaurant with a 7-top, in Lisbon time.
 */
describe('a duplicate contact the unique index refuses, in the venue’s words', () => {
  let t: TestApp;
  let owner: Staff;
  let pool: Sandbox;
  let restaurant: Sandbox;

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'organizer');
    pool = await sandboxVenue(t, owner, {
      name: 'Azulejo Painting Room',
      timeZone: 'Europe/Lisbon',
      clock: '2026-12-15T10:25:00Z',
      preset: 'workshop',
      poolCapacity: 9,
      published: true,
      patch: { policy: { holdSeconds: 660, oneEntryPerContact: true } },
    });
    restaurant = await sandboxVenue(t, owner, {
      name: 'Tasca do Rio',
      timeZone: 'Europe/Lisbon',
      clock: '2026-12-15T19:25:00Z',
      published: true,
      tables: [{ label: 'Varanda 2', capacity: 7 }],
    });
  });
  afterAll(() => t.close());

  /**
   * An active entry with this contact key, copied from `anchor` (the same venue and business day) with
   * a queue number of its own; with `columns` false its email and phone are left empty, so the command's
   * check (which compares them) cannot see it and only the index (on the key) can.
   */
  const outsideRow = (anchorId: string, email: string, columns: boolean): [string, unknown[]] => [
    `INSERT INTO queue_entries (id, venue_id, name, party_size, email, phone, contact_key, status, received_at,
       queue_sequence, business_date, version, created_at)
     SELECT gen_random_uuid(), venue_id, 'Written past the lock', party_size, $2, NULL, $3, 'waiting', received_at,
       queue_sequence + 100000, business_date, 1, created_at
     FROM queue_entries WHERE id = $1`,
    [anchorId, columns ? email : null, `email:${email}`],
  ];

  /** The venue of this kind, and the words its duplicate refusal speaks. */
  const venueOf = (kind: string): [Sandbox, string] => (kind === 'pool' ? [pool, POOL_WORDS] : [restaurant, SPEC_WORDS]);

  describe.each([['pool'], ['restaurant']])('at a %s', (kind) => {
    it('a row the check cannot see: desk join, public join and correction are refused by the index in these words', async () => {
      const [v, words] = venueOf(kind);
      const anchor = await joined(t, owner, v.id, { name: 'Anchor', partySize: 2, email: `anchor-${uniq()}@example.test` });
      const email = `past-${uniq()}@example.test`;
      await t.app.get(DataSource).query(...outsideRow(anchor.entry.id, email, false));

      const desk = await deskJoin(t, owner, v.id, { name: 'Desk', partySize: 2, email }).expect(409);
      // The transaction is gone: the existing entry is not named.
      expect(errorOf(desk)).toEqual({ code: 'WAITLIST_DUPLICATE', message: words, details: {} });
      const pub = await publicJoin(t, v.slug, { name: 'Public', partySize: 2, email }).expect(409);
      expect(errorOf(pub)).toEqual({ code: 'WAITLIST_DUPLICATE', message: words, details: {} });
      const other = await joined(t, owner, v.id, { name: 'Other', partySize: 3, email: `other-${uniq()}@example.test` });
      const corrected = await request(t.baseUrl)
        .patch(`/v1/venues/${v.id}/queue/${other.entry.id}`)
        .set(owner.auth)
        .send({ entryVersion: other.entry.version, email })
        .expect(409);
      expect(errorOf(corrected)).toEqual({ code: 'WAITLIST_DUPLICATE', message: words, details: {} });
    });
  });

  describeWithServer('an outside writer needs a second connection')('an outside writer racing a join', () => {
    /** Whether a backend of this test's database waits for a lock (the join's insert, on the index). */
    const someoneWaits = async (): Promise<boolean> => {
      const admin = new pg.Client({ connectionString: t.db.url });
      await admin.connect();
      try {
        const { rows } = await admin.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
        return (rows[0]?.n ?? 0) > 0;
      } finally {
        await admin.end();
      }
    };

    it.each([['pool'], ['restaurant']])(
      'at a %s: the join waits on the index for the outside row, then is refused in the venue’s words, 3 times each way',
      async (kind) => {
        const [v, words] = venueOf(kind);
        for (let round = 0; round < 3; round++) {
          const anchor = await joined(t, owner, v.id, {
            name: `Anchor ${round}`,
            partySize: 2,
            email: `a-${uniq()}@example.test`,
          });
          const email = `race-${round}-${uniq()}@example.test`;
          const outside = new pg.Client({ connectionString: t.db.url });
          await outside.connect();
          try {
            await outside.query('BEGIN');
            // A consistent row, as a join would write it, not yet committed: the join's check cannot see it.
            await outside.query(...outsideRow(anchor.entry.id, email, true));
            const racer = { name: `Racer ${round}`, partySize: 2, email };
            // Started now (supertest sends on then): the desk's join, then the public one, in turn.
            const answered = (round % 2 === 0 ? deskJoin(t, owner, v.id, racer) : publicJoin(t, v.slug, racer)).then((r) => r);
            for (let i = 0; i < 200 && !(await someoneWaits()); i++) await new Promise((r) => setTimeout(r, 10));
            expect(await someoneWaits()).toBe(true);
            await outside.query('COMMIT');
            const res = await answered;
            expect(res.status).toBe(409);
            expect(errorOf(res)).toEqual({ code: 'WAITLIST_DUPLICATE', message: words, details: {} });
          } finally {
            await outside.end();
          }
        }
      },
    );
  });
});
