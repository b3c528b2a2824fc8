import pg from 'pg';
import request from 'supertest';
import { startApp, type TestApp } from '../support/test-app.js';
import { describeWithServer } from '../support/test-database.js';
import { createVenue, signUp, type Staff } from '../support/staff.js';

/**
 * "Different venues never wait on each other" (docs/operations.md). A session that keeps one
 * venue's row locked (a client gone mid-transaction, an api process frozen or cut off from the
 * database mid-command, an operator's open psql) made that venue's commands wait for it with a
 * pooled connection each, for as long as it lasted: a few tablets retrying took the whole pool, and
 * every other venue on that api answered 503 after five seconds of waiting for a connection.
 */
describeWithServer('row locks held across connections of a PostgreSQL server')(
  'a venue whose row lock is held by a stuck session',
  () => {
    let t: TestApp;
    let owner: Staff;

    beforeAll(async () => {
      t = await startApp({ env: { DATABASE_POOL_SIZE: '4', DATABASE_POOL_WARM: '2' } });
      owner = await signUp(t, 'owner');
    });
    afterAll(async () => {
      await t.close();
    });

    it('keeps the other venues answering, and answers its own commands past two 503 "retry shortly" instead of waiting without end', async () => {
      const stuck = await createVenue(t, owner, { preset: 'workshop', poolCapacity: 50 });
      const other = await createVenue(t, owner, { preset: 'workshop', poolCapacity: 50 });
      const holder = new pg.Client({ connectionString: t.db.url });
      await holder.connect();
      try {
        await holder.query('BEGIN');
        await holder.query('SELECT 1 FROM venues WHERE id = $1 FOR UPDATE', [stuck.id]);
        const join = (venueId: string, name: string): Promise<{ status: number; ms: number; code?: string }> => {
          const t0 = Date.now();
          return request(t.baseUrl)
            .post(`/v1/venues/${venueId}/queue`)
            .set(owner.auth)
            .send({ name, partySize: 2 })
            .timeout(20_000)
            .then(
              (res) => ({
                status: res.status,
                ms: Date.now() - t0,
                code: (res.body as { error?: { code: string } }).error?.code,
              }),
              () => ({ status: 0, ms: Date.now() - t0 }),
            );
        };
        // More of the stuck venue's commands than the pool has connections.
        const waiting = Array.from({ length: 8 }, (_, i) => join(stuck.id, `Stuck ${i}`));
        await new Promise((resolve) => setTimeout(resolve, 500));
        const elsewhere = await join(other.id, 'Elsewhere');
        expect(elsewhere.status).toBe(201);
        expect(elsewhere.ms).toBeLessThan(1000);
        // The venue's own commands beyond the two waiting on its lock are told to retry, in seconds.
        await new Promise((resolve) => setTimeout(resolve, 6000));
        await holder.query('ROLLBACK');
        const answers = await Promise.all(waiting);
        const refused = answers.filter((a) => a.status === 503);
        expect(refused.map((a) => a.code)).toEqual(Array(6).fill('UNAVAILABLE'));
        expect(Math.max(...refused.map((a) => a.ms))).toBeLessThan(6000);
        // The two that waited on the lock went ahead once it was free.
        expect(answers.filter((a) => a.status === 201)).toHaveLength(2);
      } finally {
        await holder.query('ROLLBACK').catch(() => undefined);
        await holder.end();
      }
      // The lock gone, the venue answers again at once.
      expect((await join2(t, owner, stuck.id)).status).toBe(201);
    }, 60_000);
  },
);

const join2 = (t: TestApp, owner: Staff, venueId: string): Promise<request.Response> =>
  request(t.baseUrl).post(`/v1/venues/${venueId}/queue`).set(owner.auth).send({ name: 'After', partySize: 2 });
