import { randomUUID } from 'node:crypto';
import pg from 'pg';
import request from 'supertest';
import { errorOf, exchange, joined, liveVenue, party, queueSession } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { describeWithServer } from '../support/test-database.js';
import { signUp, type Staff } from '../support/staff.js';

/**
 * A queue session is one party's, for an hour, and its acts had no limit of their own: an accept
 * naming any offer id (or a leave naming any entry) took one of the venue's two command turns and
 * its row lock before finding it was not the party's. One join, within the join limits, let a script
 * keep the venue's turns busy (300 at once held a host's sweep up for half a second; a few thousand
 * answer the host 503). What is not the party's own is refused before the venue's turn is taken.
 */
describeWithServer('row locks held across connections of a PostgreSQL server')(
  'a party session naming what is not its own',
  () => {
    let t: TestApp;
    let owner: Staff;

    beforeAll(async () => {
      t = await startApp();
      owner = await signUp(t, 'owner');
    });
    afterAll(async () => {
      await t.close();
    });

    it('is refused NOT_FOUND at once, without waiting for the venue’s lock', async () => {
      const v = await liveVenue(t, owner, { tables: [{ label: 'T1', capacity: 4 }] });
      const mine = await joined(t, owner, v.id, party(2));
      const other = await joined(t, owner, v.id, party(2));
      const offered = await request(t.baseUrl)
        .post(`/v1/venues/${v.id}/offers`)
        .set(owner.auth)
        .send({ entryId: other.entry.id, entryVersion: other.entry.version, tableIds: [v.tableIds['T1']] })
        .expect(201);
      const othersOffer = (offered.body as { offer: { id: string } }).offer.id;
      const session = ((await exchange(t, mine.queueToken ?? '').expect(201)).body as { sessionToken: string }).sessionToken;

      const holder = new pg.Client({ connectionString: t.db.url });
      await holder.connect();
      try {
        await holder.query('BEGIN');
        await holder.query('SELECT 1 FROM venues WHERE id = $1 FOR UPDATE', [v.id]);
        const act = async (path: string, body: Record<string, unknown>): Promise<{ status: number; code?: string }> => {
          const res = await request(t.baseUrl)
            .post(`/v1/queue-session/${path}`)
            .set(queueSession(session))
            .send(body)
            .timeout(1500)
            .catch(() => null);
          return res ? { status: res.status, code: errorOf(res)?.code } : { status: 0 };
        };
        expect(await act('accept', { offerId: othersOffer })).toEqual({ status: 404, code: 'NOT_FOUND' });
        expect(await act('accept', { offerId: randomUUID() })).toEqual({ status: 404, code: 'NOT_FOUND' });
        expect(await act('leave', { entryId: other.entry.id })).toEqual({ status: 404, code: 'NOT_FOUND' });
      } finally {
        await holder.query('ROLLBACK').catch(() => undefined);
        await holder.end();
      }
      // Its own acts still go through the venue's lock as before.
      const left = await request(t.baseUrl).post('/v1/queue-session/leave').set(queueSession(session)).send({}).expect(200);
      expect((left.body as { entry: { status: string } }).entry.status).toBe('cancelled');
    }, 30_000);
  },
);
