import request from 'supertest';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { violations } from '../support/invariants.js';
import { joined, party, sandboxVenue } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { describeWithServer, freshDatabase, type TestDatabase } from '../support/test-database.js';
import { signIn, signUp, type Staff } from '../support/staff.js';

/**
 * Two hosts offer the same table to two parties at the same moment, through two api instances with
 * their own connection pools: one hold and one CONFLICT, every time; never two active reservations
 * on one table (the exclusion constraint is the last word).
 */
/** Many rounds through HTTP: generous on a loaded shared machine (nothing here is timed). */
const LONG_TEST_MS = 240_000;

describeWithServer('two api instances racing for one table need a PostgreSQL server')('two hosts, one table', () => {
  let db: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  let hostA: Staff;
  let hostB: Staff;

  beforeAll(async () => {
    db = await freshDatabase();
    a = await startApp({ db });
    b = await startApp({ db });
    hostA = await signUp(a, 'owner');
    hostB = await signIn(b, hostA.email, hostA.password);
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await db.drop();
  });

  it(
    'gives one hold and one CONFLICT (30 rounds)',
    async () => {
      for (let round = 0; round < 30; round++) {
        const v = await sandboxVenue(a, hostA, {
          clock: '2026-10-09T23:00:00.000Z',
          windows: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '17:00', end: '23:00', turnMinutes: 90 }],
          tables: [{ label: 'T1', capacity: 4 }],
        });
        const p1 = await joined(a, hostA, v.id, party(2));
        const p2 = await joined(a, hostA, v.id, party(2));
        const tableIds = [v.tableIds['T1']];
        const [r1, r2] = await Promise.all([
          request(a.baseUrl)
            .post(`/v1/venues/${v.id}/offers`)
            .set(hostA.auth)
            .send({ entryId: p1.entry.id, entryVersion: p1.entry.version, tableIds }),
          request(b.baseUrl)
            .post(`/v1/venues/${v.id}/offers`)
            .set(hostB.auth)
            .send({ entryId: p2.entry.id, entryVersion: p2.entry.version, tableIds }),
        ]);
        expect([r1.status, r2.status].sort()).toEqual([201, 409]);
        const refused = r1.status === 409 ? r1 : r2;
        expect((refused.body as { error: { code: string } }).error.code).toBe('CONFLICT');
      }
      const ds = a.app.get<DataSource>(getDataSourceToken());
      const doubles: unknown[] = await ds.query(
        `SELECT x.table_id FROM reservation_tables x JOIN reservation_tables y ON x.table_id = y.table_id AND x.reservation_id < y.reservation_id
        WHERE x.active AND y.active AND x.slot && y.slot`,
      );
      expect(doubles).toEqual([]);
      expect(await violations(ds)).toEqual([]);
    },
    LONG_TEST_MS,
  );
});
