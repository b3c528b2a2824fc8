import request from 'supertest';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { violations } from '../support/invariants.js';
import {
  errorOf,
  exchange,
  joined,
  messages,
  moveClock,
  party,
  queueSession,
  refusal,
  sandboxVenue,
  type Sandbox,
} from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { addMember, signUp, type Staff } from '../support/staff.js';

interface OfferBody {
  offer: { id: string; entryId: string; reservationId: string; state: string; expiresAt: string; tableIds: string[] };
  reservation: { id: string; state: string; tableIds: string[] };
}

const T0 = '2026-10-09T23:00:00.000Z'; // 6 PM in Chicago, a Friday

/** Table offers through the shared allocator: holds, acceptance, expiry that keeps the place, seating. */
describe('table offers (restaurant preset)', () => {
  let t: TestApp;
  let owner: Staff;
  const ds = (): DataSource => t.app.get<DataSource>(getDataSourceToken());

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'owner');
  });
  afterEach(async () => expect(await violations(ds())).toEqual([]));
  afterAll(() => t.close());

  const restaurant = (extra: Partial<Parameters<typeof sandboxVenue>[2]> = {}): Promise<Sandbox> =>
    sandboxVenue(t, owner, {
      clock: T0,
      windows: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '17:00', end: '23:00', turnMinutes: 90 }],
      tables: [
        { label: 'T1', capacity: 2 },
        { label: 'T2', capacity: 4 },
        { label: 'T3', capacity: 4 },
      ],
      ...extra,
    });

  const offer = (v: Sandbox, entry: { id: string; version: number }, tables: string[]): request.Test =>
    request(t.baseUrl)
      .post(`/v1/venues/${v.id}/offers`)
      .set(owner.auth)
      .send({ entryId: entry.id, entryVersion: entry.version, tableIds: tables.map((l) => v.tableIds[l]) });

  it('runs the restaurant story: offer, lapse with the place kept, re-offer, accept through the queue session, withdraw, seat and clear', async () => {
    const v = await restaurant();
    const ana = await joined(t, owner, v.id, { ...party(2, 'Ana'), email: 'ana@example.test' });
    const bo = await joined(t, owner, v.id, { ...party(4, 'Bo'), email: 'bo@example.test' });
    const cy = await joined(t, owner, v.id, { ...party(2, 'Cy'), email: 'cy@example.test' });

    // Ana is offered T1 and lets it lapse: she keeps her place (first), with the same received time.
    const first = (await offer(v, ana.entry, ['T1']).expect(201)).body as OfferBody;
    expect(first.reservation.state).toBe('HELD');
    expect(first.offer.expiresAt).toBe('2026-10-09T23:05:00.000Z');
    await moveClock(t, owner, v.id, '2026-10-09T23:05:00.000Z');
    const queue1 = (await request(t.baseUrl).get(`/v1/venues/${v.id}/queue`).set(owner.auth).expect(200)).body as {
      entries: Array<{ id: string; status: string; receivedAt: string; version: number }>;
    };
    expect(queue1.entries.map((e) => [e.id, e.status])).toEqual([
      [ana.entry.id, 'waiting'],
      [bo.entry.id, 'waiting'],
      [cy.entry.id, 'waiting'],
    ]);
    expect(queue1.entries[0]?.receivedAt).toBe(ana.entry.receivedAt);
    const expiredReservation = (await request(t.baseUrl).get(`/v1/venues/${v.id}/reservations`).set(owner.auth).expect(200))
      .body as Array<{ id: string; state: string; stateReason: string }>;
    expect(expiredReservation.find((r) => r.id === first.reservation.id)).toMatchObject({
      state: 'EXPIRED',
      stateReason: 'WAITLIST_OFFER_EXPIRED',
    });

    // Offered again (T1 is free again), and she accepts through her own queue session.
    const anaNow = queue1.entries[0] as { id: string; version: number };
    const second = (await offer(v, anaNow, ['T1']).expect(201)).body as OfferBody;
    const session = (await exchange(t, ana.queueToken ?? '').expect(201)).body as { sessionToken: string };
    const accepted = await request(t.baseUrl)
      .post('/v1/queue-session/accept')
      .set(queueSession(session.sessionToken))
      .send({})
      .expect(200);
    expect((accepted.body as OfferBody).reservation).toMatchObject({
      id: second.reservation.id,
      state: 'CONFIRMED',
      tableIds: [v.tableIds['T1']],
    });

    // Bo is offered T2 (it seats four), then the host withdraws it: back to waiting, place kept.
    const boOffer = (await offer(v, bo.entry, ['T2']).expect(201)).body as OfferBody;
    await request(t.baseUrl).post(`/v1/venues/${v.id}/offers/${boOffer.offer.id}/withdraw`).set(owner.auth).send({}).expect(200);
    const queue2 = (await request(t.baseUrl).get(`/v1/venues/${v.id}/queue`).set(owner.auth).expect(200)).body as {
      entries: Array<{ id: string; status: string }>;
    };
    expect(queue2.entries.map((e) => [e.id, e.status])).toEqual([
      [bo.entry.id, 'waiting'],
      [cy.entry.id, 'waiting'],
    ]);

    // Seat Ana and clear her table.
    const seated = await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/reservations/${second.reservation.id}/seat`)
      .set(owner.auth)
      .send({})
      .expect(201);
    const visitId = (seated.body as { visit: { id: string } }).visit.id;
    const board = (await request(t.baseUrl).get(`/v1/venues/${v.id}/board`).set(owner.auth).expect(200)).body as {
      tables: Array<{ label: string; state: string }>;
      counts: Record<string, number>;
    };
    expect(board.tables.find((x) => x.label === 'T1')?.state).toBe('occupied');
    expect(board.counts).toEqual({ tables: 3, free: 2, held: 0, booked: 0, occupied: 1 });
    await request(t.baseUrl).post(`/v1/venues/${v.id}/visits/${visitId}/clear`).set(owner.auth).send({}).expect(200);
    const after = (await request(t.baseUrl).get(`/v1/venues/${v.id}/counts`).set(owner.auth).expect(200)).body as Record<
      string,
      number
    >;
    expect(after).toEqual({ tables: 3, free: 3, held: 0, booked: 0, occupied: 0 });

    // The recorded emails: three queueing emails, three table-ready emails, and one announcement for
    // each offer that ended without a table (Ana's lapsed, Bo's withdrawn).
    const sent = await messages(t, owner, v.id);
    // (Sorted: the three joins share one sandbox instant.)
    expect(sent.map((m) => `${m.template} ${m.to}`).sort()).toEqual([
      'offer-lapsed ana@example.test',
      'offer-withdrawn bo@example.test',
      'queue-joined ana@example.test',
      'queue-joined bo@example.test',
      'queue-joined cy@example.test',
      'table-ready ana@example.test',
      'table-ready ana@example.test',
      'table-ready bo@example.test',
    ]);
    // Newest first: the last one is Ana's first offer.
    const ready = sent.findLast((m) => m.template === 'table-ready');
    expect(ready?.subject).toBe('Your table is ready — The Test Kitchen');
    expect(ready?.body).toContain('Please confirm within 5 minutes — the offer expires at 6:05 PM CDT.');
    expect(ready?.body).toContain('Confirm through your queue link so we can seat you.');
  });

  it('accepts at 4:59.999 and refuses at exactly 5:00, releasing the table once', async () => {
    for (const [at, ok] of [
      ['2026-10-09T23:04:59.999Z', true],
      ['2026-10-09T23:05:00.000Z', false],
    ] as const) {
      const v = await restaurant();
      const p = await joined(t, owner, v.id, party(2));
      const o = (await offer(v, p.entry, ['T1']).expect(201)).body as OfferBody;
      await moveClock(t, owner, v.id, at);
      const res = await request(t.baseUrl).post(`/v1/venues/${v.id}/offers/${o.offer.id}/accept`).set(owner.auth).send({});
      if (ok) expect(res.status).toBe(200);
      else {
        expect(refusal(res)).toEqual({ status: 409, code: 'WAITLIST_OFFER_EXPIRED' });
        expect(errorOf(res).message).toBe('The offer expired and its table was released.');
        const history = (
          await request(t.baseUrl).get(`/v1/venues/${v.id}/history?subjectId=${o.reservation.id}`).set(owner.auth).expect(200)
        ).body as Array<{ to: string }>;
        expect(history.filter((h) => h.to === 'EXPIRED')).toHaveLength(1);
      }
    }
  });

  it('refuses honestly, naming what is in the way', async () => {
    const v = await restaurant();
    const a = await joined(t, owner, v.id, party(2));
    const b = await joined(t, owner, v.id, party(2));
    const big = await joined(t, owner, v.id, party(4));

    // Tables that do not fit: VALIDATION.
    // The words suit every way a host picks tables (offer, booking, walk-in, move), not only an offer.
    const small = await offer(v, big.entry, ['T1']);
    expect(refusal(small)).toEqual({ status: 400, code: 'VALIDATION' });
    expect(errorOf(small).message).toBe('Choose one table that seats the party, or an approved combination that does.');
    expect(refusal(await offer(v, big.entry, ['T1', 'T2']))).toEqual({ status: 400, code: 'VALIDATION' });
    // Stale version: WAITLIST_STALE.
    expect(refusal(await offer(v, { id: a.entry.id, version: a.entry.version + 1 }, ['T1']))).toEqual({
      status: 409,
      code: 'WAITLIST_STALE',
    });
    // Planned: CONFLICT naming the placement.
    const held = (await offer(v, a.entry, ['T1']).expect(201)).body as OfferBody;
    const planned = await offer(v, b.entry, ['T1']);
    expect(refusal(planned)).toEqual({ status: 409, code: 'CONFLICT' });
    expect(errorOf(planned).details).toMatchObject({
      placement: { label: 'T1', reservationId: held.reservation.id, state: 'HELD' },
    });
    // Not waiting any more: WAITLIST_OFFER_CONFLICT.
    expect(refusal(await offer(v, { id: a.entry.id, version: a.entry.version + 1 }, ['T2']))).toEqual({
      status: 409,
      code: 'WAITLIST_OFFER_CONFLICT',
    });
    // Occupied: OCCUPANCY_CONFLICT naming the placement.
    await request(t.baseUrl).post(`/v1/venues/${v.id}/offers/${held.offer.id}/accept`).set(owner.auth).send({}).expect(200);
    await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/reservations/${held.reservation.id}/seat`)
      .set(owner.auth)
      .send({})
      .expect(201);
    // Seated again (a second screen's tap): refused with a reason a client keys on, not the words.
    const twice = await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/reservations/${held.reservation.id}/seat`)
      .set(owner.auth)
      .send({});
    expect(refusal(twice)).toEqual({ status: 422, code: 'RULE_VIOLATION' });
    expect(errorOf(twice).details).toEqual({ state: 'SEATED', reason: 'not-seatable' });
    const occupied = await offer(v, b.entry, ['T1']);
    expect(refusal(occupied)).toEqual({ status: 409, code: 'OCCUPANCY_CONFLICT' });
    expect(errorOf(occupied).details).toMatchObject({
      placement: { label: 'T1', reservationId: held.reservation.id, state: 'SEATED' },
    });

    // No running window: RULE_VIOLATION. Deposit-backed service: PAID_BOOKING_UNAVAILABLE.
    const paid = await restaurant({
      windows: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '17:00', end: '23:00', turnMinutes: 90, depositRequired: true }],
    });
    const p = await joined(t, owner, paid.id, party(2));
    expect(refusal(await offer(paid, p.entry, ['T1']))).toEqual({ status: 422, code: 'PAID_BOOKING_UNAVAILABLE' });
    await moveClock(t, owner, v.id, '2026-10-10T04:30:00.000Z'); // 11:30 PM: service over (the day not yet)
    expect(refusal(await offer(v, b.entry, ['T2']))).toEqual({ status: 422, code: 'RULE_VIOLATION' });
  });

  it("answers a malformed offer body in class-validator's words, and takes a plain one (issue 18: offers checked without it)", async () => {
    const v = await restaurant();
    const a = await joined(t, owner, v.id, party(2));
    const body = { entryId: a.entry.id, entryVersion: a.entry.version, tableIds: [v.tableIds['T1']] };
    const post = (b: Record<string, unknown>): request.Test =>
      request(t.baseUrl).post(`/v1/venues/${v.id}/offers`).set(owner.auth).send(b);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...body, tableIds: [] }, 'Table IDs must contain at least 1 elements'],
      [{ ...body, tableIds: ['T1'] }, 'Each value in table IDs must be a UUID'],
      [{ ...body, entryVersion: String(a.entry.version) }, 'Entry version must be an integer number'],
      [{ ...body, entryId: 'ana' }, 'Entry ID must be a UUID'],
      [{ ...body, note: 'x' }, 'The field "note" is not one this request takes'],
    ];
    for (const [b, message] of cases) {
      const res = await post(b);
      expect({ b, status: res.status, code: errorOf(res).code, message: errorOf(res).message }).toEqual({
        b,
        status: 400,
        code: 'VALIDATION',
        message,
      });
    }
    expect(((await post(body).expect(201)).body as OfferBody).offer.tableIds).toEqual([v.tableIds['T1']]);
  });

  it('a party that confirmed and has not come keeps its table past its turn: no offer, booking or move takes it meanwhile', async () => {
    // A Friday service running past midnight, 45-minute turns (not the sample's figures).
    const v = await restaurant({ windows: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '17:00', end: '02:00', turnMinutes: 45 }] });
    const c = await joined(t, owner, v.id, party(2, 'C Two'));
    const held = (await offer(v, c.entry, ['T1']).expect(201)).body as OfferBody;
    await request(t.baseUrl).post(`/v1/venues/${v.id}/offers/${held.offer.id}/accept`).set(owner.auth).send({}).expect(200);
    // While its turn runs, a booking for after the turn is fine (it is cancelled again here).
    const later = (
      await request(t.baseUrl)
        .post(`/v1/venues/${v.id}/reservations`)
        .set(owner.auth)
        .send({ name: 'Later', partySize: 2, start: '2026-10-10T00:00:00.000Z', tableIds: [v.tableIds['T1']] })
        .expect(201)
    ).body as { id: string };
    await request(t.baseUrl).post(`/v1/venues/${v.id}/reservations/${later.id}/cancel`).set(owner.auth).send({}).expect(200);
    // 1:30 AM: C's turn ended hours ago, and C is still expected (not seated, not a no-show).
    await moveClock(t, owner, v.id, '2026-10-10T06:30:00.000Z');
    const g = await joined(t, owner, v.id, party(2, 'G Late'));
    const clash = await offer(v, g.entry, ['T1']);
    expect(refusal(clash)).toEqual({ status: 409, code: 'CONFLICT' });
    expect(errorOf(clash).message).toBe(
      'Table T1 is kept for C Two, who confirmed and has not been seated yet. Seat them or mark a no-show first.',
    );
    const walkIn = await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/reservations`)
      .set(owner.auth)
      .send({ name: 'Walk-in', partySize: 2, start: '2026-10-10T06:30:00.000Z', tableIds: [v.tableIds['T1']] });
    expect(refusal(walkIn)).toEqual({ status: 409, code: 'CONFLICT' });
    const mover = (
      await request(t.baseUrl)
        .post(`/v1/venues/${v.id}/reservations`)
        .set(owner.auth)
        .send({ name: 'Mover', partySize: 2, start: '2026-10-10T06:30:00.000Z', tableIds: [v.tableIds['T2']] })
        .expect(201)
    ).body as { id: string };
    const move = await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/reservations/${mover.id}/move`)
      .set(owner.auth)
      .send({ tableIds: [v.tableIds['T1']] });
    expect(refusal(move)).toEqual({ status: 409, code: 'CONFLICT' });
    // The host marks C a no-show: T1 is free for G.
    await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/reservations/${held.reservation.id}/cancel`)
      .set(owner.auth)
      .send({})
      .expect(200);
    await offer(v, g.entry, ['T1']).expect(201);
  });

  it('a combination approved by mistake is removed by a manager: no offer uses it after, bookings on its tables stay', async () => {
    const v = await restaurant();
    const mistyped = (
      await request(t.baseUrl)
        .post(`/v1/venues/${v.id}/combinations`)
        .set(owner.auth)
        .send({ tableIds: [v.tableIds['T2'], v.tableIds['T3']], capacity: 7 })
        .expect(201)
    ).body as { id: string };
    // A party of six joined while the combination stood (without it no table seats six).
    const big = await joined(t, owner, v.id, party(6));
    const host = await addMember(t, v.id, owner, 'host');
    await request(t.baseUrl).delete(`/v1/venues/${v.id}/combinations/${mistyped.id}`).set(host.auth).expect(403);
    const removed = await request(t.baseUrl).delete(`/v1/venues/${v.id}/combinations/${mistyped.id}`).set(owner.auth).expect(200);
    expect(removed.body).toMatchObject({ id: mistyped.id, capacity: 7 });
    expect((await request(t.baseUrl).get(`/v1/venues/${v.id}/combinations`).set(owner.auth).expect(200)).body).toEqual([]);
    expect(refusal(await offer(v, big.entry, ['T2', 'T3']))).toEqual({ status: 400, code: 'VALIDATION' });
    expect(refusal(await request(t.baseUrl).delete(`/v1/venues/${v.id}/combinations/${mistyped.id}`).set(owner.auth))).toEqual({
      status: 404,
      code: 'NOT_FOUND',
    });
    const history = (
      await request(t.baseUrl).get(`/v1/venues/${v.id}/history?subjectId=${mistyped.id}`).set(owner.auth).expect(200)
    ).body as Array<{ to: string }>;
    expect(history.map((h) => h.to)).toEqual(['removed', 'created']);
  });

  it('moves a combination to one that keeps one of its tables (T1+T2 to T2+T3), booked and seated', async () => {
    const v = await restaurant();
    for (const [pair, capacity] of [
      [['T1', 'T2'], 6],
      [['T2', 'T3'], 8],
    ] as const)
      await request(t.baseUrl)
        .post(`/v1/venues/${v.id}/combinations`)
        .set(owner.auth)
        .send({ tableIds: pair.map((l) => v.tableIds[l]), capacity })
        .expect(201);
    const ids = (...labels: string[]): string[] => labels.map((l) => v.tableIds[l] ?? '').sort();
    const booking = (
      await request(t.baseUrl)
        .post(`/v1/venues/${v.id}/reservations`)
        .set(owner.auth)
        .send({
          name: 'Okafor',
          partySize: 6,
          email: 'ok@example.test',
          start: '2026-10-09T23:40:00.000Z',
          tableIds: ids('T1', 'T2'),
        })
        .expect(201)
    ).body as { id: string };
    const move = (labels: string[]): request.Test =>
      request(t.baseUrl)
        .post(`/v1/venues/${v.id}/reservations/${booking.id}/move`)
        .set(owner.auth)
        .send({ tableIds: ids(...labels) });
    const tablesNow = async (): Promise<string[]> =>
      (
        (await ds().query('SELECT table_id FROM reservation_tables WHERE reservation_id = $1 ORDER BY table_id', [
          booking.id,
        ])) as Array<{
          table_id: string;
        }>
      ).map((r) => r.table_id);
    const moved = await move(['T2', 'T3']).expect(200);
    expect(moved.body).toMatchObject({ reservation: { id: booking.id, state: 'CONFIRMED', tableIds: ids('T2', 'T3') } });
    expect(await tablesNow()).toEqual(ids('T2', 'T3'));
    await request(t.baseUrl).post(`/v1/venues/${v.id}/reservations/${booking.id}/seat`).set(owner.auth).expect(201);
    const back = await move(['T1', 'T2']).expect(200);
    expect(back.body).toMatchObject({ reservation: { id: booking.id, state: 'SEATED', tableIds: ids('T1', 'T2') } });
    expect(await tablesNow()).toEqual(ids('T1', 'T2'));
  });

  it('confirmed bookings make "a table already planned" real, and a move follows the same rules', async () => {
    const v = await restaurant();
    const booked = await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/reservations`)
      .set(owner.auth)
      .send({
        name: 'Booker',
        partySize: 2,
        email: 'b@example.test',
        start: '2026-10-09T23:30:00.000Z',
        tableIds: [v.tableIds['T2']],
      })
      .expect(201);
    const booking = booked.body as { id: string; state: string; bookingLink: string };
    expect(booking.state).toBe('CONFIRMED');
    expect(booking.bookingLink).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const walkIn = await joined(t, owner, v.id, party(2));
    const clash = await offer(v, walkIn.entry, ['T2']);
    expect(refusal(clash)).toEqual({ status: 409, code: 'CONFLICT' });
    expect(errorOf(clash).details).toMatchObject({ placement: { label: 'T2', reservationId: booking.id, state: 'CONFIRMED' } });
    const moved = await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/reservations/${booking.id}/move`)
      .set(owner.auth)
      .send({ tableIds: [v.tableIds['T3']] })
      .expect(200);
    expect((moved.body as { reservation: { tableIds: string[] } }).reservation.tableIds).toEqual([v.tableIds['T3']]);
    await offer(v, walkIn.entry, ['T2']).expect(201);
    expect(
      refusal(
        await request(t.baseUrl)
          .post(`/v1/venues/${v.id}/reservations/${booking.id}/move`)
          .set(owner.auth)
          .send({ tableIds: [v.tableIds['T2']] }),
      ),
    ).toEqual({ status: 409, code: 'CONFLICT' });

    // The booking link opens that booking alone, once; it is not a queue token, and a queue token is not a booking link.
    const s = await request(t.baseUrl).post('/v1/booking-sessions').send({ token: booking.bookingLink }).expect(201);
    const mine = await request(t.baseUrl)
      .get('/v1/booking-session')
      .set({ Authorization: `BookingSession ${(s.body as { sessionToken: string }).sessionToken}` })
      .expect(200);
    expect((mine.body as { id: string }).id).toBe(booking.id);
    expect(refusal(await request(t.baseUrl).post('/v1/booking-sessions').send({ token: booking.bookingLink }))).toEqual({
      status: 401,
      code: 'TOKEN_INVALID',
    });
    expect(refusal(await exchange(t, booking.bookingLink))).toEqual({ status: 401, code: 'TOKEN_INVALID' });
    expect(refusal(await request(t.baseUrl).post('/v1/booking-sessions').send({ token: walkIn.queueToken }))).toEqual({
      status: 401,
      code: 'TOKEN_INVALID',
    });
  });
});
