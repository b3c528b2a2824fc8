import request from 'supertest';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';
import { deskJoin, errorOf, EVERY_DAY, joined, moveClock, party, sandboxVenue, type JoinBody } from '../support/restaurant.js';

/**
 * The position quote, number by number. Tables of 2, 2, 4 and 6 seats and an approved combination
 * of the 4 and the 6 seating 10, so the kinds are 2, 4, 6 and 10; the running window turns in 20
 * minutes. An earlier same-day active party counts when its size fits the kind this party needs.
 */
const FRIDAY_7PM = '2026-06-13T00:00:00.000Z'; // 19:00 Friday 12 June in Chicago

describe('restaurant queue: the position quote', () => {
  let t: TestApp;
  let owner: Staff;
  let venueId: string;

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'quote-owner');
    const v = await sandboxVenue(t, owner, {
      clock: FRIDAY_7PM,
      windows: [{ days: EVERY_DAY, start: '17:00', end: '23:00', turnMinutes: 20 }],
      tables: [
        { label: 'T1', capacity: 2 },
        { label: 'T2', capacity: 2 },
        { label: 'T3', capacity: 4 },
        { label: 'T4', capacity: 6 },
      ],
      patch: { queuePartyCap: 12 },
    });
    venueId = v.id;
    await request(t.baseUrl)
      .post(`/v1/venues/${venueId}/combinations`)
      .set(owner.auth)
      .send({ tableIds: [v.tableIds['T3'], v.tableIds['T4']], capacity: 10 })
      .expect(201);
  });
  afterAll(() => t.close());

  const quoteOf = (r: JoinBody): Pick<JoinBody, 'position' | 'ahead' | 'quotedWaitMinutes' | 'quote' | 'approx'> => ({
    position: r.position,
    ahead: r.ahead,
    quotedWaitMinutes: r.quotedWaitMinutes,
    quote: r.quote,
    approx: r.approx,
  });
  const expected = (position: number, minutes: number): ReturnType<typeof quoteOf> => ({
    position,
    ahead: position - 1,
    quotedWaitMinutes: minutes,
    quote: `position ${position} (${position - 1} ahead), quoted ~${minutes} min (approx)`,
    approx: true,
  });

  it('the worked example', async () => {
    // A, 4 people: kind 4. Nobody earlier. Position 1, 1 × 20 = 20 min.
    const a = await joined(t, owner, venueId, party(4, 'A'));
    expect(quoteOf(a)).toEqual(expected(1, 20));
    // B, 10 people: kind 10 (the combination). Earlier: A (4 ≤ 10) counts. Position 2, 40 min.
    const b = await joined(t, owner, venueId, party(10, 'B'));
    expect(quoteOf(b)).toEqual(expected(2, 40));
    // C, a couple: kind 2. Earlier: A (4 > 2), B (10 > 2): neither blocks a couple. Position 1, 20 min.
    const c = await joined(t, owner, venueId, party(2, 'C'));
    expect(quoteOf(c)).toEqual(expected(1, 20));
    // D, 3 people: kind 4. Earlier: A (4) and C (2) fit a 4-top; B (10) does not. Position 3, 60 min.
    const d = await joined(t, owner, venueId, party(3, 'D'));
    expect(quoteOf(d)).toEqual(expected(3, 60));
    // E, 6 people: kind 6. Earlier: A 4, C 2, D 3 fit; B 10 does not. Position 4, 80 min.
    const e = await joined(t, owner, venueId, party(6, 'E'));
    expect(quoteOf(e)).toEqual(expected(4, 80));
    // F, 8 people: kind 10. Earlier: A, B, C, D, E all fit 10. Position 6, 120 min.
    const f = await joined(t, owner, venueId, party(8, 'F'));
    expect(quoteOf(f)).toEqual(expected(6, 120));
    // G, 12 people: no table or combination seats 12, so the join is refused by its size (issue 14, item 9)
    // rather than quoted a wait no offer could end.
    const g = await deskJoin(t, owner, venueId, party(12, 'G')).expect(400);
    expect(errorOf(g).message).toBe('No table or approved combination here seats a party of 12; the largest seats 10.');

    // A leaves: only active parties count. H, a couple: earlier C (2) fits. Position 2, 40 min.
    await request(t.baseUrl).post(`/v1/venues/${venueId}/queue/${a.entry.id}/cancel`).set(owner.auth).expect(200);
    const h = await joined(t, owner, venueId, party(2, 'H'));
    expect(quoteOf(h)).toEqual(expected(2, 40));
    // I, 1 person: kind 2. Earlier C and H fit. Position 3, 60 min.
    const i = await joined(t, owner, venueId, party(1, 'I'));
    expect(quoteOf(i)).toEqual(expected(3, 60));

    // What was quoted is stored on each entry, for later accuracy reports.
    const ds = t.app.get<DataSource>(getDataSourceToken());
    const rows: Array<{ id: string; quoted_position: number; quoted_wait_minutes: number; quoted_at: Date }> = await ds.query(
      'SELECT id, quoted_position, quoted_wait_minutes, quoted_at FROM queue_entries WHERE venue_id = $1 ORDER BY queue_sequence',
      [venueId],
    );
    expect(rows.map((r) => [r.quoted_position, r.quoted_wait_minutes])).toEqual([
      [1, 20],
      [2, 40],
      [1, 20],
      [3, 60],
      [4, 80],
      [6, 120],
      [2, 40],
      [3, 60],
    ]);
    expect(rows.every((r) => new Date(r.quoted_at).toISOString() === FRIDAY_7PM)).toBe(true);
    expect([b, c, d, e, f, h, i].every((r) => r.entry.status === 'waiting')).toBe(true);
  });

  it("the next day's service counts only that day's parties", async () => {
    const v = await sandboxVenue(t, owner, {
      clock: FRIDAY_7PM,
      windows: [{ days: EVERY_DAY, start: '17:00', end: '23:00', turnMinutes: 15 }],
      tables: [{ label: 'T1', capacity: 4 }],
    });
    await joined(t, owner, v.id, party(2));
    await joined(t, owner, v.id, party(2));
    // Saturday 19:00: Friday's parties are still on the list (nobody cleared them) but are not today's.
    await moveClock(t, owner, v.id, '2026-06-14T00:00:00.000Z');
    const sat = await joined(t, owner, v.id, party(2));
    expect(sat.entry.businessDate).toBe('2026-06-13');
    expect(quoteOf(sat)).toEqual({ ...expected(1, 15) });
  });

  it('the wait uses the turn of the window running at that moment', async () => {
    const v = await sandboxVenue(t, owner, {
      clock: '2026-06-12T17:00:00.000Z', // 12:00 Friday: lunch
      windows: [
        { days: EVERY_DAY, start: '11:00', end: '15:00', turnMinutes: 45 },
        { days: EVERY_DAY, start: '17:00', end: '23:00', turnMinutes: 20 },
      ],
    });
    const lunch = await joined(t, owner, v.id, party(2));
    expect(lunch.quotedWaitMinutes).toBe(45);
    await moveClock(t, owner, v.id, FRIDAY_7PM);
    const dinner = await joined(t, owner, v.id, party(2));
    // The lunch party is still waiting, same business date: it counts, at dinner's turn.
    expect(quoteOf(dinner)).toEqual(expected(2, 40));
  });
});
