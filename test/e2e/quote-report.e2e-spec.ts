import request from 'supertest';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { startApp, type TestApp } from '../support/test-app.js';
import { addMember, signUp, type Staff } from '../support/staff.js';
import {
  EVERY_DAY,
  joined,
  messages,
  moveClock,
  party,
  sandboxVenue,
  type JoinBody,
  type Sandbox,
} from '../support/restaurant.js';

/**
 * Both quote models on every join, the venue's choice between them, and the quote report, on the
 * issue's worked example: two 2-tops, a 60-minute turn. A couple joins at 18:00 and is offered a table
 * at 18:02; a second couple joins at 18:03 while the first holds its offer, and is offered at 18:10.
 * The formula quotes (ahead + 1) × 60 = 60 and 120 against actual waits of 2 and 7 minutes.
 */
const DAY = '2026-06-12'; // a Friday
const at = (hhmm: string): string => new Date(`${DAY}T${hhmm}:00-05:00`).toISOString(); // Chicago summer time

interface ModelStats {
  count: number;
  maeMinutes: number | null;
  biasMinutes: number | null;
  within5: number | null;
  within10: number | null;
}
interface ReportBody {
  from: string;
  to: string;
  quoteModel: string;
  entries: Array<{ entryId: string; actualMinutes: number; turnsMinutes: number; floorMinutes: number; shownModel: string }>;
  notOffered: number;
  models: { turns: ModelStats; floor: ModelStats };
  byDaypart: Array<{ daypart: string; count: number; models: { turns: ModelStats; floor: ModelStats } }>;
  byPartySize: Array<{ partySize: number; count: number; models: { turns: ModelStats; floor: ModelStats } }>;
}

