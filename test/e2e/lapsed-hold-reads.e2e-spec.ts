import request from 'supertest';
import { EVERY_DAY, joined, moveClock, party, sandboxVenue, type JoinBody, type MessageBody } from '../support/restaurant.js';
import { ManualClock, startApp, type TestApp } from '../support/test-app.js';
import { createVenue, signIn, signUp, type Staff } from '../support/staff.js';

/**
 * A hold lapses at its deadline; the expiry job only makes that visible on time. With the job late
 * or its worker down, the board already shows the hold ended (its read sweeps first); the venue's
 * history, its messages and its day report must say the same at the same moment, not "live". The
 * app's clock is a manual one here, so a hold lapses with no job or request to sweep it. And the
 * history records a lapse at the hold's deadline, as the workshop ledger does ("09:35 W-02
 * expires"), not at the moment a sweep got to it.
 */

const SATURDAY_NOON_SYDNEY = new Date('2026-11-14T01:00:00.000Z'); // 12:00 AEDT
const FOUR_MINUTES = 4 * 60_000;

interface HistoryBody {
  at: string;
  subjectType: string;
  subjectId: string;
  from: string | null;
  to: string;
  actor: string;
}

interface Lapsed {
  venueId: string;
  entryId: string;
  offerId: string;
  expiresAt: string;
}

describe('reads of a venue after a hold lapsed, before anything swept it', () => {
  let t: TestApp;
  let owner: Staff;
  const clock = new ManualClock(SATURDAY_NOON_SYDNEY);

  beforeAll(async () => {
    t = await startApp({ clock });
    owner = await signUp(t, 'owner');
  });
  afterAll(() => t.close());

  /**
   * A live restaurant in Sydney (11:00–15:00, one 4-top, keep-place), a party offered the table, and
   * the app's clock four minutes past the hold's deadline: nothing has swept it.
   */
  const lapsedHold = async (): Promise<Lapsed> => {
    clock.set(SATURDAY_NOON_SYDNEY);
    owner = await signIn(t, owner.email, owner.password);
    const v = await createVenue(t, owner, { timeZone: 'Australia/Sydney' });
    await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/service-windows`)
      .set(owner.auth)
      .send({ days: EVERY_DAY, start: '11:00', end: '15:00', turnMinutes: 30 })
      .expect(201);
    const table = await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/tables`)
      .set(owner.auth)
      .send({ label: 'T1', capacity: 4 })
      .expect(201);
    await request(t.baseUrl)
      .patch(`/v1/venues/${v.id}`)
      .set(owner.auth)
      .send({ policy: { onOfferExpired: 'keep-place' } })
      .expect(200);
    const a = await joined(t, owner, v.id, { ...party(3), email: `lapsed-${Date.now()}@example.com` });
    const o = (
      await request(t.baseUrl)
        .post(`/v1/venues/${v.id}/offers`)
        .set(owner.auth)
        .send({ entryId: a.entry.id, entryVersion: a.entry.version, tableIds: [(table.body as { id: string }).id] })
        .expect(201)
    ).body as { offer: { id: string; expiresAt: string } };
    clock.set(new Date(Date.parse(o.offer.expiresAt) + FOUR_MINUTES));
    owner = await signIn(t, owner.email, owner.password);
    return { venueId: v.id, entryId: a.entry.id, offerId: o.offer.id, expiresAt: o.offer.expiresAt };
  };

  /** What the board says of the offer now (its read sweeps first): whether it is still live. */
  const boardShowsLive = async (l: Lapsed): Promise<boolean> => {
    const board = await request(t.baseUrl).get(`/v1/venues/${l.venueId}/board`).set(owner.auth).expect(200);
    return (board.body as { offers: Array<{ id: string }> }).offers.some((o) => o.id === l.offerId);
  };

  it('the history shows the lapsed offer expired, at its deadline, as the board shows it ended', async () => {
    const l = await lapsedHold();
    const res = await request(t.baseUrl)
      .get(`/v1/venues/${l.venueId}/history?subjectId=${l.offerId}`)
      .set(owner.auth)
      .expect(200);
    const rows = res.body as HistoryBody[];
    expect(rows.map((h) => [h.to, h.actor, h.at])).toEqual([
      ['expired', 'system', l.expiresAt],
      ['live', `staff:${owner.userId}`, expect.any(String)],
    ]);
    // The party's entry went back to waiting at the same time, and the board agrees.
    const entry = await request(t.baseUrl)
      .get(`/v1/venues/${l.venueId}/history?subjectId=${l.entryId}`)
      .set(owner.auth)
      .expect(200);
    expect((entry.body as HistoryBody[])[0]).toMatchObject({ from: 'offered', to: 'waiting', at: l.expiresAt });
    expect(await boardShowsLive(l)).toBe(false);
  });

  it('the messages list the party’s “offer lapsed” message, as the board shows the offer ended', async () => {
    const l = await lapsedHold();
    const res = await request(t.baseUrl).get(`/v1/venues/${l.venueId}/messages`).set(owner.auth).expect(200);
    const subjects = (res.body as MessageBody[]).filter((m) => m.entryId === l.entryId).map((m) => m.subject);
    expect(subjects).toEqual([
      expect.stringMatching(/^Your table offer lapsed/),
      expect.stringMatching(/^Your table is ready/),
      expect.stringMatching(/^You are in the queue/),
    ]);
    expect(await boardShowsLive(l)).toBe(false);
  });

  it('the day report counts the lapsed offer as expired, as the board shows it ended', async () => {
    const l = await lapsedHold();
    const res = await request(t.baseUrl)
      .get(`/v1/venues/${l.venueId}/reports/days?from=2026-11-14&to=2026-11-14`)
      .set(owner.auth)
      .expect(200);
    const totals = (res.body as { totals: { offers: Record<string, number>; outcomes: Record<string, number> } }).totals;
    expect(totals.offers).toEqual({ made: 1, accepted: 0, expired: 1, withdrawn: 0, cancelled: 0 });
    expect(totals.outcomes.stillWaiting).toBe(1);
    expect(await boardShowsLive(l)).toBe(false);
  });
});

