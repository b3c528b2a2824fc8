import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { BoardClient, waitFor } from '../support/board-client.js';
import { violations } from '../support/invariants.js';
import { errorOf, joined, liveVenue, moveClock, party, refusal, sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { describeWithServer, freshDatabase, type TestDatabase } from '../support/test-database.js';
import { signIn, signUp, type Staff } from '../support/staff.js';

/**
 * A walk-in seated at a free table is one command (`POST …/walk-ins`): booked from now for one turn
 * and seated in one transaction under the venue lock, with one Idempotency-Key and one board event.
 * As two requests (book, then seat) a failed seat left the table booked but nobody seated, and the
 * host's second tap was refused because the first had booked it.
 */
const T0 = '2026-11-13T00:40:00.000Z'; // 6:40 PM in Chicago, a Thursday
const plus = (minutes: number): string => new Date(Date.parse(T0) + minutes * 60_000).toISOString();

interface Seated {
  reservation: { id: string; state: string; name: string; partySize: number; tableIds: string[]; kind: string };
  visit: { id: string; reservationId: string; openedAt: string; closedAt: string | null };
}
interface Board {
  counts: { tables: number; free: number; held: number; booked: number; occupied: number };
  tables: Array<{
    label: string;
    state: string;
    placement: {
      reservationId: string;
      name: string;
      state: string;
      partySize: number;
      slot: { start: string; end: string };
      visitId: string | null;
    } | null;
  }>;
}

describe('a walk-in seated in one request', () => {
  let t: TestApp;
  let owner: Staff;
  const api = (): request.Agent => t.http();
  const ds = (): DataSource => t.app.get<DataSource>(getDataSourceToken());

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'walk-in-owner');
  });
  afterEach(async () => expect(await violations(ds())).toEqual([]));
  afterAll(() => t.close());

  // 75-minute turns, 5 PM to 10:30 PM; a six-top and a three-top.
  const restaurant = (): Promise<Sandbox> =>
    sandboxVenue(t, owner, {
      clock: T0,
      windows: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '17:00', end: '22:30', turnMinutes: 75 }],
      tables: [
        { label: 'T4', capacity: 6 },
        { label: 'T7', capacity: 3 },
      ],
    });
  const walkIn = (v: Sandbox, body: Record<string, unknown>, key?: string): request.Test => {
    const req = api().post(`/v1/venues/${v.id}/walk-ins`).set(owner.auth);
    return (key ? req.set('Idempotency-Key', key) : req).send(body);
  };
  const board = async (v: Sandbox): Promise<Board> =>
    (await api().get(`/v1/venues/${v.id}/board`).set(owner.auth).expect(200)).body as Board;
  const reservations = async (v: Sandbox): Promise<Array<{ id: string; state: string }>> =>
    (await api().get(`/v1/venues/${v.id}/reservations`).set(owner.auth).expect(200)).body as Array<{
      id: string;
      state: string;
    }>;
  const version = async (v: Sandbox): Promise<number> =>
    ((await api().get(`/v1/venues/${v.id}/board`).set(owner.auth).expect(200)).body as { version: number }).version;

  it('one request books and seats: the reservation is SEATED, its visit open, the board shows the table occupied', async () => {
    const v = await restaurant();
    const tablet = new BoardClient(t.baseUrl, owner.token);
    try {
      await tablet.connected();
      await tablet.subscribe(v.id);
      const res = await walkIn(v, { tableIds: [v.tableIds['T4']], partySize: 5 }, randomUUID()).expect(201);
      const seated = res.body as Seated;
      expect(seated.reservation).toMatchObject({
        kind: 'tables',
        state: 'SEATED',
        name: 'Walk-in at T4',
        partySize: 5,
        tableIds: [v.tableIds['T4']],
      });
      expect(seated.visit).toEqual({
        id: expect.any(String),
        reservationId: seated.reservation.id,
        openedAt: T0,
        closedAt: null,
      });

      const b = await board(v);
      expect(b.tables.find((x) => x.label === 'T4')).toMatchObject({
        state: 'occupied',
        placement: {
          reservationId: seated.reservation.id,
          name: 'Walk-in at T4',
          state: 'SEATED',
          partySize: 5,
          slot: { start: T0, end: plus(75) },
          visitId: seated.visit.id,
        },
      });
      expect(b.counts).toEqual({ tables: 2, free: 1, held: 0, booked: 0, occupied: 1 });
      // Other tablets hear of it once, as a seating.
      await waitFor(() => tablet.events.length > 0, 5000, 'the board event');
      await new Promise((r) => setTimeout(r, 300));
      expect(tablet.events.map((e) => e.type)).toEqual(['reservation.seated']);
      expect(tablet.events[0]?.data).toMatchObject({
        reservationId: seated.reservation.id,
        visitId: seated.visit.id,
        tableIds: [v.tableIds['T4']],
      });
      // Its history: booked, then seated, at the same instant.
      const history = (
        await api().get(`/v1/venues/${v.id}/history?subjectId=${seated.reservation.id}`).set(owner.auth).expect(200)
      ).body as Array<{ from: string | null; to: string }>;
      expect(history.map((h) => [h.from, h.to])).toEqual(
        expect.arrayContaining([
          [null, 'CONFIRMED'],
          ['CONFIRMED', 'SEATED'],
        ]),
      );
      expect(history).toHaveLength(2);
      // A typed name is kept; the party leaves and the table is free again.
      await api().post(`/v1/venues/${v.id}/visits/${seated.visit.id}/clear`).set(owner.auth).send({}).expect(200);
      const named = await walkIn(v, { tableIds: [v.tableIds['T4']], partySize: 3, name: 'Ines Quay' }).expect(201);
      expect((named.body as Seated).reservation).toMatchObject({ name: 'Ines Quay', state: 'SEATED', partySize: 3 });
    } finally {
      tablet.close();
    }
  });

  it('a combination walked in with no name is named from its tables, in the order a host counts them', async () => {
    const v = await sandboxVenue(t, owner, {
      clock: T0,
      windows: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '17:00', end: '22:30', turnMinutes: 75 }],
      tables: [
        { label: 'T10', capacity: 4 },
        { label: 'T9', capacity: 2 },
      ],
    });
    await api()
      .post(`/v1/venues/${v.id}/combinations`)
      .set(owner.auth)
      .send({ tableIds: [v.tableIds['T10'], v.tableIds['T9']], capacity: 6 })
      .expect(201);
    const res = await walkIn(v, { tableIds: [v.tableIds['T10'], v.tableIds['T9']], partySize: 5 }, randomUUID()).expect(201);
    expect((res.body as Seated).reservation).toMatchObject({ name: 'Walk-in at T9 + T10', state: 'SEATED', partySize: 5 });
  });

  it('a retry with the same Idempotency-Key answers the same and seats nothing twice; another key is refused as the table is taken', async () => {
    const v = await restaurant();
    const key = randomUUID();
    const body = { tableIds: [v.tableIds['T7']], partySize: 3, name: 'Odile Marsh' };
    const first = await walkIn(v, body, key).expect(201);
    const after = await version(v);
    const again = await walkIn(v, body, key).expect(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await version(v)).toBe(after);
    const saved = await reservations(v);
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatchObject({ id: (first.body as Seated).reservation.id, state: 'SEATED' });

    // Another tap (a new key) for the same table: refused in the words a booking gets.
    const second = await walkIn(v, { tableIds: [v.tableIds['T7']], partySize: 2 }, randomUUID());
    expect(refusal(second)).toEqual({ status: 409, code: 'OCCUPANCY_CONFLICT' });
    expect(errorOf(second).message).toBe('Table T7 is occupied by Odile Marsh.');
    // The same key with another body is another request: refused, nothing seated.
    const reused = await walkIn(v, { tableIds: [v.tableIds['T4']], partySize: 3, name: 'Odile Marsh' }, key);
    expect(refusal(reused)).toEqual({ status: 422, code: 'IDEMPOTENCY_KEY_REUSED' });
    expect(await reservations(v)).toHaveLength(1);
    expect(await version(v)).toBe(after);
  });

  it('refuses as a booking and a seating would, with nothing saved: too many people, a held table, a booked one, no service', async () => {
    const v = await restaurant();
    const tooMany = await walkIn(v, { tableIds: [v.tableIds['T7']], partySize: 4 });
    expect(refusal(tooMany)).toEqual({ status: 400, code: 'VALIDATION' });
    expect(errorOf(tooMany).message).toBe('Choose one table that seats the party, or an approved combination that does.');

    // T7 offered to a waiting party: held.
    const wren = await joined(t, owner, v.id, party(2, 'Wren Hale'));
    await api()
      .post(`/v1/venues/${v.id}/offers`)
      .set(owner.auth)
      .send({ entryId: wren.entry.id, entryVersion: wren.entry.version, tableIds: [v.tableIds['T7']] })
      .expect(201);
    const held = await walkIn(v, { tableIds: [v.tableIds['T7']], partySize: 2 });
    expect(refusal(held)).toEqual({ status: 409, code: 'CONFLICT' });
    expect(errorOf(held).message).toBe('Table T7 is already planned for Wren Hale (HELD).');

    // T4 booked from 7:20 PM: a walk-in now would run into it.
    await api()
      .post(`/v1/venues/${v.id}/reservations`)
      .set(owner.auth)
      .send({ name: 'Pax Ord', partySize: 4, start: plus(40), tableIds: [v.tableIds['T4']] })
      .expect(201);
    const booked = await walkIn(v, { tableIds: [v.tableIds['T4']], partySize: 4 });
    expect(refusal(booked)).toEqual({ status: 409, code: 'CONFLICT' });
    expect(errorOf(booked).message).toBe('Table T4 is already planned for Pax Ord (CONFIRMED).');

    // After 10:30 PM no service runs.
    await moveClock(t, owner, v.id, plus(240));
    const closed = await walkIn(v, { tableIds: [v.tableIds['T7']], partySize: 2 });
    expect(refusal(closed)).toEqual({ status: 422, code: 'RULE_VIOLATION' });
    expect(errorOf(closed).message).toBe('No service window runs at that time.');

    expect((await reservations(v)).filter((r) => r.state === 'SEATED')).toEqual([]);
  });
});

