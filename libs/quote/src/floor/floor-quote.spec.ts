import { floorQuote, type FloorQuoteInput } from './floor-quote.js';
import { learnTurns, median } from './learned-turns.js';
import { daypartOf } from './daypart.js';

/** Two 2-tops, a 4-top and a 6-top; the 4 and the 6 approved together for 10; a 60-minute window turn. */
const floor = (o: Partial<FloorQuoteInput>): FloorQuoteInput => ({
  partySize: 2,
  tables: [
    { id: 'a', capacity: 2 },
    { id: 'b', capacity: 2 },
    { id: 'c', capacity: 4 },
    { id: 'd', capacity: 6 },
  ],
  combinations: [{ tableIds: ['c', 'd'], capacity: 10 }],
  placements: [],
  waitingAhead: [],
  windowTurnMinutes: 60,
  learnedTurns: {},
  ...o,
});
const seatedAll = (minutes: number) => ['a', 'b', 'c', 'd'].map((id) => ({ tableIds: [id], state: 'seated' as const, minutes }));

describe('the floor-aware quote', () => {
  it('a free fitting table and nobody ahead: a few minutes', () => {
    const q = floorQuote(floor({}));
    expect(q.minutes).toBe(5);
    expect(q.inputs).toMatchObject({ freeFittingOptions: 5, waitingAhead: 0, startMinutes: 0 });
  });

  it('a party holding an offer is already placed: the next couple gets the other free table', () => {
    const q = floorQuote(floor({ placements: [{ tableIds: ['a'], state: 'held', minutes: 0 }] }));
    expect(q.minutes).toBe(5);
    expect(q.inputs.held).toBe(1);
  });

  it('a seated table frees after the rest of its turn', () => {
    const q = floorQuote(floor({ partySize: 5, placements: seatedAll(40) }));
    // The 6-top (or the combination) has used 40 of 60 minutes.
    expect(q.minutes).toBe(20);
  });

  it('a table kept past its turn is expected to clear soon, not in the past', () => {
    expect(floorQuote(floor({ placements: seatedAll(75) })).minutes).toBe(5);
  });

  it('a held table frees a whole turn after its party sits', () => {
    const q = floorQuote(
      floor({
        tables: [{ id: 'a', capacity: 2 }],
        combinations: [],
        placements: [{ tableIds: ['a'], state: 'held', minutes: 0 }],
      }),
    );
    expect(q.minutes).toBe(60);
  });

  it('waiting parties ahead who fit the same tables take them first, in order', () => {
    // The 2-tops free at 50 and 30 minutes; the 4 and 6 at 55. The couple ahead takes the 30, this couple the 50.
    const q = floorQuote(
      floor({
        placements: [
          { tableIds: ['a'], state: 'seated', minutes: 10 },
          { tableIds: ['b'], state: 'seated', minutes: 30 },
          { tableIds: ['c'], state: 'seated', minutes: 5 },
          { tableIds: ['d'], state: 'seated', minutes: 5 },
        ],
        waitingAhead: [2],
      }),
    );
    expect(q.minutes).toBe(50);
    expect(q.inputs).toMatchObject({ waitingAhead: 1, aheadSharingTables: 1, seated: 4, freeFittingOptions: 0 });
  });

  it('a party ahead that fits none of this party’s tables does not delay it', () => {
    const q = floorQuote(
      floor({
        tables: [
          { id: 'a', capacity: 2 },
          { id: 'd', capacity: 6 },
        ],
        combinations: [],
        placements: [{ tableIds: ['d'], state: 'seated', minutes: 0 }],
        waitingAhead: [6, 6],
      }),
    );
    expect(q.minutes).toBe(5);
    expect(q.inputs.aheadSharingTables).toBe(2); // they could sit at the 6-top, but it is taken
  });

  it('a large party can take an approved combination once both of its tables free', () => {
    const q = floorQuote(
      floor({
        partySize: 8,
        placements: [
          { tableIds: ['c'], state: 'seated', minutes: 35 },
          { tableIds: ['d'], state: 'seated', minutes: 50 },
        ],
      }),
    );
    expect(q.minutes).toBe(25);
  });

  it('uses turns learned per capacity before the window’s', () => {
    const q = floorQuote(floor({ placements: seatedAll(10), learnedTurns: { 2: { minutes: 30, visits: 7 } } }));
    expect(q.minutes).toBe(20);
    expect(q.inputs.turns['2']).toEqual({ minutes: 30, source: 'learned', visits: 7 });
  });

  it('a table booked for later takes only a party whose turn ends before the booking begins', () => {
    const one = (bookings: FloorQuoteInput['bookings'], windowTurnMinutes = 60): number | null =>
      floorQuote(
        floor({
          tables: [
            { id: 'a', capacity: 2 },
            { id: 'b', capacity: 2 },
          ],
          combinations: [],
          placements: [{ tableIds: ['a'], state: 'seated', minutes: 0 }],
          bookings,
          windowTurnMinutes,
        }),
      ).minutes;
    // b is booked from 75 to 165 minutes from now with a 90-minute turn: a party sat now would
    // overlap it, so the couple waits for a, free in 90.
    expect(one([{ tableIds: ['b'], startMinutes: 75, endMinutes: 165 }], 90)).toBe(90);
    // With a 30-minute turn the couple fits before a booking 45 minutes out.
    expect(one([{ tableIds: ['b'], startMinutes: 45, endMinutes: 75 }], 30)).toBe(5);
    // Booked soon on both: the first table free for a whole turn after a booking ends.
    const q = floorQuote(
      floor({
        tables: [{ id: 'a', capacity: 2 }],
        combinations: [],
        bookings: [
          { tableIds: ['a'], startMinutes: 20, endMinutes: 80 },
          { tableIds: ['a'], startMinutes: 100, endMinutes: 160 },
        ],
      }),
    );
    // 80 to 140 would overlap the second booking: after it, at 160.
    expect(q.minutes).toBe(160);
    expect(q.inputs.bookedLater).toBe(2);
  });

  it('a party seated in another daypart keeps that daypart’s learned turn', () => {
    // Now is "late", where nothing is learned (the window says 60); the couples sat at dinner, 40 minutes there.
    const dinner = { daypart: 'dinner', learnedTurns: { 2: { minutes: 40, visits: 5 } } };
    const q = floorQuote(
      floor({
        tables: [{ id: 'a', capacity: 2 }],
        combinations: [],
        placements: [{ tableIds: ['a'], state: 'seated', minutes: 15, satIn: dinner }],
      }),
    );
    expect(q.minutes).toBe(25);
    // The couple joining now would sit "late": the window's turn for it.
    expect(q.inputs.turns).toEqual({
      '2 (dinner)': { minutes: 40, source: 'learned', visits: 5 },
      '2': { minutes: 60, source: 'window' },
    });
  });

  it('rounds to 5 minutes', () => {
    expect(floorQuote(floor({ placements: seatedAll(38) })).minutes).toBe(20); // 22 → 20
    expect(floorQuote(floor({ placements: seatedAll(37) })).minutes).toBe(25); // 23 → 25
  });

  it('says nothing it cannot know: no window and nothing learned, or no table that seats the party', () => {
    expect(floorQuote(floor({ windowTurnMinutes: null })).minutes).toBe(5);
    expect(floorQuote(floor({ windowTurnMinutes: null, placements: seatedAll(10) })).minutes).toBeNull();
    expect(floorQuote(floor({ partySize: 12 })).minutes).toBeNull();
  });
});

