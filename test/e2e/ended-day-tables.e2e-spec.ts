import request from 'supertest';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { BoardClient, waitFor } from '../support/board-client.js';
import { AppConfig, Clock, TransactionRunner } from '@hostboard/core';
import { JobScheduler, type JobHandler, type JobName } from '@hostboard/jobs';
import { OfferExpiryHandlers, SweepService } from '@hostboard/offer';
import { ManualClock, startApp, type TestApp } from '../support/test-app.js';
import { addMember, createVenue, signIn, signUp, type Staff } from '../support/staff.js';
import { EVERY_DAY, joined, moveClock, party, sandboxVenue, type Sandbox } from '../support/restaurant.js';

/**
 * A party that confirmed its table or was seated, and that the host never seated, cleared or marked a
 * no-show (the "done" tap forgotten at the end of the evening), held its table for days: the next
 * day's board showed it taken and the host could not offer it. Now it keeps it only until the venue's
 * next business day's service opens: then the confirmed party's booking is cancelled (a no-show,
 * its entry too) and the seated party's visit closed (its booking completed), recorded in the history
 * with the reason "business day ended", pushed to every board as one event. Not at midnight, nor when
 * the last window ends: the party may still be at its table then, and nothing can be offered anyway.
 * Each test moves a sandbox venue's simulated clock across midnight and the next opening.
 */
interface Board {
  counts: { tables: number; free: number; held: number; booked: number; occupied: number };
  tables: Array<{ id: string; label: string; state: string; placement: { reservationId: string; state: string } | null }>;
  toSeat: Array<{ reservationId: string; name: string }>;
}
interface Reservation {
  id: string;
  entryId: string | null;
  name: string;
  state: string;
  stateReason: string | null;
  tableIds: string[];
}
interface HistoryRow {
  subjectType: string;
  subjectId: string;
  from: string | null;
  to: string;
  actor: string;
  reason: string | null;
  at: string;
}

