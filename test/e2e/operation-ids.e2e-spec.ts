import request from 'supertest';
import { joined, party, sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';

/**
 * Each command's history rows carry an operation id of their own (ARCHITECTURE.md, invariant 5: the
 * operation id says which command wrote a row). A sandbox venue's clock stands still until a manager
 * moves it, so two commands on one record can run at the same simulated instant: an id made from the
 * record and that instant named both.
 */
const T0 = '2026-03-14T21:20:00.000Z'; // 4:20 PM in Chicago, a Saturday
const plus = (minutes: number): string => new Date(Date.parse(T0) + minutes * 60_000).toISOString();

interface HistoryRow {
  at: string;
  subjectId: string;
  from: string | null;
  to: string;
  operationId: string;
  reason: string | null;
}

describe('operation ids of commands at one simulated instant', () => {
  let t: TestApp;
  let owner: Staff;
  let v: Sandbox;
  const api = (): request.Agent => t.http();

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'operation-ids-owner');
    v = await sandboxVenue(t, owner, {
      clock: T0,
      windows: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '16:00', end: '22:30', turnMinutes: 75 }],
      tables: [
        { label: 'K1', capacity: 3 },
        { label: 'K2', capacity: 3 },
        { label: 'K3', capacity: 3 },
      ],
    });
  });
  afterAll(() => t.close());

  const history = async (subjectId: string): Promise<HistoryRow[]> =>
    (await api().get(`/v1/venues/${v.id}/history?subjectId=${subjectId}`).set(owner.auth).expect(200)).body as HistoryRow[];

  it('two moves of one booking, the clock frozen: each move has its own operation id', async () => {
    const booking = (
      await api()
        .post(`/v1/venues/${v.id}/reservations`)
        .set(owner.auth)
        .send({ name: 'Orla Twice', partySize: 3, start: plus(40), tableIds: [v.tableIds['K1']] })
        .expect(201)
    ).body as { id: string };
    for (const label of ['K2', 'K3']) {
      await api()
        .post(`/v1/venues/${v.id}/reservations/${booking.id}/move`)
        .set(owner.auth)
        .send({ tableIds: [v.tableIds[label]] })
        .expect(200);
    }
    const moves = (await history(booking.id)).filter((h) => h.reason?.startsWith('moved from'));
    expect(moves.map((h) => h.at)).toEqual([T0, T0]);
    expect(moves.map((h) => h.reason).sort()).toEqual(
      [`moved from ${v.tableIds['K1']} to ${v.tableIds['K2']}`, `moved from ${v.tableIds['K2']} to ${v.tableIds['K3']}`].sort(),
    );
    expect(new Set(moves.map((h) => h.operationId)).size).toBe(2);
    for (const h of moves) expect(h.operationId).toMatch(new RegExp(`^move-${booking.id}-`));
  });

  it('two token replacements of one entry, the clock frozen: each has its own operation id', async () => {
    const entry = await joined(t, owner, v.id, party(2, 'Tomas Twice'));
    for (let i = 0; i < 2; i++) {
      await api().post(`/v1/venues/${v.id}/queue/${entry.entry.id}/token`).set(owner.auth).send({}).expect(201);
    }
    const replaced = (await history(entry.entry.id)).filter((h) => h.reason === 'queue token replaced');
    expect(replaced.map((h) => h.at)).toEqual([T0, T0]);
    expect(new Set(replaced.map((h) => h.operationId)).size).toBe(2);
    for (const h of replaced) expect(h.operationId).toMatch(new RegExp(`^replace-token-${entry.entry.id}-`));
  });
});
