import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { violations } from '../support/invariants.js';
import { errorOf, joined, moveClock, party, refusal, sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';

/**
 * A manager making a table smaller while a party is offered, booked or seated at it: the party would
 * be left without seats (an offer stayed live for a party of 4 at a table changed to 2 seats). Refused
 * until they are done; a change that still seats them, or one at a free table, goes through.
 */
const T0 = '2026-10-09T00:25:00.000Z'; // 8:25 PM in Chicago, a Thursday
const plus = (minutes: number): string => new Date(Date.parse(T0) + minutes * 60_000).toISOString();

describe('a table made smaller while it is in use', () => {
  let t: TestApp;
  let owner: Staff;
  const api = (): request.Agent => t.http();
  const ds = (): DataSource => t.app.get<DataSource>(getDataSourceToken());

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'table-resize');
  });
  afterEach(async () => expect(await violations(ds())).toEqual([]));
  afterAll(() => t.close());

  // 65-minute turns, 5 PM to 11:50 PM; a six-top, a five-top and a three-top.
  const restaurant = (): Promise<Sandbox> =>
    sandboxVenue(t, owner, {
      clock: T0,
      windows: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '17:00', end: '23:50', turnMinutes: 65 }],
      tables: [
        { label: 'D6', capacity: 6 },
        { label: 'E5', capacity: 5 },
        { label: 'F3', capacity: 3 },
      ],
    });
  const resize = (v: Sandbox, label: string, capacity: number): request.Test =>
    api().patch(`/v1/venues/${v.id}/tables/${v.tableIds[label]}`).set(owner.auth).send({ capacity });
  const capacityOf = async (v: Sandbox, label: string): Promise<number> =>
    (
      (await api().get(`/v1/venues/${v.id}/tables`).set(owner.auth).expect(200)).body as Array<{
        label: string;
        capacity: number;
      }>
    ).find((x) => x.label === label)!.capacity;

  it('a live offer: refused below the party, allowed down to it', async () => {
    const v = await restaurant();
    const w = await joined(t, owner, v.id, party(4, 'Ines Varga'));
    await api()
      .post(`/v1/venues/${v.id}/offers`)
      .set(owner.auth)
      .set('Idempotency-Key', randomUUID())
      .send({ entryId: w.entry.id, entryVersion: w.entry.version, tableIds: [v.tableIds['D6']] })
      .expect(201);
    const smaller = await resize(v, 'D6', 2);
    expect(refusal(smaller)).toEqual({ status: 409, code: 'CONFLICT' });
    expect(errorOf(smaller).message).toBe(
      'Table D6 is offered to Ines Varga, a party of 4: it keeps at least 4 seats until they are done.',
    );
    expect(await capacityOf(v, 'D6')).toBe(6);
    await resize(v, 'D6', 4).expect(200);
    expect(await capacityOf(v, 'D6')).toBe(4);
    // Another table, free, is resized as before; and a label change leaves the seats alone.
    await resize(v, 'F3', 1).expect(200);
    await api().patch(`/v1/venues/${v.id}/tables/${v.tableIds['D6']}`).set(owner.auth).send({ label: 'D4' }).expect(200);
  });

  it('a booking later tonight, a seated walk-in and a party running late hold their seats; once done, the table may shrink', async () => {
    const v = await restaurant();
    const booked = await api()
      .post(`/v1/venues/${v.id}/reservations`)
      .set(owner.auth)
      .send({ name: 'Later Five', partySize: 5, start: plus(120), tableIds: [v.tableIds['E5']] })
      .expect(201);
    const bookingId =
      (booked.body as { id?: string; reservation?: { id: string } }).reservation?.id ?? (booked.body as { id: string }).id;
    expect(errorOf(await resize(v, 'E5', 3)).message).toBe(
      'Table E5 is booked for Later Five, a party of 5: it keeps at least 5 seats until they are done.',
    );
    const walk = await api()
      .post(`/v1/venues/${v.id}/walk-ins`)
      .set(owner.auth)
      .set('Idempotency-Key', randomUUID())
      .send({ tableIds: [v.tableIds['F3']], partySize: 3, name: 'Seated Three' })
      .expect(201);
    expect(errorOf(await resize(v, 'F3', 2)).message).toContain('is occupied by Seated Three, a party of 3');
    // Growing a table in use is fine.
    await resize(v, 'F3', 4).expect(200);
    await api()
      .post(`/v1/venues/${v.id}/visits/${(walk.body as { visit: { id: string } }).visit.id}/clear`)
      .set(owner.auth)
      .send({})
      .expect(200);
    await resize(v, 'F3', 2).expect(200);
    // Past the booking's whole turn and not seated: the party is running late, still expected (as
    // every offer and booking of the table is refused meanwhile), so neither smaller nor retired.
    await moveClock(t, owner, v.id, plus(120 + 66));
    expect(refusal(await resize(v, 'E5', 3))).toEqual({ status: 409, code: 'CONFLICT' });
    expect(refusal(await api().post(`/v1/venues/${v.id}/tables/${v.tableIds['E5']}/retire`).set(owner.auth).send({}))).toEqual({
      status: 409,
      code: 'CONFLICT',
    });
    // Cancelled (they called to say they are not coming): the five-top may become a three-top.
    await api().post(`/v1/venues/${v.id}/reservations/${bookingId}/cancel`).set(owner.auth).send({}).expect(200);
    await resize(v, 'E5', 3).expect(200);
  });

  it('a party on an approved combination is sized by the combination, not by each table', async () => {
    const v = await restaurant();
    await api()
      .post(`/v1/venues/${v.id}/combinations`)
      .set(owner.auth)
      .send({ tableIds: [v.tableIds['E5'], v.tableIds['F3']], capacity: 7 })
      .expect(201);
    await api()
      .post(`/v1/venues/${v.id}/reservations`)
      .set(owner.auth)
      .send({ name: 'Seven Together', partySize: 7, start: plus(30), tableIds: [v.tableIds['E5'], v.tableIds['F3']] })
      .expect(201);
    // A party of 7 at F3 alone would keep its seats; on the combination, 5 + 2 still seat them.
    await resize(v, 'F3', 2).expect(200);
    // One seat fewer and the combination approved for 7 would seat 6 (combination-seats).
    expect(refusal(await resize(v, 'E5', 4))).toEqual({ status: 409, code: 'CONFLICT' });
  });
});