describe('tables held by an earlier business day', () => {
  let t: TestApp;
  let owner: Staff;
  const api = () => request(t.baseUrl);

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'ended-day-owner');
  });
  afterAll(() => t.close());

  const board = async (v: Sandbox, who: Staff): Promise<Board> =>
    (await api().get(`/v1/venues/${v.id}/board`).set(who.auth).expect(200)).body as Board;
  const stateOf = (b: Board): Record<string, string> => Object.fromEntries(b.tables.map((x) => [x.label, x.state]));
  const reservations = async (v: Sandbox): Promise<Reservation[]> =>
    (await api().get(`/v1/venues/${v.id}/reservations`).set(owner.auth).expect(200)).body as Reservation[];
  const history = async (v: Sandbox, subjectId: string): Promise<HistoryRow[]> =>
    (await api().get(`/v1/venues/${v.id}/history`).query({ subjectId }).set(owner.auth).expect(200)).body as HistoryRow[];

  /** A queue party offered `table` and accepted by staff: its confirmed booking's id. */
  async function confirmed(
    v: Sandbox,
    host: Staff,
    name: string,
    size: number,
    table: string,
  ): Promise<{ entryId: string; id: string }> {
    const j = await joined(t, host, v.id, party(size, name));
    const offer = (
      await api()
        .post(`/v1/venues/${v.id}/offers`)
        .set(host.auth)
        .send({ entryId: j.entry.id, entryVersion: j.entry.version, tableIds: [v.tableIds[table]] })
        .expect(201)
    ).body as { offer: { id: string; reservationId: string } };
    await api().post(`/v1/venues/${v.id}/offers/${offer.offer.id}/accept`).set(host.auth).expect(200);
    return { entryId: j.entry.id, id: offer.offer.reservationId };
  }

  /** A booking at the desk from `start` on `table` (a walk-in when `start` is the venue's now). */
  async function booked(v: Sandbox, host: Staff, name: string, size: number, table: string, start: string): Promise<string> {
    const r = await api()
      .post(`/v1/venues/${v.id}/reservations`)
      .set(host.auth)
      .send({ name, partySize: size, start, tableIds: [v.tableIds[table]] })
      .expect(201);
    return (r.body as { id: string }).id;
  }

  const seat = async (v: Sandbox, host: Staff, reservationId: string): Promise<void> => {
    await api().post(`/v1/venues/${v.id}/reservations/${reservationId}/seat`).set(host.auth).expect(201);
  };

  it("releases yesterday's confirmed and seated parties' tables when the next day's first window opens (Chicago)", async () => {
    // Friday 12 June 2026, 6 PM in Chicago (CDT, UTC-5); service 17:00-23:00 every day, 90-minute turns.
    const v = await sandboxVenue(t, owner, {
      clock: '2026-06-12T23:00:00.000Z',
      windows: [{ days: EVERY_DAY, start: '17:00', end: '23:00', turnMinutes: 90 }],
      tables: [
        { label: 'T1', capacity: 2 },
        { label: 'T2', capacity: 4 },
        { label: 'T3', capacity: 4 },
        { label: 'T4', capacity: 4 },
      ],
    });
    const host = await addMember(t, v.id, owner, 'host');
    const ada = await confirmed(v, host, 'Ada Neverseated', 2, 'T1');
    const bea = await confirmed(v, host, 'Bea Nevercleared', 3, 'T2');
    await seat(v, host, bea.id);
    // 10:45 PM: a walk-in (no queue entry) sits down at T3 a quarter of an hour before service ends.
    await moveClock(t, owner, v.id, '2026-06-13T03:45:00.000Z');
    const cy = await booked(v, host, 'Cy Walkin', 2, 'T3', '2026-06-13T03:45:00.000Z');
    await seat(v, host, cy);
    // Saturday's 7 PM booking on T4, made on Friday: Saturday's, it must stay.
    const dee = await booked(v, host, 'Dee Tomorrow', 4, 'T4', '2026-06-14T00:00:00.000Z');

    const events = new BoardClient(t.baseUrl, host.token);
    await events.connected();
    await events.subscribe(v.id);

    // Past midnight (12:30 AM Saturday) and all morning until a minute before Saturday's service:
    // the parties may still be there, nothing can be offered; the board shows them as the host left them.
    for (const at of ['2026-06-13T05:30:00.000Z', '2026-06-13T21:59:00.000Z']) {
      await moveClock(t, owner, v.id, at);
      const b = await board(v, host);
      expect(stateOf(b)).toEqual({ T1: 'booked', T2: 'occupied', T3: 'occupied', T4: 'free' });
      expect(b.toSeat.map((p) => p.name)).toEqual(['Ada Neverseated']);
    }
    expect(events.events.filter((e) => e.type === 'tables.day-ended')).toEqual([]);

    // 5 PM Saturday: Saturday's service opens. The clock move's sweep releases Friday's three tables.
    await moveClock(t, owner, v.id, '2026-06-13T22:00:00.000Z');
    await waitFor(() => events.events.some((e) => e.type === 'tables.day-ended'), 5000, 'the release event');
    const ended = events.events.filter((e) => e.type === 'tables.day-ended');
    expect(ended).toHaveLength(1);
    expect(ended[0]?.data).toEqual({
      businessDate: '2026-06-13',
      reservationIds: expect.arrayContaining([ada.id, bea.id, cy]) as string[],
      tableIds: [v.tableIds['T1'], v.tableIds['T2'], v.tableIds['T3']].sort(),
    });
    expect(ended[0]?.data['reservationIds']).toHaveLength(3);

    const b = await board(v, host);
    expect(stateOf(b)).toEqual({ T1: 'free', T2: 'free', T3: 'free', T4: 'free' });
    expect(b.toSeat).toEqual([]);
    const byId = new Map((await reservations(v)).map((r) => [r.id, r]));
    expect(byId.get(ada.id)).toMatchObject({ state: 'CANCELLED', stateReason: 'business day ended' });
    expect(byId.get(bea.id)).toMatchObject({ state: 'COMPLETED', stateReason: 'business day ended' });
    expect(byId.get(cy)).toMatchObject({ state: 'COMPLETED', stateReason: 'business day ended' });
    expect(byId.get(dee)).toMatchObject({ state: 'CONFIRMED', stateReason: null });

    // Recorded like any other state change: by the system, at the opening, with the reason.
    const opening = '2026-06-13T22:00:00.000Z';
    const system = { actor: 'system', reason: 'business day ended', at: opening };
    expect((await history(v, ada.id))[0]).toMatchObject({
      subjectType: 'reservation',
      from: 'CONFIRMED',
      to: 'CANCELLED',
      ...system,
    });
    expect((await history(v, ada.entryId))[0]).toMatchObject({
      subjectType: 'entry',
      from: 'confirmed',
      to: 'cancelled',
      ...system,
    });
    expect((await history(v, bea.id))[0]).toMatchObject({ from: 'SEATED', to: 'COMPLETED', ...system });
    expect((await history(v, cy))[0]).toMatchObject({ from: 'SEATED', to: 'COMPLETED', ...system });
    const entry = (await api().get(`/v1/venues/${v.id}/queue/${ada.entryId}`).set(host.auth).expect(200)).body as {
      entry: { status: string };
    };
    expect(entry.entry.status).toBe('cancelled');
    // No message: the day is over; the guest heard nothing the host did not do.
    const mail = (await api().get(`/v1/venues/${v.id}/messages`).set(owner.auth).expect(200)).body as Array<{ template: string }>;
    expect(mail.map((m) => m.template).filter((x) => x === 'queue-removed')).toEqual([]);

    // The host can offer Ada's old table to Saturday's first party.
    const eve = await joined(t, host, v.id, party(2, 'Eve Saturday'));
    await api()
      .post(`/v1/venues/${v.id}/offers`)
      .set(host.auth)
      .send({ entryId: eve.entry.id, entryVersion: eve.entry.version, tableIds: [v.tableIds['T1']] })
      .expect(201);

    // Once: a later sweep releases nothing more.
    await moveClock(t, owner, v.id, '2026-06-13T22:10:00.000Z');
    await api().post(`/v1/venues/${v.id}/sweeps`).set(host.auth).expect(200);
    await board(v, host);
    expect(events.events.filter((e) => e.type === 'tables.day-ended')).toHaveLength(1);
    expect((await history(v, bea.id)).filter((h) => h.reason === 'business day ended')).toHaveLength(1);
    events.close();
  });

  it('counts business days by the window a party sat in, past midnight, in Auckland', async () => {
    // Pacific/Auckland in June is NZST, UTC+12. Service 18:00-02:00 every day: Friday night's window
    // runs to 2 AM Saturday, and what happens in it belongs to Friday.
    const v = await sandboxVenue(t, owner, {
      timeZone: 'Pacific/Auckland',
      clock: '2026-06-12T06:00:00.000Z', // Friday 12 June, 18:00 NZST
      windows: [{ days: EVERY_DAY, start: '18:00', end: '02:00', turnMinutes: 90 }],
      tables: [
        { label: 'A1', capacity: 4 },
        { label: 'A2', capacity: 4 },
        { label: 'A3', capacity: 4 },
      ],
    });
    const host = await addMember(t, v.id, owner, 'host');
    const events = new BoardClient(t.baseUrl, host.token);
    await events.connected();
    await events.subscribe(v.id);

    // 01:30 Saturday, still Friday's service: a walk-in sits at A1 and a queue party confirms A2.
    await moveClock(t, owner, v.id, '2026-06-12T13:30:00.000Z');
    const late = await booked(v, host, 'Friday Latenight', 2, 'A1', '2026-06-12T13:30:00.000Z');
    await seat(v, host, late);
    const fri = await confirmed(v, host, 'Friday Noshow', 2, 'A2');

    // 02:30 Saturday (the window is over) and 17:59 Saturday: Friday's parties keep their tables.
    for (const at of ['2026-06-12T14:30:00.000Z', '2026-06-13T05:59:00.000Z']) {
      await moveClock(t, owner, v.id, at);
      expect(stateOf(await board(v, host))).toEqual({ A1: 'occupied', A2: 'booked', A3: 'free' });
    }

    // 18:00 Saturday: Saturday's service opens, Friday's tables are free.
    await moveClock(t, owner, v.id, '2026-06-13T06:00:00.000Z');
    expect(stateOf(await board(v, host))).toEqual({ A1: 'free', A2: 'free', A3: 'free' });
    await waitFor(() => events.events.some((e) => e.type === 'tables.day-ended'), 5000, 'the release event');
    expect(events.events.find((e) => e.type === 'tables.day-ended')?.data).toMatchObject({
      businessDate: '2026-06-13',
      tableIds: [v.tableIds['A1'], v.tableIds['A2']].sort(),
    });

    // Saturday night: one party sits at 23:00, another at 00:45 Sunday, both in Saturday's window.
    await moveClock(t, owner, v.id, '2026-06-13T11:00:00.000Z');
    const sat = await booked(v, host, 'Saturday Dinner', 2, 'A1', '2026-06-13T11:00:00.000Z');
    await seat(v, host, sat);
    await moveClock(t, owner, v.id, '2026-06-13T12:45:00.000Z');
    const satLate = await booked(v, host, 'Saturday Late', 2, 'A3', '2026-06-13T12:45:00.000Z');
    await seat(v, host, satLate);
    // 01:50 Sunday, still Saturday's business day: nothing is released.
    await moveClock(t, owner, v.id, '2026-06-13T13:50:00.000Z');
    expect(stateOf(await board(v, host))).toEqual({ A1: 'occupied', A2: 'free', A3: 'occupied' });
    // 18:00 Sunday: both are Saturday's, released together.
    await moveClock(t, owner, v.id, '2026-06-14T06:00:00.000Z');
    expect(stateOf(await board(v, host))).toEqual({ A1: 'free', A2: 'free', A3: 'free' });
    await waitFor(() => events.events.filter((e) => e.type === 'tables.day-ended').length === 2, 5000, 'the second release');
    expect(events.events.filter((e) => e.type === 'tables.day-ended')[1]?.data).toMatchObject({
      businessDate: '2026-06-14',
      reservationIds: expect.arrayContaining([sat, satLate]) as string[],
    });
    const byId = new Map((await reservations(v)).map((r) => [r.id, r.state]));
    expect([byId.get(late), byId.get(fri.id), byId.get(sat), byId.get(satLate)]).toEqual([
      'COMPLETED',
      'CANCELLED',
      'COMPLETED',
      'COMPLETED',
    ]);
    events.close();
  });
  it('is found by the read before the board, with no clock move: a day the venue opens after all', async () => {
    // Service on Fridays only. A walk-in sits at T1 on Friday at 6 PM and is never cleared.
    const v = await sandboxVenue(t, owner, {
      clock: '2026-06-12T23:00:00.000Z',
      windows: [{ days: [5], start: '17:00', end: '23:00', turnMinutes: 90 }],
      tables: [{ label: 'T1', capacity: 4 }],
    });
    const host = await addMember(t, v.id, owner, 'host');
    await seat(v, host, await booked(v, host, 'Friday Walkin', 2, 'T1', '2026-06-12T23:00:00.000Z'));
    // Saturday 6 PM: no service on Saturdays, so Friday's party keeps its table.
    await moveClock(t, owner, v.id, '2026-06-13T23:00:00.000Z');
    expect(stateOf(await board(v, host))).toEqual({ T1: 'occupied' });
    const events = new BoardClient(t.baseUrl, host.token);
    await events.connected();
    await events.subscribe(v.id);
    // The manager opens on Saturdays after all, from 5 PM: a service of a later business day is
    // running now. Nothing else happens; the board's own read finds Friday's table and frees it.
    await api()
      .post(`/v1/venues/${v.id}/service-windows`)
      .set(owner.auth)
      .send({ days: [6], start: '17:00', end: '23:00', turnMinutes: 90 })
      .expect(201);
    expect(stateOf(await board(v, host))).toEqual({ T1: 'free' });
    await waitFor(() => events.events.some((e) => e.type === 'tables.day-ended'), 5000, 'the release event');
    expect(events.events.find((e) => e.type === 'tables.day-ended')?.data).toMatchObject({
      businessDate: '2026-06-13',
      tableIds: [v.tableIds['T1']],
    });
    events.close();
  });
  it('teaches the floor-aware quote no turn: how long a party never cleared stayed is unknown', async () => {
    // Five 2-tops; the floor model; Friday 5 PM five parties are seated and never cleared.
    const labels = ['T1', 'T2', 'T3', 'T4', 'T5'];
    const v = await sandboxVenue(t, owner, {
      clock: '2026-06-12T22:00:00.000Z',
      windows: [{ days: EVERY_DAY, start: '17:00', end: '23:00', turnMinutes: 60 }],
      tables: labels.map((label) => ({ label, capacity: 2 })),
      patch: { policy: { quoteModel: 'floor' } },
    });
    for (const label of labels)
      await seat(v, owner, await booked(v, owner, `Friday ${label}`, 2, label, '2026-06-12T22:00:00.000Z'));
    // Saturday 5 PM: released, each visit closed a day after it opened. A party joins at 5:05 PM.
    await moveClock(t, owner, v.id, '2026-06-13T22:00:00.000Z');
    expect(stateOf(await board(v, owner))).toEqual({ T1: 'free', T2: 'free', T3: 'free', T4: 'free', T5: 'free' });
    await moveClock(t, owner, v.id, '2026-06-13T22:05:00.000Z');
    const j = await joined(t, owner, v.id, party(2));
    const rows: Array<{ floor_inputs: { turns: Record<string, unknown> } }> = await t.app
      .get<DataSource>(getDataSourceToken())
      .query('SELECT floor_inputs FROM entry_quotes WHERE entry_id = $1', [j.entry.id]);
    // The window's 60 minutes, not five "visits" of 24 hours.
    expect(rows[0]?.floor_inputs.turns).toEqual({ '2': { minutes: 60, source: 'window' } });
  });
  it('asks for the earliest turn without reading every confirmed booking of the venue (issue 18)', async () => {
    // Friday 12 June 2026, 6 PM in Chicago; 40 bookings confirmed ahead on four tables (ten evenings
    // each, 7 PM), an earlier one cancelled, and a live offer on T5 now: a hold, which the question skips.
    const v = await sandboxVenue(t, owner, {
      clock: '2026-06-12T23:00:00.000Z',
      windows: [{ days: EVERY_DAY, start: '17:00', end: '23:00', turnMinutes: 90 }],
      tables: ['T1', 'T2', 'T3', 'T4', 'T5'].map((label) => ({ label, capacity: 4 })),
    });
    const cancelled = await booked(v, owner, 'Early Cancelled', 2, 'T1', '2026-06-13T00:00:00.000Z');
    await api().post(`/v1/venues/${v.id}/reservations/${cancelled}/cancel`).set(owner.auth).send({}).expect(200);
    for (let day = 1; day <= 10; day++) {
      const start = new Date(Date.UTC(2026, 5, 13 + day, 0, 0, 0)).toISOString();
      for (const table of ['T1', 'T2', 'T3', 'T4']) await booked(v, owner, `Ahead ${day} ${table}`, 2, table, start);
    }
    const j = await joined(t, owner, v.id, party(2, 'Held Now'));
    await api()
      .post(`/v1/venues/${v.id}/offers`)
      .set(owner.auth)
      .send({ entryId: j.entry.id, entryVersion: j.entry.version, tableIds: [v.tableIds['T5']] })
      .expect(201);

    const ds = t.app.get<DataSource>(getDataSourceToken());
    // The sweep's question as every offer and acceptance asks it (its venue's own clock: a sandbox).
    const read = t.app.get(SweepService).dueAfterLockReads(v.id).heldTables;
    const [row] = (await ds.query(read.sql, read.params)) as Array<Record<string, unknown>>;
    // The same answer: the first evening booked ahead (the cancelled one and the hold are not counted).
    expect(read.parse(Object.values(row ?? {})[0])?.earliestStart?.toISOString()).toBe('2026-06-14T00:00:00.000Z');

    // The placements it reads: the first booking's, not the venue's 40 (before, it joined every
    // confirmed booking of the venue to its tables). With the tables' statistics as autovacuum keeps them.
    await ds.query('ANALYZE reservations, reservation_tables');
    const [plan] = (await ds.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${read.sql}`, read.params)) as Array<{
      'QUERY PLAN': unknown;
    }>;
    const planText = typeof plan?.['QUERY PLAN'] === 'string' ? plan['QUERY PLAN'] : JSON.stringify(plan?.['QUERY PLAN']);
    interface PlanNode {
      'Relation Name'?: string;
      'Actual Rows'?: number;
      'Actual Loops'?: number;
      'Rows Removed by Filter'?: number;
      Plans?: PlanNode[];
    }
    let placementsRead = 0;
    const walk = (n: PlanNode): void => {
      if (n['Relation Name'] === 'reservation_tables')
        placementsRead += ((n['Actual Rows'] ?? 0) + (n['Rows Removed by Filter'] ?? 0)) * (n['Actual Loops'] ?? 1);
      for (const c of n.Plans ?? []) walk(c);
    };
    walk((JSON.parse(planText) as Array<{ Plan: PlanNode }>)[0]?.Plan ?? {});
    expect(placementsRead).toBe(1);
  });
});

/**
 * Live venues (no simulated clock: moving a sandbox's clock sweeps by itself). Nobody looks at the
 * board when the next day's service opens: the worker's safety-net job finds the venue and releases.
 */
describe('tables held by an earlier business day, at a live venue nobody looks at', () => {
  let t: TestApp;
  let owner: Staff;
  const clock = new ManualClock(new Date('2026-06-12T06:00:00.000Z'));

  beforeAll(async () => {
    t = await startApp({ clock });
    owner = await signUp(t, 'ended-day-live-owner');
  });
  afterAll(() => t.close());

  /** The app's own safety-sweep handler, run by hand (its interval is 15 s of real time). */
  function safetySweep(): () => Promise<unknown> {
    const handlers = new Map<JobName, JobHandler<JobName>>();
    class Keeper extends JobScheduler {
      async schedule(): Promise<void> {}
      async cancel(): Promise<boolean> {
        return false;
      }
      handle<N extends JobName>(name: N, handler: JobHandler<N>): void {
        handlers.set(name, handler as JobHandler<JobName>);
      }
      async start(): Promise<void> {}
      async stop(): Promise<void> {}
    }
    new OfferExpiryHandlers(
      new Keeper(),
      t.app.get(SweepService),
      t.app.get(TransactionRunner),
      t.app.get(Clock),
      t.app.get(AppConfig),
    ).onModuleInit();
    const handler = handlers.get('safety-sweep');
    return () => (handler ? handler({}) : Promise.reject(new Error('no safety-sweep handler')));
  }

  /** A live venue with its window and tables; a party seated now at each table given. */
  async function liveVenue(
    timeZone: string,
    window: { start: string; end: string },
    labels: string[],
  ): Promise<{ id: string; tableIds: string[] }> {
    const v = await createVenue(t, owner, { timeZone });
    await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/service-windows`)
      .set(owner.auth)
      .send({ days: EVERY_DAY, ...window, turnMinutes: 90 })
      .expect(201);
    const tableIds: string[] = [];
    for (const label of labels) {
      const r = await request(t.baseUrl)
        .post(`/v1/venues/${v.id}/tables`)
        .set(owner.auth)
        .send({ label, capacity: 4 })
        .expect(201);
      tableIds.push((r.body as { id: string }).id);
    }
    return { id: v.id, tableIds };
  }
  async function seatNow(venueId: string, tableId: string): Promise<string> {
    const r = await request(t.baseUrl)
      .post(`/v1/venues/${venueId}/reservations`)
      .set(owner.auth)
      .send({ name: 'Never Cleared', partySize: 2, start: clock.now().toISOString(), tableIds: [tableId] })
      .expect(201);
    const id = (r.body as { id: string }).id;
    await request(t.baseUrl).post(`/v1/venues/${venueId}/reservations/${id}/seat`).set(owner.auth).expect(201);
    return id;
  }
  const stateOf = async (id: string): Promise<string | undefined> =>
    (
      (await t.app.get<DataSource>(getDataSourceToken()).query('SELECT state FROM reservations WHERE id = $1', [id])) as Array<{
        state: string;
      }>
    )[0]?.state;

  it('releases them at the opening, also for a party seated after midnight in a window that runs past it', async () => {
    const sweep = safetySweep();
    // Chicago, 17:00-23:00: seated Friday 10:45 PM. Auckland, 18:00-02:00: seated 01:30 Saturday (Friday's).
    clock.set(new Date('2026-06-13T03:45:00.000Z'));
    owner = await signIn(t, owner.email, owner.password);
    const chicago = await liveVenue('America/Chicago', { start: '17:00', end: '23:00' }, ['C1']);
    const chicagoParty = await seatNow(chicago.id, chicago.tableIds[0] ?? '');
    clock.set(new Date('2026-06-12T13:30:00.000Z'));
    owner = await signIn(t, owner.email, owner.password);
    const auckland = await liveVenue('Pacific/Auckland', { start: '18:00', end: '02:00' }, ['A1']);
    const aucklandParty = await seatNow(auckland.id, auckland.tableIds[0] ?? '');

    // Saturday 17:59 in Auckland (05:59 UTC), Saturday 12:59 AM in Chicago: nothing opens, nothing moves.
    clock.set(new Date('2026-06-13T05:59:00.000Z'));
    await sweep();
    expect([await stateOf(chicagoParty), await stateOf(aucklandParty)]).toEqual(['SEATED', 'SEATED']);
    // Saturday 18:00 in Auckland: its Saturday service opens; Chicago is still in Saturday's small hours.
    clock.set(new Date('2026-06-13T06:00:00.000Z'));
    await sweep();
    expect([await stateOf(chicagoParty), await stateOf(aucklandParty)]).toEqual(['SEATED', 'COMPLETED']);
    // Saturday 5 PM in Chicago.
    clock.set(new Date('2026-06-13T22:00:00.000Z'));
    await sweep();
    expect([await stateOf(chicagoParty), await stateOf(aucklandParty)]).toEqual(['COMPLETED', 'COMPLETED']);
  });
});
