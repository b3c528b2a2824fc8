import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { violations } from '../support/invariants.js';
import { joined, moveClock, party, refusal, sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { addMember, signUp, type Staff } from '../support/staff.js';

/**
 * A walk-in (`POST …/walk-ins`) under attack: another venue's tables, the same table twice, a
 * combination nobody approved, a host of one venue at another, no session, hostile names, the end of
 * service, and an offer of the same table racing it. Every refusal saves nothing.
 */
const T0 = '2026-11-14T01:10:00.000Z'; // 7:10 PM in Chicago, a Friday
const plus = (minutes: number): string => new Date(Date.parse(T0) + minutes * 60_000).toISOString();

interface Seated {
  reservation: { id: string; state: string; name: string; partySize: number; tableIds: string[]; slot?: unknown };
  visit: { id: string };
}

describe('walk-ins under attack', () => {
  let t: TestApp;
  let owner: Staff;
  const api = (): request.Agent => t.http();
  const ds = (): DataSource => t.app.get<DataSource>(getDataSourceToken());

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'walk-in-attack');
  });
  afterEach(async () => expect(await violations(ds())).toEqual([]));
  afterAll(() => t.close());

  // 70-minute turns, 5 PM to 10:40 PM; a seven-top, a four-top and a two-top.
  const restaurant = (name?: string): Promise<Sandbox> =>
    sandboxVenue(t, owner, {
      clock: T0,
      ...(name ? { name } : {}),
      windows: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '17:00', end: '22:40', turnMinutes: 70 }],
      tables: [
        { label: 'A7', capacity: 7 },
        { label: 'B4', capacity: 4 },
        { label: 'C2', capacity: 2 },
      ],
    });
  const walkIn = (v: Sandbox, body: Record<string, unknown>, who: Staff | null = owner): request.Test => {
    const req = api().post(`/v1/venues/${v.id}/walk-ins`).set('Idempotency-Key', randomUUID());
    return (who ? req.set(who.auth) : req).send(body);
  };
  const reservations = async (v: Sandbox): Promise<Array<{ id: string; state: string; name: string }>> =>
    (await api().get(`/v1/venues/${v.id}/reservations`).set(owner.auth).expect(200)).body as Array<{
      id: string;
      state: string;
      name: string;
    }>;

  it("refuses another venue's tables, the same table twice, an unapproved combination, with nothing saved", async () => {
    const a = await restaurant();
    const b = await restaurant();
    const foreign = await walkIn(a, { tableIds: [b.tableIds['B4']!], partySize: 3 });
    expect([400, 404]).toContain(foreign.status);
    const mixed = await walkIn(a, { tableIds: [a.tableIds['C2']!, b.tableIds['B4']!], partySize: 5 });
    expect([400, 404]).toContain(mixed.status);
    const twice = await walkIn(a, { tableIds: [a.tableIds['B4']!, a.tableIds['B4']!], partySize: 7 });
    expect(refusal(twice)).toEqual({ status: 400, code: 'VALIDATION' });
    const unapproved = await walkIn(a, { tableIds: [a.tableIds['B4']!, a.tableIds['C2']!], partySize: 6 });
    expect(refusal(unapproved)).toEqual({ status: 400, code: 'VALIDATION' });
    for (const body of [
      { tableIds: [], partySize: 2 },
      { tableIds: a.tableIds['C2'], partySize: 2 },
      { tableIds: [a.tableIds['C2']], partySize: 0 },
      { tableIds: [a.tableIds['C2']], partySize: 1.5 },
      { tableIds: [a.tableIds['C2']], partySize: '2' },
      { tableIds: [a.tableIds['A7']], partySize: 201 },
      { tableIds: ['not-a-uuid'], partySize: 2 },
    ]) {
      const res = await walkIn(a, body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
    }
    expect(await reservations(a)).toEqual([]);
    expect(await reservations(b)).toEqual([]);
  });

  it('a host of one venue cannot seat at another; a signed-out caller is refused', async () => {
    const a = await restaurant();
    const b = await restaurant();
    const hostA = await addMember(t, a.id, owner, 'host');
    await walkIn(a, { tableIds: [a.tableIds['C2']!], partySize: 2 }, hostA).expect(201);
    const across = await walkIn(b, { tableIds: [b.tableIds['C2']!], partySize: 2 }, hostA);
    expect([403, 404]).toContain(across.status);
    const anon = await walkIn(b, { tableIds: [b.tableIds['C2']!], partySize: 2 }, null);
    expect(anon.status).toBe(401);
    expect(await reservations(b)).toEqual([]);
  });

  it('hostile names: control characters and 10k characters refused, a right-to-left name kept, a blank one takes the default', async () => {
    const v = await restaurant();
    for (const name of ['Bell\u0007Ringer', 'Line\nBreak', 'x'.repeat(10_000), 'Null\u0000Byte']) {
      const res = await walkIn(v, { tableIds: [v.tableIds['C2']!], partySize: 2, name });
      expect({ name: name.slice(0, 20), status: res.status }).toEqual({ name: name.slice(0, 20), status: 400 });
    }
    const rtl = await walkIn(v, { tableIds: [v.tableIds['C2']!], partySize: 2, name: 'שירה כהן' }).expect(201);
    expect((rtl.body as Seated).reservation.name).toBe('שירה כהן');
    const override = await walkIn(v, { tableIds: [v.tableIds['A7']!], partySize: 5, name: 'Evil\u202Egnp.exe' });
    expect(refusal(override)).toEqual({ status: 400, code: 'VALIDATION' });
    // A name of only spaces is no name: the party is seated under the default, as with none sent.
    const blank = await walkIn(v, { tableIds: [v.tableIds['B4']!], partySize: 3, name: '     ' }).expect(201);
    expect((blank.body as Seated).reservation).toMatchObject({ name: 'Walk-in at B4', state: 'SEATED', partySize: 3 });
    // Padding around a name is dropped, the name kept.
    const padded = await walkIn(v, { tableIds: [v.tableIds['A7']!], partySize: 6, name: '  Teo Brandt ' }).expect(201);
    expect((padded.body as Seated).reservation.name).toBe('Teo Brandt');
    expect((await reservations(v)).map((r) => r.name).sort()).toEqual(['Teo Brandt', 'Walk-in at B4', 'שירה כהן']);
  });

  it('a booking later in the evening: a walk-in whose turn would reach it is refused; one whose turn ends before it is seated', async () => {
    const v = await restaurant();
    // C2 booked from 8:50 PM (+100 min): a 70-minute turn from 7:10 PM ends at 8:20 PM, before it.
    await api()
      .post(`/v1/venues/${v.id}/reservations`)
      .set(owner.auth)
      .send({ name: 'Lior Vance', partySize: 2, start: plus(100), tableIds: [v.tableIds['C2']] })
      .expect(201);
    await walkIn(v, { tableIds: [v.tableIds['C2']!], partySize: 2 }).expect(201);
    // B4 booked from 8:15 PM (+65): the turn to 8:20 PM runs into it.
    await api()
      .post(`/v1/venues/${v.id}/reservations`)
      .set(owner.auth)
      .send({ name: 'Mara Quill', partySize: 3, start: plus(65), tableIds: [v.tableIds['B4']] })
      .expect(201);
    const into = await walkIn(v, { tableIds: [v.tableIds['B4']!], partySize: 3 });
    expect(refusal(into)).toEqual({ status: 409, code: 'CONFLICT' });
  });

  it('near the end of service the turn still runs its length; after the end nothing is seated', async () => {
    const v = await restaurant();
    await moveClock(t, owner, v.id, plus(200)); // 10:30 PM
    const late = await walkIn(v, { tableIds: [v.tableIds['B4']!], partySize: 2 }).expect(201);
    // As a booking from now would: the window is running, so the turn runs its 70 minutes past the end.
    expect((late.body as Seated).reservation.state).toBe('SEATED');
    await moveClock(t, owner, v.id, plus(211)); // 10:41 PM
    const closed = await walkIn(v, { tableIds: [v.tableIds['C2']!], partySize: 2 });
    expect(refusal(closed)).toEqual({ status: 422, code: 'RULE_VIOLATION' });
  });

  it("one Idempotency-Key sent to a booking, then to a walk-in, then to another venue's walk-in: never another request's answer", async () => {
    const a = await restaurant();
    const b = await restaurant();
    const key = randomUUID();
    const booked = await api()
      .post(`/v1/venues/${a.id}/reservations`)
      .set(owner.auth)
      .set('Idempotency-Key', key)
      .send({ name: 'Orla Penn', partySize: 2, start: plus(150), tableIds: [a.tableIds['C2']] })
      .expect(201);
    const walk = await api()
      .post(`/v1/venues/${a.id}/walk-ins`)
      .set(owner.auth)
      .set('Idempotency-Key', key)
      .send({ tableIds: [a.tableIds['B4']], partySize: 3 });
    expect(walk.headers['idempotent-replayed']).toBeUndefined();
    expect(walk.body).not.toEqual(booked.body);
    const across = await api()
      .post(`/v1/venues/${b.id}/walk-ins`)
      .set(owner.auth)
      .set('Idempotency-Key', key)
      .send({ tableIds: [b.tableIds['B4']], partySize: 3 });
    expect(across.headers['idempotent-replayed']).toBeUndefined();
    expect(JSON.stringify(across.body)).not.toContain(a.tableIds['B4']!);
    // At the same venue the key is refused as reused; at another venue it is that venue's own request.
    expect(refusal(walk)).toEqual({ status: 422, code: 'IDEMPOTENCY_KEY_REUSED' });
    expect(across.status).toBe(201);
    expect((await reservations(a)).map((r) => r.name)).toEqual(['Orla Penn']);
  });

  it('a walk-in and a retirement of the same table sent at once: never a party seated at a retired table', async () => {
    for (let round = 0; round < 5; round++) {
      const v = await restaurant();
      const [walk, retire] = await Promise.all([
        walkIn(v, { tableIds: [v.tableIds['B4']!], partySize: 4, name: `Round ${round} walker` }),
        api().post(`/v1/venues/${v.id}/tables/${v.tableIds['B4']}/retire`).set(owner.auth).send({}),
      ]);
      expect({ round, both: walk.status === 201 && retire.status < 300 }).toEqual({ round, both: false });
      expect([walk.status, retire.status].filter((s) => s < 300)).toHaveLength(1);
    }
  });

  it('a walk-in ends as the two-step path (book, then seat) did: the same states and history, and the day report counts neither', async () => {
    const v = await restaurant();
    const w = await walkIn(v, { tableIds: [v.tableIds['B4']!], partySize: 3, name: 'Walk Probe' }).expect(201);
    const booked = await api()
      .post(`/v1/venues/${v.id}/reservations`)
      .set(owner.auth)
      .send({ name: 'Two Step', partySize: 2, start: T0, tableIds: [v.tableIds['C2']] })
      .expect(201);
    const rid =
      (booked.body as { id?: string; reservation?: { id: string } }).reservation?.id ?? (booked.body as { id: string }).id;
    const seat = await api().post(`/v1/venues/${v.id}/reservations/${rid}/seat`).set(owner.auth).expect(201);
    await moveClock(t, owner, v.id, plus(50));
    await api()
      .post(`/v1/venues/${v.id}/visits/${(w.body as Seated).visit.id}/clear`)
      .set(owner.auth)
      .send({})
      .expect(200);
    await api()
      .post(`/v1/venues/${v.id}/visits/${(seat.body as { visit: { id: string } }).visit.id}/clear`)
      .set(owner.auth)
      .send({})
      .expect(200);
    const steps = async (id: string): Promise<string[]> =>
      (
        (await api().get(`/v1/venues/${v.id}/history?subjectId=${id}`).set(owner.auth).expect(200)).body as Array<{
          from: string | null;
          to: string;
        }>
      )
        .map((h) => `${h.from}>${h.to}`)
        .sort();
    expect(await steps((w.body as Seated).reservation.id)).toEqual(await steps(rid));
    expect((await reservations(v)).map((r) => [r.name, r.state]).sort()).toEqual([
      ['Two Step', 'COMPLETED'],
      ['Walk Probe', 'COMPLETED'],
    ]);
    // The day report is about queue parties: a party seated without joining is in neither path's count.
    const rep = await api().get(`/v1/venues/${v.id}/reports/days?from=2026-11-13&to=2026-11-13`).set(owner.auth).expect(200);
    expect((rep.body as { days: unknown[]; totals: { joined: number } }).days).toEqual([]);
    const board = await api().get(`/v1/venues/${v.id}/board`).set(owner.auth).expect(200);
    expect((board.body as { counts: unknown }).counts).toEqual({ tables: 3, free: 3, held: 0, booked: 0, occupied: 0 });
  });

  it('a walk-in and an offer of the same table sent at once: exactly one has the table', async () => {
    const v = await restaurant();
    for (let round = 0; round < 8; round++) {
      const w = await joined(t, owner, v.id, party(2, `Round ${round} waiter`));
      const [offer, walk] = await Promise.all([
        api()
          .post(`/v1/venues/${v.id}/offers`)
          .set(owner.auth)
          .set('Idempotency-Key', randomUUID())
          .send({ entryId: w.entry.id, entryVersion: w.entry.version, tableIds: [v.tableIds['C2']] }),
        walkIn(v, { tableIds: [v.tableIds['C2']!], partySize: 2, name: `Round ${round} walker` }),
      ]);
      expect([offer.status, walk.status].sort()).toEqual([201, 409]);
      if (walk.status === 201) {
        await api()
          .post(`/v1/venues/${v.id}/visits/${(walk.body as Seated).visit.id}/clear`)
          .set(owner.auth)
          .send({})
          .expect(200);
      } else {
        const o = (offer.body as { offer: { id: string } }).offer;
        expect(refusal(walk).code).toBe('CONFLICT');
        await api().post(`/v1/venues/${v.id}/offers/${o.id}/withdraw`).set(owner.auth).send({}).expect(200);
      }
    }
    const all = await reservations(v);
    expect(all.filter((r) => r.state === 'SEATED' || r.state === 'HELD')).toEqual([]);
  });
});
