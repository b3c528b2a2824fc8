import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { getDataSourceToken } from '@nestjs/typeorm';
import { sqlState, SQLSTATE, violatedConstraint } from '@hostboard/core';
import type { DataSource } from 'typeorm';
import { violations } from '../support/invariants.js';
import { errorOf, joined, moveClock, party, refusal, sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';

/**
 * A party that arrives before its booking and is seated at once sits at its tables from that
 * moment: its turn moves to start now (keeping its length), so the board reads the table occupied,
 * the counts agree, no booking, move or offer lands on it while the party sits there, and the
 * exclusion constraint protects the interval the party really occupies.
 */
const T0 = '2026-10-09T23:00:00.000Z'; // 6 PM in Chicago, a Friday
const plus = (minutes: number): string => new Date(Date.parse(T0) + minutes * 60_000).toISOString();

interface Board {
  counts: { tables: number; free: number; held: number; booked: number; occupied: number };
  tables: Array<{
    label: string;
    state: string;
    until: string | null;
    placement: { reservationId: string; state: string; slot: { start: string; end: string }; visitId: string | null } | null;
  }>;
}
interface Reservation {
  id: string;
  state: string;
  tableIds: string[];
}

describe('a party seated before its booking', () => {
  let t: TestApp;
  let owner: Staff;
  const api = (): request.Agent => t.http();
  const ds = (): DataSource => t.app.get<DataSource>(getDataSourceToken());

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'early-seat-owner');
  });
  afterEach(async () => expect(await violations(ds())).toEqual([]));
  afterAll(() => t.close());

  // The sample's 90-minute turns, 5 PM to 11 PM.
  const restaurant = (): Promise<Sandbox> =>
    sandboxVenue(t, owner, {
      clock: T0,
      windows: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '17:00', end: '23:00', turnMinutes: 90 }],
      tables: [
        { label: 'T1', capacity: 2 },
        { label: 'T2', capacity: 4 },
        { label: 'T3', capacity: 4 },
      ],
    });

  const book = (v: Sandbox, name: string, start: string, table: string): request.Test =>
    api()
      .post(`/v1/venues/${v.id}/reservations`)
      .set(owner.auth)
      .send({ name, partySize: 2, start, tableIds: [v.tableIds[table]] });
  const booked = async (v: Sandbox, name: string, start: string, table: string): Promise<Reservation> =>
    (await book(v, name, start, table).expect(201)).body as Reservation;
  const seat = (v: Sandbox, id: string): request.Test =>
    api().post(`/v1/venues/${v.id}/reservations/${id}/seat`).set(owner.auth).send({});
  const move = (v: Sandbox, id: string, table: string): request.Test =>
    api()
      .post(`/v1/venues/${v.id}/reservations/${id}/move`)
      .set(owner.auth)
      .send({ tableIds: [v.tableIds[table]] });
  const board = async (v: Sandbox): Promise<Board> =>
    (await api().get(`/v1/venues/${v.id}/board`).set(owner.auth).expect(200)).body as Board;
  const counts = async (v: Sandbox): Promise<Board['counts']> =>
    (await api().get(`/v1/venues/${v.id}/counts`).set(owner.auth).expect(200)).body as Board['counts'];
  const reservations = async (v: Sandbox): Promise<Reservation[]> =>
    (await api().get(`/v1/venues/${v.id}/reservations`).set(owner.auth).expect(200)).body as Reservation[];

  it('occupies its table from now: the board and counts say so, and no booking, move or offer lands on it', async () => {
    const v = await restaurant();
    // Booked for 8 PM; Bo's booking on T2 starts in half an hour (the table to move onto T1).
    const ann = await booked(v, 'Ann Early', plus(120), 'T1');
    const bo = await booked(v, 'Bo Soon', plus(30), 'T2');

    // Ann arrives at 6 PM and the host seats her now.
    await seat(v, ann.id).expect(201);
    const b = await board(v);
    expect(b.tables.find((x) => x.label === 'T1')).toMatchObject({
      state: 'occupied',
      until: T0,
      placement: { reservationId: ann.id, state: 'SEATED', slot: { start: T0, end: plus(90) } },
    });
    expect(b.counts).toEqual({ tables: 3, free: 1, held: 0, booked: 1, occupied: 1 });
    expect(await counts(v)).toEqual(b.counts);
    const history = (await api().get(`/v1/venues/${v.id}/history?subjectId=${ann.id}`).set(owner.auth).expect(200))
      .body as Array<{
      to: string;
      reason: string | null;
    }>;
    expect(history.find((h) => h.to === 'SEATED')?.reason).toBe(`seated early: turn moved from ${plus(120)} to ${T0}`);

    // A booking starting in a minute is refused the way an offer is: T1 is occupied by Ann.
    const walkIn = await book(v, 'Walk-in', plus(1), 'T1');
    expect(refusal(walkIn)).toEqual({ status: 409, code: 'OCCUPANCY_CONFLICT' });
    expect(errorOf(walkIn).message).toBe('Table T1 is occupied by Ann Early.');
    expect(errorOf(walkIn).details).toMatchObject({ placement: { label: 'T1', reservationId: ann.id, state: 'SEATED' } });
    // So is one for later that her turn (6:00–7:30 PM) runs into.
    const overlapping = await book(v, 'Seven PM', plus(60), 'T1');
    expect(refusal(overlapping)).toEqual({ status: 409, code: 'OCCUPANCY_CONFLICT' });
    expect(errorOf(overlapping).message).toBe('Table T1 is occupied by Ann Early.');
    // A move onto T1, and an offer of it.
    const moved = await move(v, bo.id, 'T1');
    expect(refusal(moved)).toEqual({ status: 409, code: 'OCCUPANCY_CONFLICT' });
    expect(errorOf(moved).message).toBe('Table T1 is occupied by Ann Early.');
    const cy = await joined(t, owner, v.id, party(2, 'Cy Walk'));
    const offered = await api()
      .post(`/v1/venues/${v.id}/offers`)
      .set(owner.auth)
      .send({ entryId: cy.entry.id, entryVersion: cy.entry.version, tableIds: [v.tableIds['T1']] });
    expect(refusal(offered)).toEqual({ status: 409, code: 'OCCUPANCY_CONFLICT' });
    // Nothing refused was saved, and Bo kept his table.
    const saved = await reservations(v);
    expect(saved).toHaveLength(2);
    expect(saved.find((r) => r.id === ann.id)).toMatchObject({ state: 'SEATED', tableIds: [v.tableIds['T1']] });
    expect(saved.find((r) => r.id === bo.id)).toMatchObject({ state: 'CONFIRMED', tableIds: [v.tableIds['T2']] });

    // Her turn moved rather than grew: the 8 PM she had booked is free for someone else.
    await book(v, 'Eight PM', plus(120), 'T1').expect(201);
    // She leaves: T1 is free now.
    const visitId = b.tables.find((x) => x.label === 'T1')?.placement?.visitId;
    await api().post(`/v1/venues/${v.id}/visits/${visitId}/clear`).set(owner.auth).send({}).expect(200);
    expect(await counts(v)).toEqual({ tables: 3, free: 2, held: 0, booked: 1, occupied: 0 });
    await book(v, 'Walk-in', plus(1), 'T1').expect(201);
  });

  it('a booking for after the seated party’s turn moves onto its table, as a new one would be booked there; a seated party does not', async () => {
    const v = await restaurant();
    const ann = await booked(v, 'Ann Early', plus(120), 'T1');
    const late = await booked(v, 'Nine PM', plus(180), 'T3');
    const dee = await booked(v, 'Dee Now', plus(0), 'T2');
    await seat(v, ann.id).expect(201);
    await seat(v, dee.id).expect(201);
    // Ann sits at T1 from 6:00 to 7:30 PM: the 9 PM party may be moved there, as it may be booked there.
    const moved = await move(v, late.id, 'T1').expect(200);
    expect((moved.body as { reservation: Reservation }).reservation.tableIds).toEqual([v.tableIds['T1']]);
    // Dee, seated at T2 now, cannot be moved onto T1 while Ann sits there.
    const seatedMove = await move(v, dee.id, 'T1');
    expect(refusal(seatedMove)).toEqual({ status: 409, code: 'OCCUPANCY_CONFLICT' });
    expect(errorOf(seatedMove).message).toBe('Table T1 is occupied by Ann Early.');
    // T1 is booked from 9 PM now: a second move there for that turn is refused as a booking would be.
    const other = await booked(v, 'Also Nine', plus(180), 'T3');
    expect(refusal(await move(v, other.id, 'T1'))).toEqual(refusal(await book(v, 'Third Nine', plus(180), 'T1')));
  });

  it('is refused while its earlier turn would run into another booking or a party still expected, and nothing changes', async () => {
    const v = await restaurant();
    // Cy has T1 at 6:30 PM (until 8 PM); Ann has it at 8 PM.
    const cy = await booked(v, 'Cy Soon', plus(30), 'T1');
    const ann = await booked(v, 'Ann Early', plus(120), 'T1');
    const refused = await seat(v, ann.id);
    expect(refusal(refused)).toEqual({ status: 409, code: 'CONFLICT' });
    expect(errorOf(refused).message).toBe('Table T1 is already planned for Cy Soon (CONFIRMED).');
    expect((await reservations(v)).find((r) => r.id === ann.id)?.state).toBe('CONFIRMED');
    expect((await board(v)).tables.find((x) => x.label === 'T1')).toMatchObject({
      state: 'booked',
      placement: { reservationId: cy.id, state: 'CONFIRMED' },
    });

    // The host moves Ann to a free table first, then seats her there.
    await move(v, ann.id, 'T3').expect(200);
    await seat(v, ann.id).expect(201);
    const b = await board(v);
    expect(b.tables.map((x) => [x.label, x.state])).toEqual([
      ['T1', 'booked'],
      ['T2', 'free'],
      ['T3', 'occupied'],
    ]);

    // Dee confirmed T2 for 6 PM; at 7:45 PM her turn has ended and she is still expected: the table
    // is kept for her, so Eve, booked for 9 PM, cannot sit there early.
    const dee = await booked(v, 'Dee Late', T0, 'T2');
    const eve = await booked(v, 'Eve Early', plus(180), 'T2');
    await moveClock(t, owner, v.id, plus(105));
    const kept = await seat(v, eve.id);
    expect(refusal(kept)).toEqual({ status: 409, code: 'CONFLICT' });
    expect(errorOf(kept).message).toBe(
      'Table T2 is kept for Dee Late, who confirmed and has not been seated yet. Seat them or mark a no-show first.',
    );
    // Dee is a no-show: Eve sits down.
    await api().post(`/v1/venues/${v.id}/reservations/${dee.id}/cancel`).set(owner.auth).send({}).expect(200);
    await seat(v, eve.id).expect(201);
  });

  it('the database refuses a second party on the interval the early party occupies', async () => {
    const v = await restaurant();
    const ann = await booked(v, 'Ann Early', plus(120), 'T1');
    await seat(v, ann.id).expect(201);

    // A placement written past every check (a code path that forgot them) still cannot overlap Ann's turn.
    const sneak = ds().transaction(async (m) => {
      const id = randomUUID();
      await m.query(
        `INSERT INTO reservations (id, venue_id, kind, name, party_size, state, created_at, updated_at)
         VALUES ($1, $2, 'tables', 'Sneak', 2, 'CONFIRMED', $3, $3)`,
        [id, v.id, T0],
      );
      await m.query(
        `INSERT INTO reservation_tables (reservation_id, table_id, venue_id, slot) VALUES ($1, $2, $3, tstzrange($4, $5))`,
        [id, v.tableIds['T1'], v.id, plus(1), plus(91)],
      );
    });
    await expect(sneak).rejects.toThrow(/reservation_tables_no_overlap/);
  });

  it('the database refuses a visit opened before its tables are taken, however it is written', async () => {
    const v = await restaurant();
    const dee = await booked(v, 'Dee Later', plus(120), 'T2');
    // Seating Dee without moving her turn: the visit would open two hours before her tables' slot.
    const unmoved = await ds()
      .transaction(async (m) => {
        await m.query(`UPDATE reservations SET state = 'SEATED' WHERE id = $1`, [dee.id]);
        await m.query(`INSERT INTO visits (id, venue_id, reservation_id, opened_at) VALUES ($1, $2, $3, $4)`, [
          randomUUID(),
          v.id,
          dee.id,
          T0,
        ]);
      })
      .then(
        () => null,
        (err: unknown) => err,
      );
    expect({ state: sqlState(unmoved), constraint: violatedConstraint(unmoved) }).toEqual({
      state: SQLSTATE.checkViolation,
      constraint: 'seated_tables_taken_from_seating',
    });
    expect((await reservations(v)).find((r) => r.id === dee.id)?.state).toBe('CONFIRMED');

    // Seated through the api, her turn starts now; putting it back to 8 PM is refused the same way.
    await seat(v, dee.id).expect(201);
    const pushedBack = await ds()
      .query(`UPDATE reservation_tables SET slot = tstzrange($2, $3) WHERE reservation_id = $1`, [dee.id, plus(120), plus(210)])
      .then(
        () => null,
        (err: unknown) => err,
      );
    expect(violatedConstraint(pushedBack)).toBe('seated_tables_taken_from_seating');
  });
});
