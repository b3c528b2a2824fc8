import { randomUUID } from 'node:crypto';
import pg from 'pg';
import request from 'supertest';
import { errorOf, exchange, joined, liveVenue, moveClock, party, queueSession, sandboxVenue } from '../support/restaurant.js';
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

    it('an accept naming its own offer that has ended is refused at once, as the locked path refuses it', async () => {
      const T0 = Date.parse('2026-10-09T23:00:00.000Z'); // 6 PM in Chicago
      const v = await sandboxVenue(t, owner, {
        clock: new Date(T0).toISOString(),
        windows: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '17:00', end: '23:00', turnMinutes: 60 }],
        tables: [{ label: 'T1', capacity: 4 }],
      });
      const mine = await joined(t, owner, v.id, party(2));
      const session = ((await exchange(t, mine.queueToken ?? '').expect(201)).body as { sessionToken: string }).sessionToken;
      const offer = async (): Promise<string> => {
        const entry = (
          (await request(t.baseUrl).get(`/v1/venues/${v.id}/queue`).set(owner.auth).expect(200)).body as {
            entries: Array<{ id: string; version: number }>;
          }
        ).entries.find((e) => e.id === mine.entry.id);
        const res = await request(t.baseUrl)
          .post(`/v1/venues/${v.id}/offers`)
          .set(owner.auth)
          .send({ entryId: mine.entry.id, entryVersion: entry?.version, tableIds: [v.tableIds['T1']] })
          .expect(201);
        return (res.body as { offer: { id: string } }).offer.id;
      };
      // One offer withdrawn by the host, the next one lapsed (its expiry recorded by the sweep).
      const withdrawn = await offer();
      await request(t.baseUrl).post(`/v1/venues/${v.id}/offers/${withdrawn}/withdraw`).set(owner.auth).send({}).expect(200);
      const lapsed = await offer();
      await moveClock(t, owner, v.id, new Date(T0 + 6 * 60_000).toISOString());
      await request(t.baseUrl).post(`/v1/venues/${v.id}/sweeps`).set(owner.auth).send({}).expect(200);

      type Answer = { status: number; code?: string; message?: string };
      const answer = (res: request.Response | null): Answer =>
        res ? { status: res.status, code: errorOf(res)?.code, message: errorOf(res)?.message } : { status: 0 };
      const act = async (body: Record<string, unknown>, key?: string): Promise<Answer> => {
        const req = request(t.baseUrl).post('/v1/queue-session/accept').set(queueSession(session));
        if (key) void req.set('Idempotency-Key', key);
        return answer(
          await req
            .send(body)
            .timeout(1500)
            .catch(() => null),
        );
      };
      // What the venue's locked path answers (the staff's accept, which no session limit concerns).
      const staff = async (offerId: string): Promise<Answer> =>
        answer(await request(t.baseUrl).post(`/v1/venues/${v.id}/offers/${offerId}/accept`).set(owner.auth).send({}));
      const expired = await staff(lapsed);
      const notOpen = await staff(withdrawn);
      expect([expired.status, expired.code, notOpen.status, notOpen.code]).toEqual([
        409,
        'WAITLIST_OFFER_EXPIRED',
        409,
        'WAITLIST_OFFER_CONFLICT',
      ]);

      const holder = new pg.Client({ connectionString: t.db.url });
      await holder.connect();
      const key = randomUUID();
      try {
        await holder.query('BEGIN');
        await holder.query('SELECT 1 FROM venues WHERE id = $1 FOR UPDATE', [v.id]);
        expect(await act({ offerId: lapsed })).toEqual(expired);
        expect(await act({ offerId: withdrawn })).toEqual(notOpen);
        // Naming none: the entry's offer that ended last.
        expect(await act({})).toEqual(expired);
        // A keyed accept, and its retry.
        expect(await act({ offerId: withdrawn }, key)).toEqual(notOpen);
        expect(await act({ offerId: withdrawn }, key)).toEqual(notOpen);
      } finally {
        await holder.query('ROLLBACK').catch(() => undefined);
        await holder.end();
      }
      // A live offer still goes through the venue's lock, and is accepted there.
      const live = await offer();
      const accepted = await request(t.baseUrl)
        .post('/v1/queue-session/accept')
        .set(queueSession(session))
        .send({ offerId: live })
        .expect(200);
      expect((accepted.body as { offer: { state: string } }).offer.state).toBe('accepted');
      // Accepted, it is refused at once too, as the staff route refuses it.
      expect(await act({ offerId: live })).toEqual(await staff(live));
    }, 60_000);
  },
);
