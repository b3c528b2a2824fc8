import request from 'supertest';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';
import {
  joined,
  messages,
  moveClock,
  party,
  sandboxVenue,
  type JoinBody,
  type Sandbox,
  type Window,
} from '../support/restaurant.js';

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

  describe('a wait that runs past the end of service', () => {
    /** What a join says about the end of service, beside the quote. */
    type Told = JoinBody & { serviceEndsAt: string | null; pastServiceEnd: boolean };
    const END_LINE = 'Service ends at 10:00 PM CDT, before this wait is over: we may not be able to seat you.';

    it.each(['floor', 'turns'] as const)('says so in the answer, the email and the text (%s)', async (model) => {
      // A bar with two 2-tops, dinner to 22:00, a 60-minute turn; both tables seated at 21:30 and 21:35.
      const v = await sandboxVenue(t, owner, {
        clock: at('21:30'),
        windows: [{ days: FRIDAY, start: '17:00', end: '22:00', turnMinutes: 60 }],
        tables: [
          { label: 'B1', capacity: 2 },
          { label: 'B2', capacity: 2 },
        ],
        patch: { policy: { quoteModel: model } },
      });
      await seatParty(v, 2, ['B1']);
      await moveClock(t, owner, v.id, at('21:35'));
      await seatParty(v, 2, ['B2']);
      await moveClock(t, owner, v.id, at('21:40'));
      // 20 minutes of service left; the quote (floor: B1 frees in 50; turns: 1 × 60) runs past it.
      const j = (await joined(t, owner, v.id, {
        name: 'Late Couple',
        partySize: 2,
        email: 'late@example.test',
        phone: '+13125550123',
      })) as Told;
      expect(j.quotedWaitMinutes).toBe(model === 'floor' ? 50 : 60);
      expect(j.serviceEndsAt).toBe(at('22:00'));
      expect(j.pastServiceEnd).toBe(true);
      // The quote itself keeps the spec's words.
      expect(j.quote).toBe(`position 1 (0 ahead), quoted ~${j.quotedWaitMinutes} min (approx)`);
      const sent = (await messages(t, owner, v.id)).filter((m) => m.entryId === j.entry.id && m.template === 'queue-joined');
      const email = sent.find((m) => m.channel === 'email');
      const text = sent.find((m) => m.channel === 'sms');
      expect(email?.body).toContain(
        `Quoted wait: about ${j.quotedWaitMinutes} minutes (approx). This is an estimate, not a promise.\n${END_LINE}\n`,
      );
      expect(text?.body).toContain(END_LINE);
      // No offer can be made once service has ended.
      await moveClock(t, owner, v.id, at('22:05'));
      await request(t.baseUrl)
        .post(`/v1/venues/${v.id}/offers`)
        .set(owner.auth)
        .send({ entryId: j.entry.id, entryVersion: j.entry.version, tableIds: [v.tableIds['B1']] })
        .expect(422);
    });

    it('says nothing more when the wait ends within service, and counts a window that follows without a gap', async () => {
      const v = await sandboxVenue(t, owner, {
        clock: at('21:40'),
        windows: [
          { days: FRIDAY, start: '17:00', end: '22:00', turnMinutes: 60 },
          { days: FRIDAY, start: '22:00', end: '02:00', turnMinutes: 45 },
        ],
        tables: [{ label: 'B1', capacity: 2 }],
        patch: { policy: { quoteModel: 'floor' } },
      });
      await seatParty(v, 2, ['B1']);
      const j = (await joined(t, owner, v.id, party(2))) as Told;
      expect(j.quotedWaitMinutes).toBe(60);
      // Late service follows dinner at 22:00: service ends at 02:00 Saturday.
      expect(j.serviceEndsAt).toBe(new Date('2026-06-13T02:00:00-05:00').toISOString());
      expect(j.pastServiceEnd).toBe(false);
      const email = (await messages(t, owner, v.id)).find((m) => m.entryId === j.entry.id && m.template === 'queue-joined');
      expect(email?.body).not.toContain('Service ends');
    });
  });

  it('a party seated at dinner keeps a dinner turn after 22:00: the quote does not jump at the daypart’s edge', async () => {
    // Dinner turns in 40 minutes here (five visits of 40 minutes, 17:00–20:25); the window says 90.
    const v = await venue(
      [
        { label: 'A1', capacity: 2 },
        { label: 'A2', capacity: 2 },
      ],
      [{ days: FRIDAY, start: '17:00', end: '23:30', turnMinutes: 90 }],
      at('17:00'),
    );
    for (let i = 0; i < 5; i++) {
      const start = new Date(new Date(at('17:00')).getTime() + i * 41 * 60_000).toISOString();
      await moveClock(t, owner, v.id, start);
      await seatParty(v, 2, ['A1']);
      const board = (await request(t.baseUrl).get(`/v1/venues/${v.id}/board`).set(owner.auth).expect(200)).body as {
        tables: Array<{ label: string; placement: { visitId: string | null } | null }>;
      };
      const visitId = board.tables.find((x) => x.label === 'A1')?.placement?.visitId;
      await moveClock(t, owner, v.id, new Date(new Date(start).getTime() + 40 * 60_000).toISOString());
      await request(t.baseUrl).post(`/v1/venues/${v.id}/visits/${visitId}/clear`).set(owner.auth).send({}).expect(200);
    }
    // Two couples sit down at 21:45, at dinner: expected to leave at 22:25.
    await moveClock(t, owner, v.id, at('21:45'));
    await seatParty(v, 2, ['A1']);
    await seatParty(v, 2, ['A2']);
    await moveClock(t, owner, v.id, at('21:55'));
    const before = await joined(t, owner, v.id, party(2));
    expect(before.quotedWaitMinutes).toBe(30);
    // 22:00 is the "late" daypart, which has no visits yet: the seated couples still sat at dinner.
    // The couple ahead takes the first table free at 22:25, this couple the second: 25 minutes, not 75.
    await moveClock(t, owner, v.id, at('22:00'));
    const after = await joined(t, owner, v.id, party(2));
    expect(after.quotedWaitMinutes).toBe(25);
  });

  it('with no service running (requireServiceWindow off), no table can be offered: no minutes are quoted', async () => {
    // Dinner from 17:00; the venue takes joins outside its windows. At 15:30 the 2-top is free, but
    // an offer waits for dinner: "a few minutes" would be 90 minutes out.
    const v = await venue(
      [{ label: 'A1', capacity: 2 }],
      [{ days: FRIDAY, start: '17:00', end: '22:00', turnMinutes: 60 }],
      at('15:30'),
    );
    await request(t.baseUrl)
      .patch(`/v1/venues/${v.id}`)
      .set(owner.auth)
      .send({ policy: { requireServiceWindow: false } })
      .expect(200);
    const j = await joined(t, owner, v.id, party(2));
    await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/offers`)
      .set(owner.auth)
      .send({ entryId: j.entry.id, entryVersion: j.entry.version, tableIds: [v.tableIds['A1']] })
      .expect(422);
    expect(j.quotedWaitMinutes).toBeNull();
    expect(j.quote).toBe('position 1 (0 ahead) (approx)');
  });
});