describe('quotes: two models, the choice, and the report', () => {
  let t: TestApp;
  let owner: Staff;
  let manager: Staff;
  let host: Staff;
  let v: Sandbox;
  let first: JoinBody;
  let second: JoinBody;

  const offer = async (entry: JoinBody['entry'], table: string): Promise<{ offer: { id: string } }> =>
    (
      await request(t.baseUrl)
        .post(`/v1/venues/${v.id}/offers`)
        .set(host.auth)
        .send({ entryId: entry.id, entryVersion: entry.version, tableIds: [v.tableIds[table]] })
        .expect(201)
    ).body as { offer: { id: string } };
  const report = (who: Staff, query = `from=${DAY}&to=${DAY}`): request.Test =>
    request(t.baseUrl).get(`/v1/venues/${v.id}/reports/quotes?${query}`).set(who.auth);

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'quotes-owner');
    v = await sandboxVenue(t, owner, {
      clock: at('18:00'),
      windows: [{ days: EVERY_DAY, start: '17:00', end: '23:00', turnMinutes: 60 }],
      tables: [
        { label: 'T1', capacity: 2 },
        { label: 'T2', capacity: 2 },
      ],
    });
    manager = await addMember(t, v.id, owner, 'manager');
    host = await addMember(t, v.id, owner, 'host');

    first = await joined(t, host, v.id, party(2, 'First couple'));
    await moveClock(t, owner, v.id, at('18:02'));
    const firstOffer = await offer(first.entry, 'T1');
    await moveClock(t, owner, v.id, at('18:03'));
    second = await joined(t, host, v.id, party(2, 'Second couple'));
    await moveClock(t, owner, v.id, at('18:04'));
    await request(t.baseUrl).post(`/v1/venues/${v.id}/offers/${firstOffer.offer.id}/accept`).set(host.auth).send({}).expect(200);
    await moveClock(t, owner, v.id, at('18:10'));
    await offer(second.entry, 'T2');
  });
  afterAll(() => t.close());

  it('the default model is the formula, told with the spec’s words', () => {
    expect(first).toMatchObject({
      position: 1,
      ahead: 0,
      quotedWaitMinutes: 60,
      quote: 'position 1 (0 ahead), quoted ~60 min (approx)',
    });
    // The first couple holds an offer: still active, so the formula counts it.
    expect(second).toMatchObject({
      position: 2,
      ahead: 1,
      quotedWaitMinutes: 120,
      quote: 'position 2 (1 ahead), quoted ~120 min (approx)',
    });
  });

  it('both estimates are stored with each entry, with the inputs each used', async () => {
    const ds = t.app.get<DataSource>(getDataSourceToken());
    const rows: Array<{
      model: string;
      turns_minutes: number;
      turns_inputs: unknown;
      floor_minutes: number;
      floor_inputs: Record<string, unknown>;
    }> = await ds.query(
      `SELECT q.model, q.turns_minutes, q.turns_inputs, q.floor_minutes, q.floor_inputs
           FROM entry_quotes q JOIN queue_entries e ON e.id = q.entry_id WHERE q.venue_id = $1 ORDER BY e.queue_sequence`,
      [v.id],
    );
    expect(rows.map((r) => [r.model, r.turns_minutes, r.floor_minutes])).toEqual([
      ['turns', 60, 5],
      ['turns', 120, 5],
    ]);
    expect(rows[1]?.turns_inputs).toEqual({ position: 2, ahead: 1, kind: 2, turnMinutes: 60 });
    // The second couple: one table held by the first (already placed), one free, nobody waiting ahead.
    expect(rows[1]?.floor_inputs).toMatchObject({
      freeFittingOptions: 1,
      waitingAhead: 0,
      held: 1,
      seated: 0,
      startMinutes: 0,
      daypart: 'dinner',
    });
  });

  it('the report: MAE 85.5 and bias +85.5 for the formula; the floor model within 5 minutes', async () => {
    const body = (await report(manager).expect(200)).body as ReportBody;
    expect(body.entries.map((e) => [e.entryId, e.actualMinutes, e.turnsMinutes, e.floorMinutes, e.shownModel])).toEqual([
      [first.entry.id, 2, 60, 5, 'turns'],
      [second.entry.id, 7, 120, 5, 'turns'],
    ]);
    expect(body.models.turns).toEqual({ count: 2, maeMinutes: 85.5, biasMinutes: 85.5, within5: 0, within10: 0 });
    expect(body.models.floor).toEqual({ count: 2, maeMinutes: 2.5, biasMinutes: 0.5, within5: 100, within10: 100 });
    expect(body.byDaypart).toEqual([{ daypart: 'dinner', count: 2, models: body.models }]);
    expect(body.byPartySize).toEqual([{ partySize: 2, count: 2, models: body.models }]);
    expect(body).toMatchObject({ from: DAY, to: DAY, quoteModel: 'turns', notOffered: 0 });
    // Owners too; other business dates hold nothing.
    const nextDay = (await report(owner, 'from=2026-06-13&to=2026-06-13').expect(200)).body as ReportBody;
    expect(nextDay).toMatchObject({ entries: [], notOffered: 0, models: { turns: { count: 0, maeMinutes: null } } });
  });

  it('hosts are refused, and the dates are checked', async () => {
    expect((await report(host).expect(403)).body).toMatchObject({ error: { code: 'FORBIDDEN' } });
    await request(t.baseUrl).get(`/v1/venues/${v.id}/reports/quotes.csv?from=${DAY}&to=${DAY}`).set(host.auth).expect(403);
    // A refused CSV export answers the JSON envelope like any refusal.
    const bad = await request(t.baseUrl).get(`/v1/venues/${v.id}/reports/quotes.csv?from=${DAY}`).set(manager.auth).expect(400);
    expect(bad.headers['content-type']).toMatch(/application\/json/);
    expect(bad.body).toMatchObject({ error: { code: 'VALIDATION' } });
    for (const q of [
      '',
      `from=${DAY}`,
      'from=2026-06-13&to=2026-06-12',
      'from=12/06/2026&to=2026-06-12',
      'from=2026-01-01&to=2027-06-01',
    ]) {
      expect((await report(manager, q).expect(400)).body).toMatchObject({ error: { code: 'VALIDATION' } });
    }
  });

  it('exports the rows as CSV', async () => {
    const res = await request(t.baseUrl)
      .get(`/v1/venues/${v.id}/reports/quotes.csv?from=${DAY}&to=${DAY}`)
      .set(manager.auth)
      .expect(200)
      .expect('Content-Type', /text\/csv/)
      .expect('Content-Disposition', `attachment; filename=quotes-${DAY}-${DAY}.csv`);
    // A byte-order mark first, for Excel to read the names as UTF-8.
    expect(res.text.startsWith('\ufeff')).toBe(true);
    const lines = res.text.slice(1).trim().split('\r\n');
    expect(lines[0]).toBe(
      'entryId,businessDate,daypart,name,partySize,receivedAt,offeredAt,receivedLocal,offeredLocal,actualMinutes,turnsMinutes,floorMinutes,shownModel',
    );
    // The instants in UTC for a program, and on the venue's clock (Chicago) for the manager reading the sheet.
    expect(lines.slice(1)).toEqual([
      `${first.entry.id},${DAY},dinner,First couple,2,${at('18:00')},${at('18:02')},${DAY} 18:00:00,${DAY} 18:02:00,2,60,5,turns`,
      `${second.entry.id},${DAY},dinner,Second couple,2,${at('18:03')},${at('18:10')},${DAY} 18:03:00,${DAY} 18:10:00,7,120,5,turns`,
    ]);
  });

  it('policy.quoteModel (manager+) chooses what the join answer, the queueing email and the board show', async () => {
    await request(t.baseUrl)
      .patch(`/v1/venues/${v.id}`)
      .set(host.auth)
      .send({ policy: { quoteModel: 'floor' } })
      .expect(403);
    await request(t.baseUrl)
      .patch(`/v1/venues/${v.id}`)
      .set(manager.auth)
      .send({ policy: { quoteModel: 'nearest' } })
      .expect(400);
    const venue = await request(t.baseUrl)
      .patch(`/v1/venues/${v.id}`)
      .set(manager.auth)
      .send({ policy: { quoteModel: 'floor' } })
      .expect(200);
    expect((venue.body as { policy: { quoteModel: string } }).policy.quoteModel).toBe('floor');

    // 18:11: both tables taken for a turn (one confirmed at 18:02, one held at 18:10); a third couple waits.
    await moveClock(t, owner, v.id, at('18:11'));
    const third = await joined(t, host, v.id, party(2, 'Third couple'));
    // The formula counts the second couple (holding an offer); the first has accepted and left the queue.
    // Floor: both tables free about a turn from now; the third couple takes one, the fourth the other.
    expect(third).toMatchObject({ position: 2, quotedWaitMinutes: 60, quote: 'position 2 (1 ahead), quoted ~60 min (approx)' });
    const fourth = await joined(t, host, v.id, party(2, 'Fourth couple'));
    expect(fourth).toMatchObject({ position: 3, quotedWaitMinutes: 60, quote: 'position 3 (2 ahead), quoted ~60 min (approx)' });

    const email = (await messages(t, manager, v.id)).find((m) => m.entryId === fourth.entry.id && m.template === 'queue-joined');
    expect(email?.body).toContain('Quoted wait: about 60 minutes (approx).');
    const board = (await request(t.baseUrl).get(`/v1/venues/${v.id}/board`).set(host.auth).expect(200)).body as {
      queue: Array<{ id: string; quotedWaitMinutes: number | null }>;
    };
    expect(board.queue.find((e) => e.id === fourth.entry.id)?.quotedWaitMinutes).toBe(60);

    // The report keeps both, and counts entries never offered apart.
    const body = (await report(manager).expect(200)).body as ReportBody;
    expect(body).toMatchObject({ quoteModel: 'floor', notOffered: 2 });
    expect(body.entries).toHaveLength(2);
  });
});
