import request from 'supertest';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';
import { EVERY_DAY, joined, moveClock, party, sandboxVenue, type JoinBody, type Sandbox } from '../support/restaurant.js';

/**
 * The floor-aware quote learns turn lengths from the venue's own completed visits, per table capacity
 * and daypart: lunch visits of 90 minutes do not teach dinner anything; five dinner visits of 30 minutes
 * make a seated 2-top free 30 minutes after it was seated, not a window's turn (60) after.
 */
const DAY = '2026-06-12';
const at = (hhmm: string): string => new Date(`${DAY}T${hhmm}:00-05:00`).toISOString(); // Chicago summer time
const plus = (iso: string, minutes: number): string => new Date(new Date(iso).getTime() + minutes * 60_000).toISOString();

describe('quotes: turn lengths learned from completed visits', () => {
  let t: TestApp;
  let owner: Staff;
  let v: Sandbox;

  /** A party joins, is offered the 2-top, accepts and is seated; returns its reservation. */
  async function seat(time: string): Promise<{ reservationId: string }> {
    await moveClock(t, owner, v.id, time);
    const j = await joined(t, owner, v.id, party(2));
    const offered = await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/offers`)
      .set(owner.auth)
      .send({ entryId: j.entry.id, entryVersion: j.entry.version, tableIds: [v.tableIds['T1']] })
      .expect(201);
    const { offer, reservation } = offered.body as { offer: { id: string }; reservation: { id: string } };
    await request(t.baseUrl).post(`/v1/venues/${v.id}/offers/${offer.id}/accept`).set(owner.auth).send({}).expect(200);
    await request(t.baseUrl).post(`/v1/venues/${v.id}/reservations/${reservation.id}/seat`).set(owner.auth).send({}).expect(201);
    return { reservationId: reservation.id };
  }
  /** A whole visit: seated at `time`, cleared `minutes` later. */
  async function visit(time: string, minutes: number): Promise<void> {
    await seat(time);
    const board = (await request(t.baseUrl).get(`/v1/venues/${v.id}/board`).set(owner.auth).expect(200)).body as {
      tables: Array<{ placement: { visitId: string | null } | null }>;
    };
    const visitId = board.tables[0]?.placement?.visitId;
    await moveClock(t, owner, v.id, plus(time, minutes));
    await request(t.baseUrl).post(`/v1/venues/${v.id}/visits/${visitId}/clear`).set(owner.auth).send({}).expect(200);
  }
  const floorInputs = async (entry: JoinBody['entry']): Promise<{ turns: Record<string, unknown>; seated: number }> => {
    const rows: Array<{ floor_inputs: { turns: Record<string, unknown>; seated: number } }> = await t.app
      .get<DataSource>(getDataSourceToken())
      .query('SELECT floor_inputs FROM entry_quotes WHERE entry_id = $1', [entry.id]);
    return rows[0]?.floor_inputs ?? { turns: {}, seated: -1 };
  };

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'floor-owner');
    v = await sandboxVenue(t, owner, {
      clock: at('11:00'),
      windows: [
        { days: EVERY_DAY, start: '11:00', end: '15:00', turnMinutes: 45 },
        { days: EVERY_DAY, start: '17:00', end: '23:00', turnMinutes: 60 },
      ],
      tables: [{ label: 'T1', capacity: 2 }],
      patch: { policy: { quoteModel: 'floor' } },
    });
    for (const start of ['11:00', '12:35', '14:10']) await visit(at(start), 90);
  });
  afterAll(() => t.close());

  it('before enough dinner visits, the window’s turn (three lunch visits are not enough, and not dinner)', async () => {
    await seat(at('17:00'));
    await moveClock(t, owner, v.id, at('17:10'));
    const j = await joined(t, owner, v.id, party(2));
    // Seated 10 minutes of a 60-minute turn: free in 50.
    expect(j.quotedWaitMinutes).toBe(50);
    expect((await floorInputs(j.entry)).turns).toEqual({ '2': { minutes: 60, source: 'window' } });
    await request(t.baseUrl).post(`/v1/venues/${v.id}/queue/${j.entry.id}/cancel`).set(owner.auth).send({}).expect(200);
  });

  it('the median of enough recent dinner visits; the 90-minute lunch visits are left out', async () => {
    // Clear the 17:00 party after 30 minutes, then four more 30-minute visits (five in all), one of 34.
    const board = (await request(t.baseUrl).get(`/v1/venues/${v.id}/board`).set(owner.auth).expect(200)).body as {
      tables: Array<{ placement: { visitId: string | null } | null }>;
    };
    await moveClock(t, owner, v.id, at('17:30'));
    await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/visits/${board.tables[0]?.placement?.visitId}/clear`)
      .set(owner.auth)
      .send({})
      .expect(200);
    for (const [start, minutes] of [
      ['17:31', 30],
      ['18:02', 34],
      ['18:37', 30],
      ['19:08', 30],
    ] as const)
      await visit(at(start), minutes);
    await seat(at('19:40'));
    await moveClock(t, owner, v.id, at('19:50'));
    const j = await joined(t, owner, v.id, party(2));
    // Seated 10 minutes of a learned 30-minute turn: free in 20 (the window would say 50).
    expect(j.quotedWaitMinutes).toBe(20);
    expect(j.quote).toBe('position 1 (0 ahead), quoted ~20 min (approx)');
    expect(await floorInputs(j.entry)).toMatchObject({
      seated: 1,
      turns: { '2': { minutes: 30, source: 'learned', visits: 5 } },
    });
  });
});