describeWithServer('two api processes racing for one table need a PostgreSQL server')(
  'walk-ins racing for one table across two api processes',
  () => {
    let db: TestDatabase;
    let a: TestApp;
    let b: TestApp;
    let ownerA: Staff;
    let ownerB: Staff;

    beforeAll(async () => {
      db = await freshDatabase();
      a = await startApp({ db });
      b = await startApp({ db });
      ownerA = await signUp(a, 'walk-in-race');
      ownerB = await signIn(b, ownerA.email, ownerA.password);
    });
    afterAll(async () => {
      await a.close();
      await b.close();
      await db.drop();
    });

    it('20 rounds of two walk-ins at once on one table: exactly one is seated each round', async () => {
      const v = await liveVenue(a, ownerA, { tables: [{ label: 'T9', capacity: 5 }] });
      const seatedIds: string[] = [];
      for (let round = 0; round < 20; round++) {
        const [x, y] = await Promise.all([
          request(a.baseUrl)
            .post(`/v1/venues/${v.id}/walk-ins`)
            .set(ownerA.auth)
            .set('Idempotency-Key', randomUUID())
            .send({ tableIds: [v.tableIds['T9']], partySize: 2, name: `Round ${round} north` }),
          request(b.baseUrl)
            .post(`/v1/venues/${v.id}/walk-ins`)
            .set(ownerB.auth)
            .set('Idempotency-Key', randomUUID())
            .send({ tableIds: [v.tableIds['T9']], partySize: 4, name: `Round ${round} south` }),
        ]);
        expect([x.status, y.status].sort()).toEqual([201, 409]);
        const [won, lost] = x.status === 201 ? [x, y] : [y, x];
        const winner = won.body as Seated;
        expect(['OCCUPANCY_CONFLICT', 'CONFLICT']).toContain(errorOf(lost).code);
        if (errorOf(lost).code === 'OCCUPANCY_CONFLICT')
          expect(errorOf(lost).message).toBe(`Table T9 is occupied by ${winner.reservation.name}.`);
        seatedIds.push(winner.reservation.id);
        await request(a.baseUrl).post(`/v1/venues/${v.id}/visits/${winner.visit.id}/clear`).set(ownerA.auth).send({}).expect(200);
      }
      const all = (await request(a.baseUrl).get(`/v1/venues/${v.id}/reservations?limit=100`).set(ownerA.auth).expect(200))
        .body as Array<{ id: string; state: string }>;
      expect(all).toHaveLength(20);
      expect(all.map((r) => r.id).sort()).toEqual([...seatedIds].sort());
      expect(all.every((r) => r.state === 'COMPLETED')).toBe(true);
      expect(await violations(a.app.get<DataSource>(getDataSourceToken()))).toEqual([]);
    });
  },
);
