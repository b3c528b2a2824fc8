import request from 'supertest';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';
import { joined, moveClock, party, sandboxVenue, type Sandbox, type Window } from '../support/restaurant.js';

/**
 * The floor-aware quote on floors other than the guide's example: what it reads must be the floor
 * the host can actually offer from. Friday 12 June 2026, Chicago (CDT, UTC−5).
 */
const DAY = '2026-06-12';
const at = (hhmm: string): string => new Date(`${DAY}T${hhmm}:00-05:00`).toISOString();
const FRIDAY = [5];

describe('floor quotes on real floors', () => {
  let t: TestApp;
  let owner: Staff;

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'floor-venues-owner');
  });
  afterAll(() => t.close());

  async function venue(tables: Array<{ label: string; capacity: number }>, windows: Window[], clock: string): Promise<Sandbox> {
    return sandboxVenue(t, owner, { clock, windows, tables, patch: { policy: { quoteModel: 'floor' } } });
  }

  /** A party joins, is offered `labels`, accepts and is seated now. */
  async function seatParty(v: Sandbox, size: number, labels: string[]): Promise<void> {
    const j = await joined(t, owner, v.id, party(size));
    const offered = await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/offers`)
      .set(owner.auth)
      .send({ entryId: j.entry.id, entryVersion: j.entry.version, tableIds: labels.map((l) => v.tableIds[l]) })
      .expect(201);
    const { offer, reservation } = offered.body as { offer: { id: string }; reservation: { id: string } };
    await request(t.baseUrl).post(`/v1/venues/${v.id}/offers/${offer.id}/accept`).set(owner.auth).send({}).expect(200);
    await request(t.baseUrl).post(`/v1/venues/${v.id}/reservations/${reservation.id}/seat`).set(owner.auth).send({}).expect(201);
  }

  it('a retired table is not a free table', async () => {
    // A bar with two 2-tops; B2 is retired (taken off the floor), B1 is seated now for a 60-minute turn.
    const v = await venue(
      [
        { label: 'B1', capacity: 2 },
        { label: 'B2', capacity: 2 },
      ],
      [{ days: FRIDAY, start: '17:00', end: '23:00', turnMinutes: 60 }],
      at('18:00'),
    );
    await request(t.baseUrl).post(`/v1/venues/${v.id}/tables/${v.tableIds['B2']}/retire`).set(owner.auth).send({}).expect(200);
    await seatParty(v, 2, ['B1']);
    const counts = (await request(t.baseUrl).get(`/v1/venues/${v.id}/counts`).set(owner.auth).expect(200)).body as {
      free: number;
    };
    expect(counts.free).toBe(0);
    await moveClock(t, owner, v.id, at('18:10'));
    // The only table frees when its party's turn ends, 50 minutes from now: not "a few minutes".
    const j = await joined(t, owner, v.id, party(2));
    expect(j.quotedWaitMinutes).toBe(50);
  });

  /** A desk booking of `label` starting at `start`. */
  async function book(v: Sandbox, label: string, start: string): Promise<void> {
    await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/reservations`)
      .set(owner.auth)
      .send({ name: 'Booked Guest', partySize: 2, email: 'booked@example.com', start, tableIds: [v.tableIds[label]] })
      .expect(201);
  }

  it('a table booked before a turn could end is not free now, however far the booking is past the hour', async () => {
    // A 90-minute turn. B1 is seated now; B2 is booked at 19:15, 75 minutes from now: an offer of B2
    // now would overlap that booking and is refused, so the couple waits for B1, 90 minutes.
    const v = await venue(
      [
        { label: 'B1', capacity: 2 },
        { label: 'B2', capacity: 2 },
      ],
      [{ days: FRIDAY, start: '17:00', end: '23:30', turnMinutes: 90 }],
      at('18:00'),
    );
    await seatParty(v, 2, ['B1']);
    await book(v, 'B2', at('19:15'));
    const j = await joined(t, owner, v.id, party(2));
    await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/offers`)
      .set(owner.auth)
      .send({ entryId: j.entry.id, entryVersion: j.entry.version, tableIds: [v.tableIds['B2']] })
      .expect(409);
    expect(j.quotedWaitMinutes).toBe(90);
  });

  it('a table booked after a short turn could end is free now', async () => {
    // A bar turning in 30 minutes. B1 is seated now; B2 is booked at 18:45: a couple offered B2 now
    // is done by 18:30, so the host offers it at once (and the offer goes through).
    const v = await venue(
      [
        { label: 'B1', capacity: 2 },
        { label: 'B2', capacity: 2 },
      ],
      [{ days: FRIDAY, start: '17:00', end: '23:30', turnMinutes: 30 }],
      at('18:00'),
    );
    await seatParty(v, 2, ['B1']);
    await book(v, 'B2', at('18:45'));
    const j = await joined(t, owner, v.id, party(2));
    expect(j.quotedWaitMinutes).toBe(5);
    await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/offers`)
      .set(owner.auth)
      .send({ entryId: j.entry.id, entryVersion: j.entry.version, tableIds: [v.tableIds['B2']] })
      .expect(201);
  });
});
