import request from 'supertest';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { startApp, type TestApp } from '../support/test-app.js';
import { addMember, signUp, type Staff } from '../support/staff.js';
import { violations } from '../support/invariants.js';
import {
  errorOf,
  EVERY_DAY,
  exchange,
  freshAddress,
  joined,
  moveClock,
  party,
  queueSession,
  refusal,
  sandboxVenue,
  type EntryBody,
  type Window,
} from '../support/restaurant.js';

/**
 * Queue tokens and sessions through real HTTP, on sandbox venues whose clocks the test moves (never
 * sleeps). A token dies at the venue-local midnight after the business date, through the real zone,
 * with a one-minute floor; it opens a session once; the session opens its own entry only.
 */
interface Opened {
  sessionToken: string;
  entryId: string;
  expiresAt: string;
}

const ms = (iso: string, delta: number): string => new Date(new Date(iso).getTime() + delta).toISOString();
const INVALID = {
  error: { code: 'TOKEN_INVALID', message: 'This token is not valid. Ask the venue for a fresh one.', details: {} },
};

describe('restaurant queue: tokens and sessions', () => {
  let t: TestApp;
  let owner: Staff;

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'token-owner');
  });
  afterAll(async () => {
    expect(await violations(t.app.get<DataSource>(getDataSourceToken()))).toEqual([]);
    await t.close();
  });

  /** Two parties join at `joinAt`; the first exchanges just before `expiry`, the second at it. */
  async function expiresExactlyAt(o: {
    timeZone: string;
    window: Window;
    joinAt: string;
    expiry: string;
    businessDate: string;
  }): Promise<void> {
    const v = await sandboxVenue(t, owner, { timeZone: o.timeZone, clock: o.joinAt, windows: [o.window] });
    const a = await joined(t, owner, v.id, party(2));
    const b = await joined(t, owner, v.id, party(2));
    expect([a.entry.businessDate, b.entry.businessDate]).toEqual([o.businessDate, o.businessDate]);
    expect(a.queueToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await moveClock(t, owner, v.id, ms(o.expiry, -1));
    const opened = await exchange(t, a.queueToken as string).expect(201);
    expect((opened.body as Opened).entryId).toBe(a.entry.id);
    await moveClock(t, owner, v.id, o.expiry);
    expect((await exchange(t, b.queueToken as string)).body).toEqual(INVALID);
  }

  describe('expiry at the venue-local midnight after the business date', () => {
    it('America/Chicago on an ordinary night, and the replacement token dies at the same midnight', async () => {
      const v = await sandboxVenue(t, owner, {
        clock: '2026-06-12T23:00:00.000Z',
        windows: [{ days: EVERY_DAY, start: '17:00', end: '23:00', turnMinutes: 20 }],
      });
      const a = await joined(t, owner, v.id, party(2));
      const replaced = await request(t.baseUrl).post(`/v1/venues/${v.id}/queue/${a.entry.id}/token`).set(owner.auth).expect(201);
      expect(replaced.body).toEqual({
        queueToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        expiresAt: '2026-06-13T05:00:00.000Z',
      });
    });

    it('America/Chicago, the March night the clocks go forward: midnight at UTC-5', async () => {
      // Sunday 8 March 2026 (a 23-hour day). "Start of day + 24 h" would say 06:00Z, an hour late.
      await expiresExactlyAt({
        timeZone: 'America/Chicago',
        window: { days: EVERY_DAY, start: '17:00', end: '23:00', turnMinutes: 20 },
        joinAt: '2026-03-08T23:00:00.000Z', // 18:00 CDT
        expiry: '2026-03-09T05:00:00.000Z',
        businessDate: '2026-03-08',
      });
    });

    it('America/Chicago, the November night the clocks go back: midnight at UTC-6', async () => {
      // Sunday 1 November 2026 (a 25-hour day). "Start of day + 24 h" would say 05:00Z, an hour early.
      await expiresExactlyAt({
        timeZone: 'America/Chicago',
        window: { days: EVERY_DAY, start: '17:00', end: '23:00', turnMinutes: 20 },
        joinAt: '2026-11-02T00:00:00.000Z', // 18:00 CST
        expiry: '2026-11-02T06:00:00.000Z',
        businessDate: '2026-11-01',
      });
    });

    it('America/Santiago, where midnight is skipped: the token dies at 01:00, the first instant of the next day', async () => {
      // Saturday 5 September 2026; at 00:00 (UTC-4) the clocks jumped to 01:00 (UTC-3).
      await expiresExactlyAt({
        timeZone: 'America/Santiago',
        window: { days: EVERY_DAY, start: '12:00', end: '23:00', turnMinutes: 30 },
        joinAt: '2026-09-05T23:00:00.000Z', // 19:00 UTC-4
        expiry: '2026-09-06T04:00:00.000Z', // 01:00 UTC-3
        businessDate: '2026-09-05',
      });
    });

    it('America/Havana, where midnight happens twice: the token dies at the first, when the date ends', async () => {
      // Sunday 1 November 2026: at 01:00 (UTC-4) the clocks go back to 00:00 (UTC-5), so midnight
      // comes at 04:00Z and again at 05:00Z. Luxon reads "00:00" there as the second: an hour late.
      await expiresExactlyAt({
        timeZone: 'America/Havana',
        window: { days: EVERY_DAY, start: '18:00', end: '23:00', turnMinutes: 20 },
        joinAt: '2026-10-31T23:00:00.000Z', // 19:00 UTC-4
        expiry: '2026-11-01T04:00:00.000Z', // the first 00:00
        businessDate: '2026-10-31',
      });
    });

    it('Europe/Paris, a second zone on an ordinary night', async () => {
      await expiresExactlyAt({
        timeZone: 'Europe/Paris',
        window: { days: EVERY_DAY, start: '18:00', end: '23:30', turnMinutes: 25 },
        joinAt: '2026-06-12T18:00:00.000Z', // 20:00 CEST
        expiry: '2026-06-12T22:00:00.000Z',
        businessDate: '2026-06-12',
      });
    });
  });

  describe('the one-minute floor', () => {
    it('a token issued 30 s before its midnight lives a full minute', async () => {
      await expiresExactlyAt({
        timeZone: 'America/Chicago',
        window: { days: EVERY_DAY, start: '18:00', end: '00:00', turnMinutes: 20 },
        joinAt: '2026-06-13T04:59:30.000Z', // 23:59:30 Friday
        expiry: '2026-06-13T05:00:30.000Z',
        businessDate: '2026-06-12',
      });
    });

    it('on the Santiago night that skips midnight too', async () => {
      await expiresExactlyAt({
        timeZone: 'America/Santiago',
        window: { days: EVERY_DAY, start: '18:00', end: '00:00', turnMinutes: 30 },
        joinAt: '2026-09-06T03:59:30.000Z', // 23:59:30 Saturday, UTC-4
        expiry: '2026-09-06T04:00:30.000Z',
        businessDate: '2026-09-05',
      });
    });

    it('a party joining after midnight in a window that runs past it (its midnight has passed) gets its minute', async () => {
      await expiresExactlyAt({
        timeZone: 'America/Chicago',
        window: { days: [5], start: '18:00', end: '02:00', turnMinutes: 20 },
        joinAt: '2026-06-13T05:30:00.000Z', // 00:30 Saturday; business date Friday
        expiry: '2026-06-13T05:31:00.000Z',
        businessDate: '2026-06-12',
      });
    });
  });

  describe('a token works once, and every wrong token gets the same answer', () => {
    it('unknown, used, expired and replaced all answer the same 401 TOKEN_INVALID', async () => {
      const v = await sandboxVenue(t, owner, {
        clock: '2026-06-12T23:00:00.000Z',
        windows: [{ days: EVERY_DAY, start: '17:00', end: '23:00', turnMinutes: 20 }],
      });
      const host = await addMember(t, v.id, owner, 'host');
      const a = await joined(t, host, v.id, party(2));
      const b = await joined(t, host, v.id, party(2));
      const c = await joined(t, host, v.id, party(2));

      const opened = await exchange(t, a.queueToken as string).expect(201);
      expect(opened.body).toEqual({
        sessionToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        entryId: a.entry.id,
        expiresAt: '2026-06-13T00:00:00.000Z', // 60 minutes of the venue's clock
      });
      const used = await exchange(t, a.queueToken as string);
      expect(used.status).toBe(401);
      expect(used.body).toEqual(INVALID);

      const replaced = await request(t.baseUrl).post(`/v1/venues/${v.id}/queue/${b.entry.id}/token`).set(host.auth).expect(201);
      expect((await exchange(t, b.queueToken as string)).body).toEqual(INVALID);
      await exchange(t, (replaced.body as { queueToken: string }).queueToken).expect(201);

      for (const wrong of ['x'.repeat(43), 'short', (c.queueToken as string).slice(0, 42), `${c.queueToken as string}=`]) {
        const res = await exchange(t, wrong);
        expect({ status: res.status, body: res.body }).toEqual({ status: 401, body: INVALID });
      }
      await moveClock(t, owner, v.id, '2026-06-13T05:00:00.000Z');
      expect((await exchange(t, c.queueToken as string)).body).toEqual(INVALID);
      // Input that is not a token at all is malformed, not a wrong token.
      const malformed = await request(t.baseUrl)
        .post('/v1/queue-sessions')
        .set('X-Forwarded-For', freshAddress())
        .send({ token: 7 });
      expect(refusal(malformed)).toEqual({ status: 400, code: 'VALIDATION' });
    });

    it('two racing exchanges of one token open one session', async () => {
      const v = await sandboxVenue(t, owner, { clock: '2026-06-12T23:00:00.000Z' });
      for (let round = 0; round < 5; round++) {
        const a = await joined(t, owner, v.id, party(2));
        const answers = await Promise.all([exchange(t, a.queueToken as string), exchange(t, a.queueToken as string)]);
        expect(answers.map((r) => r.status).sort()).toEqual([201, 401]);
      }
    });

    it('a replayed exchange returns the same answer without the session secret', async () => {
      const v = await sandboxVenue(t, owner, { clock: '2026-06-12T23:00:00.000Z' });
      const a = await joined(t, owner, v.id, party(2));
      const from = freshAddress();
      const first = await exchange(t, a.queueToken as string, from)
        .set('Idempotency-Key', `x-${a.entry.id}`)
        .expect(201);
      const again = await exchange(t, a.queueToken as string, from)
        .set('Idempotency-Key', `x-${a.entry.id}`)
        .expect(201);
      expect(again.body).toEqual({ ...(first.body as Opened), sessionToken: null });
    });

    it('replacing a token also ends the sessions opened with the old one; replays show no token', async () => {
      const v = await sandboxVenue(t, owner, { clock: '2026-06-12T23:00:00.000Z' });
      const a = await joined(t, owner, v.id, party(2));
      const s = (await exchange(t, a.queueToken as string).expect(201)).body as Opened;
      await request(t.baseUrl).get('/v1/queue-session').set(queueSession(s.sessionToken)).expect(200);
      const key = `replace-${a.entry.id}`;
      const r1 = await request(t.baseUrl)
        .post(`/v1/venues/${v.id}/queue/${a.entry.id}/token`)
        .set(owner.auth)
        .set('Idempotency-Key', key)
        .expect(201);
      const r2 = await request(t.baseUrl)
        .post(`/v1/venues/${v.id}/queue/${a.entry.id}/token`)
        .set(owner.auth)
        .set('Idempotency-Key', key)
        .expect(201);
      expect(r2.body).toEqual({ ...(r1.body as object), queueToken: null });
      const gone = await request(t.baseUrl).get('/v1/queue-session').set(queueSession(s.sessionToken));
      expect({ status: gone.status, body: gone.body }).toEqual({ status: 401, body: INVALID });
      // The history says who replaced it, and when.
      const history = (
        await request(t.baseUrl).get(`/v1/venues/${v.id}/history?subjectId=${a.entry.id}`).set(owner.auth).expect(200)
      ).body as Array<{ reason: string | null; actor: string }>;
      // History is newest first.
      expect(history[0]).toMatchObject({ reason: 'queue token replaced', actor: `staff:${owner.userId}` });
    });

    it('a party that confirmed its table and whose session ran out gets a new code from the desk; a seated one does not', async () => {
      const v = await sandboxVenue(t, owner, { clock: '2026-06-12T23:00:00.000Z', tables: [{ label: 'T1', capacity: 2 }] });
      const a = await joined(t, owner, v.id, party(2));
      const s = (await exchange(t, a.queueToken as string).expect(201)).body as Opened;
      const offered = (
        await request(t.baseUrl)
          .post(`/v1/venues/${v.id}/offers`)
          .set(owner.auth)
          .send({ entryId: a.entry.id, entryVersion: a.entry.version, tableIds: [v.tableIds['T1']] })
          .expect(201)
      ).body as { offer: { reservationId: string } };
      await request(t.baseUrl).post('/v1/queue-session/accept').set(queueSession(s.sessionToken)).send({}).expect(200);
      // The party's session runs out (an hour) while it is on its way.
      await request(t.baseUrl)
        .post(`/v1/venues/${v.id}/clock`)
        .set(owner.auth)
        .send({ now: '2026-06-13T00:05:00.000Z' })
        .expect(200);
      expect((await request(t.baseUrl).get('/v1/queue-session').set(queueSession(s.sessionToken))).status).toBe(401);
      const fresh = (await request(t.baseUrl).post(`/v1/venues/${v.id}/queue/${a.entry.id}/token`).set(owner.auth).expect(201))
        .body as { queueToken: string };
      const again = (await exchange(t, fresh.queueToken).expect(201)).body as Opened;
      const view = (await request(t.baseUrl).get('/v1/queue-session').set(queueSession(again.sessionToken)).expect(200)).body as {
        entry: { status: string };
      };
      expect(view.entry.status).toBe('confirmed');
      // Seated, the party needs no page: the desk gives no code.
      await request(t.baseUrl)
        .post(`/v1/venues/${v.id}/reservations/${offered.offer.reservationId}/seat`)
        .set(owner.auth)
        .expect(201);
      const seated = await request(t.baseUrl).post(`/v1/venues/${v.id}/queue/${a.entry.id}/token`).set(owner.auth);
      expect(refusal(seated)).toEqual({ status: 409, code: 'WAITLIST_OFFER_CONFLICT' });
    });

    it('exchanges are rate-limited per address, counting each attempt before the token is checked; a real token still opens', async () => {
      const limited = await startApp({ env: { AUTH_RATE_LIMIT: '3', AUTH_RATE_WINDOW_SECONDS: '60' } });
      try {
        const me = await signUp(limited, 'limit-owner');
        const v = await sandboxVenue(limited, me, { clock: '2026-06-12T23:00:00.000Z' });
        const a = await joined(limited, me, v.id, party(2));
        const b = await joined(limited, me, v.id, party(2));
        // Someone on the venue's Wi-Fi (one address for every guest there) uses up its count.
        const from = freshAddress();
        for (let i = 0; i < 3; i++) expect((await exchange(limited, 'y'.repeat(43), from)).status).toBe(401);
        expect(refusal(await exchange(limited, 'z'.repeat(43), from))).toEqual({ status: 429, code: 'RATE_LIMITED' });
        // A guest there still opens their session with their own token, and reads their place with it.
        await request(limited.baseUrl)
          .post('/v1/queue-status')
          .set('X-Forwarded-For', from)
          .send({ token: b.queueToken })
          .expect(200);
        await exchange(limited, a.queueToken as string, from).expect(201);
        // Past the limit every other refusal reads the same: a used token is not told apart from a wrong one.
        expect(refusal(await exchange(limited, a.queueToken as string, from))).toEqual({ status: 429, code: 'RATE_LIMITED' });
        // Another address is not limited, and is told plainly.
        expect(refusal(await exchange(limited, a.queueToken as string, freshAddress()))).toEqual({
          status: 401,
          code: 'TOKEN_INVALID',
        });
        await exchange(limited, b.queueToken as string, freshAddress()).expect(201);
        // Successes give their point back: one address can open many sessions.
        const ok = freshAddress();
        for (let i = 0; i < 5; i++) {
          const p = await joined(limited, me, v.id, party(2));
          await exchange(limited, p.queueToken as string, ok).expect(201);
        }
      } finally {
        await limited.close();
      }
    });
  });

  describe('queue sessions', () => {
    it('shows the party its own entry and position, lasts 60 minutes, and leaves the queue', async () => {
      const v = await sandboxVenue(t, owner, {
        clock: '2026-06-12T23:00:00.000Z',
        windows: [{ days: EVERY_DAY, start: '17:00', end: '23:00', turnMinutes: 20 }],
      });
      const first = await joined(t, owner, v.id, party(2));
      const me = await joined(t, owner, v.id, party(2));
      const s = (await exchange(t, me.queueToken as string).expect(201)).body as Opened;
      const auth = queueSession(s.sessionToken);
      // The first party's session, opened at the same instant, shows the 60-minute lifetime at the end.
      const other = queueSession(((await exchange(t, first.queueToken as string).expect(201)).body as Opened).sessionToken);
      const view = await request(t.baseUrl).get('/v1/queue-session').set(auth).expect(200);
      expect(view.body).toEqual({
        venue: { name: 'The Test Kitchen', timeZone: 'America/Chicago', sandbox: true, seating: 'tables' },
        now: expect.any(String),
        entry: me.entry,
        position: 2,
        ahead: 1,
        offer: null,
        lastOffer: null,
        serviceRunning: true,
        outReason: null,
        // No email or text provider in the test app: the party's messages are only recorded.
        messaged: false,
      });

      await moveClock(t, owner, v.id, ms(s.expiresAt, -1));
      await request(t.baseUrl).get('/v1/queue-session').set(auth).expect(200);

      const left = await request(t.baseUrl)
        .post('/v1/queue-session/leave')
        .set(auth)
        .set('Idempotency-Key', 'leave-1')
        .send({})
        .expect(200);
      const entry = (left.body as { entry: EntryBody }).entry;
      expect(entry).toMatchObject({ id: me.entry.id, status: 'cancelled' });
      // The guest's phone lost the answer and retries with the same key: the same answer, though the
      // leave ended the session. A new key, or none, opens nothing.
      const retried = await request(t.baseUrl)
        .post('/v1/queue-session/leave')
        .set(auth)
        .set('Idempotency-Key', 'leave-1')
        .send({});
      expect({ status: retried.status, body: retried.body as unknown }).toEqual({ status: 200, body: left.body as unknown });
      const fresh = await request(t.baseUrl).post('/v1/queue-session/leave').set(auth).set('Idempotency-Key', 'leave-2').send({});
      expect({ status: fresh.status, body: fresh.body as unknown }).toEqual({ status: 401, body: INVALID });
      // Leaving ends the session with the entry (issue 14, item 7): it opens nothing afterwards, and
      // the host's repeat of the cancellation changes nothing.
      expect(await request(t.baseUrl).get('/v1/queue-session').set(auth)).toMatchObject({ status: 401, body: INVALID });
      expect((await request(t.baseUrl).post('/v1/queue-session/leave').set(auth).send({})).body).toEqual(INVALID);
      const again = await request(t.baseUrl).post(`/v1/venues/${v.id}/queue/${me.entry.id}/cancel`).set(owner.auth).expect(200);
      expect(again.body).toEqual(left.body);
      const history = (
        await request(t.baseUrl).get(`/v1/venues/${v.id}/history?subjectId=${me.entry.id}`).set(owner.auth).expect(200)
      ).body as Array<{ to: string; actor: string }>;
      // History is newest first.
      expect(history[0]).toMatchObject({ to: 'cancelled', actor: `party:${me.entry.id}` });

      await request(t.baseUrl).get('/v1/queue-session').set(other).expect(200);
      await moveClock(t, owner, v.id, s.expiresAt);
      expect((await request(t.baseUrl).get('/v1/queue-session').set(other)).body).toEqual(INVALID);
    });

    it('a session opens only its own entry: another entry or offer is not found, staff routes stay closed', async () => {
      // A pool venue has offers today (promotions), so the session's offer and acceptance can be shown.
      const v = await sandboxVenue(t, owner, { preset: 'workshop', poolCapacity: 4, clock: '2026-06-12T15:00:00.000Z' });
      const a = await joined(t, owner, v.id, party(2));
      const b = await joined(t, owner, v.id, party(2));
      const sa = queueSession(((await exchange(t, a.queueToken as string).expect(201)).body as Opened).sessionToken);
      const sb = queueSession(((await exchange(t, b.queueToken as string).expect(201)).body as Opened).sessionToken);
      const promoted = await request(t.baseUrl).post(`/v1/venues/${v.id}/promotions`).set(owner.auth).expect(201);
      const offerA = (promoted.body as { offer: { id: string } }).offer;

      const viewA = (await request(t.baseUrl).get('/v1/queue-session').set(sa).expect(200)).body as {
        entry: EntryBody;
        offer: { id: string; state: string } | null;
      };
      expect(viewA.entry).toMatchObject({ id: a.entry.id, status: 'offered' });
      expect(viewA.offer).toMatchObject({ id: offerA.id, state: 'live' });
      const viewB = (await request(t.baseUrl).get('/v1/queue-session').set(sb).expect(200)).body as {
        entry: EntryBody;
        offer: null;
      };
      expect(viewB).toMatchObject({ entry: { id: b.entry.id, status: 'waiting' }, offer: null });

      // B names A's offer, or A's entry: not found, and A's offer stays live.
      expect(refusal(await request(t.baseUrl).post('/v1/queue-session/accept').set(sb).send({ offerId: offerA.id }))).toEqual({
        status: 404,
        code: 'NOT_FOUND',
      });
      expect(refusal(await request(t.baseUrl).post('/v1/queue-session/leave').set(sb).send({ entryId: a.entry.id }))).toEqual({
        status: 404,
        code: 'NOT_FOUND',
      });
      expect(refusal(await request(t.baseUrl).post('/v1/queue-session/accept').set(sb).send({}))).toEqual({
        status: 409,
        code: 'WAITLIST_OFFER_CONFLICT',
      });
      // A queue session is not a staff session, and a staff session is not a queue session.
      for (const path of [`/v1/venues/${v.id}/queue`, `/v1/venues/${v.id}/messages`]) {
        expect(refusal(await request(t.baseUrl).get(path).set(sb))).toEqual({ status: 401, code: 'UNAUTHENTICATED' });
      }
      expect(refusal(await request(t.baseUrl).get('/v1/queue-session').set(owner.auth))).toEqual({
        status: 401,
        code: 'TOKEN_INVALID',
      });
      // A queue token is not a session secret either.
      const c = await joined(t, owner, v.id, party(1));
      expect(
        refusal(
          await request(t.baseUrl)
            .get('/v1/queue-session')
            .set(queueSession(c.queueToken as string)),
        ),
      ).toEqual({
        status: 401,
        code: 'TOKEN_INVALID',
      });

      // A accepts its own offer through its session: the same reservation, now CONFIRMED.
      const accepted = await request(t.baseUrl).post('/v1/queue-session/accept').set(sa).send({}).expect(200);
      expect(accepted.body).toMatchObject({
        offer: { id: offerA.id, state: 'accepted' },
        reservation: { id: (promoted.body as { reservation: { id: string } }).reservation.id, state: 'CONFIRMED' },
      });
      const twice = await request(t.baseUrl).post('/v1/queue-session/accept').set(sa).send({});
      expect(errorOf(twice)).toMatchObject({ code: 'WAITLIST_OFFER_CONFLICT', message: 'This hold is no longer open.' });

      // B is promoted and lets the hold lapse: its acceptance is too late.
      const promotedB = await request(t.baseUrl).post(`/v1/venues/${v.id}/promotions`).set(owner.auth).expect(201);
      const expiresAt = (promotedB.body as { offer: { expiresAt: string } }).offer.expiresAt;
      await moveClock(t, owner, v.id, expiresAt);
      const late = await request(t.baseUrl).post('/v1/queue-session/accept').set(sb).send({});
      // A seat-pool venue says it in the workshop's words: seats held, not a table.
      expect(errorOf(late)).toMatchObject({
        code: 'WAITLIST_OFFER_EXPIRED',
        message: 'The hold expired and its seats were released.',
      });
    });

    it('a booking link does not open a queue session', async () => {
      const v = await sandboxVenue(t, owner, { preset: 'workshop', poolCapacity: 4, clock: '2026-06-12T15:00:00.000Z' });
      const booked = await request(t.baseUrl)
        .post(`/v1/venues/${v.id}/reservations`)
        .set(owner.auth)
        .send({ name: 'Booked', partySize: 2, email: 'booked@example.test' })
        .expect(201);
      const link = (booked.body as { bookingLink: string }).bookingLink;
      expect(link).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect((await exchange(t, link)).body).toEqual(INVALID);
    });
  });
});
