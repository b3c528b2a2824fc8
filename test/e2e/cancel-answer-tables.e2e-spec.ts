import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { EVERY_DAY, joined, party, sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';

/**
 * A cancellation's answer names the tables of the reservation it cancelled, as every other answer
 * and the reservation list do: removing a party that had accepted its table (`cancelledBooking`),
 * a No-show (the reservation's cancel) and its repeat. They answered `tableIds: []`, so a screen (or
 * another program) could not say which table was free again. A booking moved after its acceptance
 * names the tables it was moved to.
 */
interface Reservation {
  id: string;
  state: string;
  tableIds: string[];
}

describe('a cancellation names the tables it freed', () => {
  let t: TestApp;
  let owner: Staff;
  const api = (): request.Agent => t.http();

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'cancel-tables');
  });
  afterAll(() => t.close());

  /** A Porto sandbox at 20:10 (95-minute turns), tables P3, P5 and P6, a party of 3 offered P5 and accepted. */
  const accepted = async (): Promise<{ v: Sandbox; entryId: string; reservationId: string }> => {
    const v = await sandboxVenue(t, owner, {
      timeZone: 'Europe/Lisbon',
      clock: '2026-11-19T20:10:00Z',
      windows: [{ days: EVERY_DAY, start: '18:30', end: '23:45', turnMinutes: 95 }],
      tables: [
        { label: 'P3', capacity: 3 },
        { label: 'P5', capacity: 5 },
        { label: 'P6', capacity: 6 },
      ],
    });
    const w = await joined(t, owner, v.id, party(3, 'Inês Barros'));
    const o = (
      await api()
        .post(`/v1/venues/${v.id}/offers`)
        .set(owner.auth)
        .set('Idempotency-Key', randomUUID())
        .send({ entryId: w.entry.id, entryVersion: w.entry.version, tableIds: [v.tableIds.P5] })
        .expect(201)
    ).body as { offer: { id: string }; reservation: Reservation };
    await api().post(`/v1/venues/${v.id}/offers/${o.offer.id}/accept`).set(owner.auth).send({}).expect(200);
    return { v, entryId: w.entry.id, reservationId: o.reservation.id };
  };

  const listed = async (v: Sandbox, id: string): Promise<Reservation | undefined> =>
    ((await api().get(`/v1/venues/${v.id}/reservations`).set(owner.auth).expect(200)).body as Reservation[]).find(
      (r) => r.id === id,
    );

  it('removing a party that accepted its table names the table freed, the one it was moved to after a move', async () => {
    const { v, entryId, reservationId } = await accepted();
    const removed = await api().post(`/v1/venues/${v.id}/queue/${entryId}/cancel`).set(owner.auth).expect(200);
    expect((removed.body as { cancelledBooking?: Reservation }).cancelledBooking).toMatchObject({
      id: reservationId,
      state: 'CANCELLED',
      tableIds: [v.tableIds.P5],
    });
    expect((await listed(v, reservationId))?.tableIds).toEqual([v.tableIds.P5]);

    const moved = await accepted();
    await api()
      .post(`/v1/venues/${moved.v.id}/reservations/${moved.reservationId}/move`)
      .set(owner.auth)
      .send({ tableIds: [moved.v.tableIds.P6] })
      .expect(200);
    const left = await api().post(`/v1/venues/${moved.v.id}/queue/${moved.entryId}/cancel`).set(owner.auth).expect(200);
    expect((left.body as { cancelledBooking?: Reservation }).cancelledBooking?.tableIds).toEqual([moved.v.tableIds.P6]);
  });

  it('a No-show names the table freed, and so does its repeat', async () => {
    const { v, reservationId } = await accepted();
    const first = await api().post(`/v1/venues/${v.id}/reservations/${reservationId}/cancel`).set(owner.auth).expect(200);
    expect(first.body).toMatchObject({
      released: true,
      reservation: { id: reservationId, state: 'CANCELLED', tableIds: [v.tableIds.P5] },
    });
    const again = await api().post(`/v1/venues/${v.id}/reservations/${reservationId}/cancel`).set(owner.auth).expect(200);
    expect(again.body).toMatchObject({
      released: false,
      reservation: { id: reservationId, state: 'CANCELLED', tableIds: [v.tableIds.P5] },
    });
  });

  it('a table offer cancelled by its reservation names the table', async () => {
    const v = await sandboxVenue(t, owner, {
      timeZone: 'Europe/Lisbon',
      clock: '2026-11-19T20:10:00Z',
      windows: [{ days: EVERY_DAY, start: '18:30', end: '23:45', turnMinutes: 95 }],
      tables: [{ label: 'P3', capacity: 3 }],
    });
    const w = await joined(t, owner, v.id, party(2, 'Rui Sousa'));
    const o = (
      await api()
        .post(`/v1/venues/${v.id}/offers`)
        .set(owner.auth)
        .set('Idempotency-Key', randomUUID())
        .send({ entryId: w.entry.id, entryVersion: w.entry.version, tableIds: [v.tableIds.P3] })
        .expect(201)
    ).body as { reservation: Reservation };
    const cancelled = await api().post(`/v1/venues/${v.id}/reservations/${o.reservation.id}/cancel`).set(owner.auth).expect(200);
    expect((cancelled.body as { reservation: Reservation }).reservation).toMatchObject({
      state: 'CANCELLED',
      tableIds: [v.tableIds.P3],
    });
  });
});
