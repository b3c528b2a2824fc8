import { readFileSync } from 'node:fs';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { LedgerClient } from '../../apps/ledger/src/ledger.client.js';
import { LedgerSession, runUntil } from '../../apps/ledger/src/ledger.runner.js';
import { parseWorksheet } from '../../apps/ledger/src/worksheet.js';
import { violations } from '../support/invariants.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { describeWithServer, freshDatabase, type TestDatabase } from '../support/test-database.js';
import { signIn, signUp } from '../support/staff.js';

/** Many rounds through HTTP: generous on a loaded shared machine (nothing here is timed). */
const LONG_TEST_MS = 240_000;
const sheet = parseWorksheet(JSON.parse(readFileSync('examples/maple-room.worksheet.json', 'utf8')));

/**
 * The last-seat conflict: two api instances, each with its own connection pool, against the same
 * saved data. The venue row lock decides; the pool check constraint would refuse a second hold anyway.
 */
describeWithServer('two api processes racing for the last seat need a PostgreSQL server')(
  'last-seat conflict across two api instances',
  () => {
    let db: TestDatabase;
    let a: TestApp;
    let b: TestApp;
    let clientA: LedgerClient;
    let clientB: LedgerClient;

    beforeAll(async () => {
      db = await freshDatabase();
      a = await startApp({ db });
      b = await startApp({ db });
      const owner = await signUp(a, 'organizer');
      clientA = new LedgerClient(a.baseUrl, owner.token);
      clientB = new LedgerClient(b.baseUrl, (await signIn(b, owner.email, owner.password)).token);
    });
    afterAll(async () => {
      await a.close();
      await b.close();
      await db.drop();
    });

    it(
      'always gives exactly one hold to W-04 (30 rounds, 3 attempts per instance)',
      async () => {
        for (let round = 0; round < 30; round++) {
          const s = await runUntil(clientA, sheet, `race-${round}`, 'T-08');
          const other = new LedgerSession(clientB, sheet);
          other.venueId = s.venueId;
          const answers = await Promise.all([
            s.promote(),
            other.promote(),
            s.promote(),
            other.promote(),
            s.promote(),
            other.promote(),
          ]);
          const holds = answers.filter((x) => x.status === 201);
          expect(holds).toHaveLength(1);
          expect(s.refOfEntry(holds[0]?.body.offer?.entryId ?? '')).toBe('W-04');
          for (const x of answers.filter((y) => y.status !== 201)) {
            expect(x.status).toBe(200);
            expect(x.body.offer).toBeNull();
          }
          const c = await s.counts();
          expect([c.confirmed, c.held, c.available]).toEqual([11, 1, 0]);
          expect(await s.waitingNames()).toEqual(['W-05']);
        }
        expect(await violations(a.app.get<DataSource>(getDataSourceToken()))).toEqual([]);
      },
      LONG_TEST_MS,
    );

    it('the database itself refuses a hold past capacity, whatever the code does', async () => {
      const s = await runUntil(clientA, sheet, 'race-constraint', 'T-10');
      const ds = a.app.get<DataSource>(getDataSourceToken());
      await expect(
        ds.query(
          `INSERT INTO reservations (id, venue_id, kind, name, party_size, state, hold_expires_at, created_at, updated_at)
         VALUES (gen_random_uuid(), $1, 'pool', 'sneaky', 1, 'HELD', now(), now(), now())`,
          [s.venueId],
        ),
      ).rejects.toMatchObject({ driverError: { code: '23514' } });
      expect((await s.counts()).available).toBe(0);
    });
  },
);