describe('turns learned from completed visits', () => {
  const ZONE = 'America/Chicago';
  // 19:00 Chicago on 12 June 2026 is 00:00Z on the 13th.
  const visit = (capacity: number, startIso: string, minutes: number) => ({
    capacity,
    openedAt: new Date(startIso),
    closedAt: new Date(new Date(startIso).getTime() + minutes * 60_000),
  });

  it('the median of enough recent visits per capacity and daypart', () => {
    const dinner = [50, 40, 70, 45, 55].map((m, i) => visit(2, `2026-06-13T00:${String(i * 5).padStart(2, '0')}:00Z`, m));
    const lunch = [20, 20, 20, 20, 20].map((m) => visit(2, '2026-06-12T17:00:00Z', m));
    const few = [90, 90].map((m) => visit(4, '2026-06-13T00:00:00Z', m));
    expect(learnTurns([...dinner, ...lunch, ...few], ZONE, 'dinner')).toEqual({ 2: { minutes: 50, visits: 5 } });
    expect(learnTurns([...dinner, ...lunch], ZONE, 'lunch')).toEqual({ 2: { minutes: 20, visits: 5 } });
  });

  it('only the most recent visits count', () => {
    const old = [100, 100, 100].map((m) => visit(2, '2026-06-01T00:00:00Z', m));
    const recent = [30, 30, 30].map((m) => visit(2, '2026-06-13T00:00:00Z', m));
    expect(learnTurns([...old, ...recent], ZONE, 'dinner', { minVisits: 3, recent: 3 })).toEqual({
      2: { minutes: 30, visits: 3 },
    });
  });

  it('median and dayparts', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
    expect(daypartOf(new Date('2026-06-12T17:00:00Z'), ZONE)).toBe('lunch');
    expect(daypartOf(new Date('2026-06-13T00:00:00Z'), ZONE)).toBe('dinner');
    expect(daypartOf(new Date('2026-06-13T06:30:00Z'), ZONE)).toBe('late');
  });
});
