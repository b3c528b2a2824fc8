import request from 'supertest';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';
import { deskJoin, errorOf, EVERY_DAY, joined, party, sandboxVenue, type JoinBody, type Sandbox } from '../support/restaurant.js';

/**
 * A host saw "Number 1 in line, quoted ~75 min" with every table free (Denver, 75-minute turns,
 * 7-minute holds). The spec's quote counts parties, not tables: "The wait estimate is that count
 * plus one, times the turn length of the service window running at that moment." With nobody of
 * the party's kind ahead, that is 1 × 75 = 75 minutes whatever the floor, for a party that fits a
 * table, one that needs a combination, and one joining as service is about to end (told so beside
 * the unchanged quote). Only the venue's `floor` model reads the free tables ("a few minutes").
 */
const TUESDAY_1910_DENVER = '2026-12-09T02:10:00.000Z'; // 19:10 MST, Tuesday 8 December
const TUESDAY_2140_DENVER = '2026-12-09T04:40:00.000Z'; // 21:40 MST
const SERVICE_ENDS = '2026-12-09T05:00:00.000Z'; // 22:00 MST

type Answer = JoinBody & { serviceEndsAt: string | null; pastServiceEnd: boolean };

describe('the quote with every table free', () => {
  let t: TestApp;
  let owner: Staff;

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'quote-all-free');
  });
  afterAll(() => t.close());

  /** 17:00–22:00, 75-minute turns, 7-minute holds; a 2-top, a 4-top, a 6-top, and the 4 and 6 together seating 10. */
  const denver = async (clock: string, policy: Record<string, unknown> = {}): Promise<Sandbox> => {
    const v = await sandboxVenue(t, owner, {
      clock,
      timeZone: 'America/Denver',
      windows: [{ days: EVERY_DAY, start: '17:00', end: '22:00', turnMinutes: 75 }],
      tables: [
        { label: 'A2', capacity: 2 },
        { label: 'B4', capacity: 4 },
        { label: 'C6', capacity: 6 },
      ],
      patch: { queuePartyCap: 12, policy: { holdSeconds: 420, ...policy } },
    });
    await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/combinations`)
      .set(owner.auth)
      .send({ tableIds: [v.tableIds['B4'], v.tableIds['C6']], capacity: 10 })
      .expect(201);
    return v;
  };
  const first = (minutes: number) => ({
    position: 1,
    ahead: 0,
    quotedWaitMinutes: minutes,
    quote: `position 1 (0 ahead), quoted ~${minutes} min (approx)`,
  });
  const quoteOf = (a: Answer) => ({
    position: a.position,
    ahead: a.ahead,
    quotedWaitMinutes: a.quotedWaitMinutes,
    quote: a.quote,
  });
  const counts = async (v: Sandbox) =>
    (await request(t.baseUrl).get(`/v1/venues/${v.id}/counts`).set(owner.auth).expect(200)).body as {
      tables: number;
      free: number;
    };

  it.each([
    ['fits a free table', 3],
    ['fits only the 2-top', 1],
    ['needs the combination', 9],
  ])('a party that %s (%i): 1 × 75 = 75 minutes, as the spec counts', async (_what, size) => {
    const v = await denver(TUESDAY_1910_DENVER);
    expect(await counts(v)).toMatchObject({ tables: 3, free: 3 });
    const a = (await joined(t, owner, v.id, party(size))) as Answer;
    expect(quoteOf(a)).toEqual(first(75));
    expect(a.pastServiceEnd).toBe(false);
  });

  it('a party larger than any table or combination is refused, never quoted', async () => {
    const v = await denver(TUESDAY_1910_DENVER);
    const res = await deskJoin(t, owner, v.id, party(11)).expect(400);
    expect(errorOf(res).message).toBe('No table or approved combination here seats a party of 11; the largest seats 10.');
    // Over the queue cap, the spec's own guard answers first.
    await request(t.baseUrl).patch(`/v1/venues/${v.id}`).set(owner.auth).send({ queuePartyCap: 8 }).expect(200);
    expect(errorOf(await deskJoin(t, owner, v.id, party(11)).expect(400)).message).toBe(
      'The queue accepts parties of at most 8.',
    );
  });

  it('service ending in 20 minutes: still 75 minutes (the quote string is unchanged), with the end of service said beside it', async () => {
    const v = await denver(TUESDAY_2140_DENVER);
    const a = (await joined(t, owner, v.id, party(3))) as Answer;
    expect(quoteOf(a)).toEqual(first(75));
    expect(a.serviceEndsAt).toBe(SERVICE_ENDS);
    expect(a.pastServiceEnd).toBe(true);
  });

  it('the floor model, which reads the tables, says a few minutes', async () => {
    const v = await denver(TUESDAY_1910_DENVER, { quoteModel: 'floor' });
    const a = (await joined(t, owner, v.id, party(3))) as Answer;
    expect(quoteOf(a)).toEqual(first(5));
  });
});
