import pg from 'pg';
import request from 'supertest';
import { exchange, joined, party } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { describeWithServer } from '../support/test-database.js';
import { createVenue, signUp, type Staff } from '../support/staff.js';

/**
 * stuck-venue-lock.e2e-spec.ts covers the joins: a venue whose row lock a stuck session holds keeps
 * its commands to two turns per process, so the pool, and every other venue, stay free. The other
 * acts that take the venue's row lock must take a turn too: a host's note or correction retried on
 * a few tablets, or a party's queue code exchanged (anonymous, limited per address only), each held a
 * pooled connection while waiting on the lock, and the other venues answered 503 with it.
 */
describeWithServer('row locks held across connections of a PostgreSQL server')(
  'the other acts of a venue whose row lock is held by a stuck session',
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

    type Answer = { status: number; ms: number };
    const timed = (r: request.Test): Promise<Answer> => {
      const t0 = Date.now();
      return r.timeout(20_000).then(
        (res) => ({ status: res.status, ms: Date.now() - t0 }),
        () => ({ status: 0, ms: Date.now() - t0 }),
      );
    };

    it.each([
      ['a note on an entry', 'note'],
      ["a correction of a party's name", 'correct'],
      ['a queue code exchanged for a session', 'exchange'],
    ])(
      '%s: the other venues keep answering',
      async (_label, act) => {
        const stuck = await createVenue(t, owner, { preset: 'workshop', poolCapacity: 50 });
        const other = await createVenue(t, owner, { preset: 'workshop', poolCapacity: 50 });
        const entries = await Promise.all(Array.from({ length: 8 }, () => joined(t, owner, stuck.id, party(2))));
        const holder = new pg.Client({ connectionString: t.db.url });
        await holder.connect();
        try {
          await holder.query('BEGIN');
          await holder.query('SELECT 1 FROM venues WHERE id = $1 FOR UPDATE', [stuck.id]);
          const waiting = entries.map((e, i) =>
            timed(
              act === 'note'
                ? request(t.baseUrl)
                    .put(`/v1/venues/${stuck.id}/queue/${e.entry.id}/details`)
                    .set(owner.auth)
                    .send({ note: `n${i}` })
                : act === 'correct'
                  ? request(t.baseUrl)
                      .patch(`/v1/venues/${stuck.id}/queue/${e.entry.id}`)
                      .set(owner.auth)
                      .send({ entryVersion: e.entry.version, name: `Renamed ${i}` })
                  : exchange(t, e.queueToken ?? ''),
            ),
          );
          await new Promise((resolve) => setTimeout(resolve, 500));
          const elsewhere = await timed(
            request(t.baseUrl).post(`/v1/venues/${other.id}/queue`).set(owner.auth).send({ name: 'Elsewhere', partySize: 2 }),
          );
          expect(elsewhere.status).toBe(201);
          expect(elsewhere.ms).toBeLessThan(1000);
          await holder.query('ROLLBACK');
          const answers = await Promise.all(waiting);
          // Two waited on the lock and went ahead; the rest were told to retry shortly.
          expect(answers.filter((a) => a.status === 503).length + answers.filter((a) => a.status < 300).length).toBe(8);
        } finally {
          await holder.query('ROLLBACK').catch(() => undefined);
          await holder.end();
        }
      },
      60_000,
    );
  },
);
