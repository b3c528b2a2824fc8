import type { TestApp } from '../support/test-app.js';
import { countedApp, type CountedApp } from '../support/counted-app.js';
import { describeWithServer } from '../support/test-database.js';
import type { Staff } from '../support/staff.js';
import request from 'supertest';
import { deskJoin, exchange, joined, party, queueSession, sandboxVenue } from '../support/restaurant.js';

/**
 * What a keyed staff command costs in statements before any work: the access guard reads the
 * caller's session, role and the answer stored under the Idempotency-Key in one statement, so a
 * retry is answered after one round trip, not two (issue 18). Counted on the wire: the api talks to
 * PostgreSQL through a relay that counts each statement it asks to run.
 */
describeWithServer('counts statements on the wire to a PostgreSQL server')('a keyed staff command’s reads', () => {
  let counted: CountedApp;
  let t: TestApp;
  let owner: Staff;

  beforeAll(async () => {
    counted = await countedApp();
    ({ t, owner } = counted);
  });
  afterAll(() => counted?.close());

  const fewest = (send: (i: number) => Promise<unknown>): Promise<number> => counted.fewest(send);

  it('a retry of a desk join is answered from the stored answer after one statement', async () => {
    const venue = await sandboxVenue(t, owner, { clock: '2026-07-14T19:05:00+09:30' });
    const p = party(3);
    const first = await deskJoin(t, owner, venue.id, p).set('Idempotency-Key', 'k-counted').expect(201);
    const statements = await fewest(async () => {
      const again = await deskJoin(t, owner, venue.id, p).set('Idempotency-Key', 'k-counted').expect(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      // The same entry; its queue token is shown once, so a replay answers it as null.
      expect(again.body).toEqual({ ...(first.body as object), queueToken: null });
    });
    expect(statements).toBe(1);
  });

  it('a new keyed desk join costs at most eight statements, its transaction’s START and COMMIT included', async () => {
    const venue = await sandboxVenue(t, owner, { clock: '2026-07-14T19:05:00+09:30' });
    // The session with the key's stored answer; the transaction: start, the venue's lock with the
    // key's, the guards, the duplicate check with the quote, one insert of every row, the caller's
    // session and membership read again under the lock (stillAdmitted, sent with the COMMIT: no
    // round trip of its own, transaction-pipeline counts those), commit.
    const statements = await fewest((i) =>
      deskJoin(t, owner, venue.id, party(2)).set('Idempotency-Key', `k-new-${i}`).expect(201),
    );
    expect(statements).toBeLessThanOrEqual(8);
  });

  it('a reused key with another body is refused after one statement, and another caller’s key is not theirs', async () => {
    const venue = await sandboxVenue(t, owner, { clock: '2026-07-14T19:05:00+09:30' });
    await deskJoin(t, owner, venue.id, party(2)).set('Idempotency-Key', 'k-shared').expect(201);
    const refused = await fewest(async () => {
      const res = await deskJoin(t, owner, venue.id, party(4)).set('Idempotency-Key', 'k-shared').expect(422);
      expect((res.body as { error: { code: string } }).error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    });
    expect(refused).toBe(1);
    // The same key at another venue of the same owner is a new request there.
    const other = await sandboxVenue(t, owner, { clock: '2026-07-14T19:05:00+09:30' });
    const fresh = await deskJoin(t, owner, other.id, party(2)).set('Idempotency-Key', 'k-shared').expect(201);
    expect(fresh.headers['idempotent-replayed']).toBeUndefined();
  });

  it('a party’s session is recognised in one statement, and its retried leave is answered after one', async () => {
    const venue = await sandboxVenue(t, owner, { clock: '2026-07-14T19:05:00+09:30' });
    const j = await joined(t, owner, venue.id, party(2));
    const s = (await exchange(t, j.queueToken as string).expect(201)).body as { sessionToken: string };
    const session = queueSession(s.sessionToken);
    const first = await request(t.baseUrl)
      .post('/v1/queue-session/leave')
      .set(session)
      .set('Idempotency-Key', 'k-leave')
      .send({})
      .expect(200);
    const retried = await fewest(async () => {
      const again = await request(t.baseUrl)
        .post('/v1/queue-session/leave')
        .set(session)
        .set('Idempotency-Key', 'k-leave')
        .send({})
        .expect(200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
    });
    expect(retried).toBe(1);
    // Without the key the ended session is refused, after the one read that recognises it.
    const refused = await fewest(() => request(t.baseUrl).post('/v1/queue-session/leave').set(session).send({}).expect(401));
    expect(refused).toBe(1);
  });
});