describe('a sandbox clock moved past a hold’s deadline', () => {
  let t: TestApp;
  let owner: Staff;

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'owner');
  });
  afterAll(() => t.close());

  it('records the expiry at the deadline (20:05), not at the time the clock was moved to (20:09)', async () => {
    const v = await sandboxVenue(t, owner, { clock: '2026-07-14T20:00:00-05:00', tables: [{ label: 'T1', capacity: 4 }] });
    const a: JoinBody = await joined(t, owner, v.id, party(2));
    const o = (
      await request(t.baseUrl)
        .post(`/v1/venues/${v.id}/offers`)
        .set(owner.auth)
        .send({ entryId: a.entry.id, entryVersion: a.entry.version, tableIds: [v.tableIds['T1']] })
        .expect(201)
    ).body as { offer: { id: string; expiresAt: string }; reservation: { id: string } };
    expect(o.offer.expiresAt).toBe('2026-07-15T01:05:00.000Z');
    await moveClock(t, owner, v.id, '2026-07-14T20:09:00-05:00');

    const res = await request(t.baseUrl).get(`/v1/venues/${v.id}/history`).set(owner.auth).expect(200);
    const expiry = (res.body as HistoryBody[]).filter((h) => h.to === 'expired' || (h.from === 'offered' && h.to === 'waiting'));
    expect(expiry.map((h) => [h.subjectType, h.subjectId, h.to, h.at])).toEqual(
      expect.arrayContaining([
        ['offer', o.offer.id, 'expired', '2026-07-15T01:05:00.000Z'],
        ['entry', a.entry.id, 'waiting', '2026-07-15T01:05:00.000Z'],
      ]),
    );
    const held = (res.body as HistoryBody[]).find((h) => h.subjectId === o.reservation.id && h.from === 'HELD');
    expect(held).toMatchObject({ to: 'EXPIRED', at: '2026-07-15T01:05:00.000Z' });
  });
});
