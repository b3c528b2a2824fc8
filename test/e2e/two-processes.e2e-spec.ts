import request from 'supertest';
import { startApp, type TestApp } from '../support/test-app.js';
import { describeWithServer, freshDatabase, type TestDatabase } from '../support/test-database.js';
import { signIn, signUp, type Staff } from '../support/staff.js';

/**
 * Two api instances, each with its own connection pool, on one PostgreSQL database: the races are
 * decided by the database (unique constraints, the advisory lock of a key, the venue row lock).
 */
describeWithServer('two api instances racing on one PostgreSQL database')('two api instances on one database', () => {
  let db: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  let ownerA: Staff;
  let ownerB: Staff;

  beforeAll(async () => {
    db = await freshDatabase();
    a = await startApp({ db });
    b = await startApp({ db });
    ownerA = await signUp(a, 'owner');
    ownerB = await signIn(b, ownerA.email, ownerA.password);
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await db.drop();
  });

  it('creates one venue per slug when both instances race (25 rounds)', async () => {
    for (let round = 0; round < 25; round++) {
      const body = { slug: `two-${round}`, name: 'Two', timeZone: 'America/Chicago', preset: 'workshop' };
      const answers = await Promise.all([
        ...Array.from({ length: 4 }, () => request(a.baseUrl).post('/v1/venues').set(ownerA.auth).send(body)),
        ...Array.from({ length: 4 }, () => request(b.baseUrl).post('/v1/venues').set(ownerB.auth).send(body)),
      ]);
      expect(answers.filter((r) => r.status === 201)).toHaveLength(1);
      expect(answers.filter((r) => r.status === 409)).toHaveLength(7);
    }
  });

  it('runs a command once when one Idempotency-Key reaches both instances at once (25 rounds)', async () => {
    for (let round = 0; round < 25; round++) {
      const body = { slug: `key-${round}`, name: 'Key', timeZone: 'America/Chicago', preset: 'workshop' };
      const key = `two-proc-${round}`;
      const answers = await Promise.all([
        ...Array.from({ length: 3 }, () =>
          request(a.baseUrl).post('/v1/venues').set(ownerA.auth).set('Idempotency-Key', key).send(body),
        ),
        ...Array.from({ length: 3 }, () =>
          request(b.baseUrl).post('/v1/venues').set(ownerB.auth).set('Idempotency-Key', key).send(body),
        ),
      ]);
      const fresh = answers.filter((r) => r.status === 201 && r.headers['idempotent-replayed'] === undefined);
      expect(fresh).toHaveLength(1);
      for (const r of answers.filter((x) => x !== fresh[0])) {
        const code = (r.body as { error?: { code: string } }).error?.code;
        expect(r.headers['idempotent-replayed'] === 'true' || code === 'IDEMPOTENCY_IN_PROGRESS').toBe(true);
      }
    }
  });
});
