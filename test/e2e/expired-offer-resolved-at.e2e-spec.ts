import request from 'supertest';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { violations } from '../support/invariants.js';
import {
  activeEntries,
  exchange,
  joined,
  moveClock,
  party,
  queueSession,
  sandboxVenue,
  type JoinBody,
  type Sandbox,
} from '../support/restaurant.js';
import { signUp, type Staff } from '../support/staff.js';
import { startApp, type TestApp } from '../support/test-app.js';

const T0 = '2026-11-12T00:20:00.000Z'; // 6:20 PM in Chicago
const at = (minutes: number): string => new Date(Date.parse(T0) + minutes * 60_000).toISOString();

interface View {
  entry: { status: string };
  lastOffer: { id: string; state: string; resolvedAt: string | null } | null;
}
interface HistoryBody {
  at: string;
  subjectType: string;
  subjectId: string;
  to: string;
  actor: string;
}

/**
 * An expired offer's `resolved_at` is the hold's deadline, not the time the sweep ran: a sandbox clock
 * moved 47 minutes past a seven-minute hold reads, through the party's view, the history and the
 * database, an offer that ended at its `expiresAt`. A withdrawal and an acceptance keep their act's time.
 */
describe("an expired offer's resolved_at is its deadline", () => {
  let t: TestApp;
  let owner: Staff;

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'owner');
  });
  afterEach(async () => expect(await violations(t.app.get<DataSource>(getDataSourceToken()))).toEqual([]));
  afterAll(() => t.close());

  const venue = (onOfferExpired: 'keep-place' | 'leave-queue'): Promise<Sandbox> =>
    sandboxVenue(t, owner, {
      clock: T0,
      windows: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '17:00', end: '23:30', turnMinutes: 75 }],
      tables: [{ label: 'K3', capacity: 3 }],
      patch: { policy: { onOfferExpired, holdSeconds: 420 } },
    });
  async function offer(v: Sandbox, p: JoinBody): Promise<{ id: string; expiresAt: string }> {
    const entry = (await activeEntries(t, owner, v.id)).find((e) => e.id === p.entry.id);
    const res = await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/offers`)
      .set(owner.auth)
      .send({ entryId: p.entry.id, entryVersion: entry?.version, tableIds: [v.tableIds['K3']] })
      .expect(201);
    return (res.body as { offer: { id: string; expiresAt: string } }).offer;
  }
  const byToken = async (p: JoinBody): Promise<View> =>
    (await request(t.baseUrl).post('/v1/queue-status').send({ token: p.queueToken }).expect(200)).body as View;
  const historyOf = async (v: Sandbox, subjectId: string): Promise<HistoryBody[]> =>
    (await request(t.baseUrl).get(`/v1/venues/${v.id}/history?subjectId=${subjectId}`).set(owner.auth).expect(200))
      .body as HistoryBody[];
  const resolvedAt = async (offerId: string): Promise<string> => {
    const [row] = (await t.app
      .get<DataSource>(getDataSourceToken())
      .query(`SELECT resolved_at FROM offers WHERE id = $1`, [offerId])) as Array<{ resolved_at: Date }>;
    return row!.resolved_at.toISOString();
  };

  it.each(['keep-place', 'leave-queue'] as const)(
    '%s: a hold of 7 minutes swept 47 minutes after its deadline ended at the deadline',
    async (policy) => {
      const v = await venue(policy);
      const p = await joined(t, owner, v.id, party(3));
      await moveClock(t, owner, v.id, at(3));
      const o = await offer(v, p);
      expect(o.expiresAt).toBe(at(10));

      await moveClock(t, owner, v.id, at(57));
      expect(await byToken(p)).toMatchObject({
        entry: { status: policy === 'keep-place' ? 'waiting' : 'expired' },
        lastOffer: { id: o.id, state: 'expired', resolvedAt: o.expiresAt },
      });
      expect(await resolvedAt(o.id)).toBe(o.expiresAt);
      const lapse = (await historyOf(v, o.id)).find((h) => h.to === 'expired');
      expect(lapse).toMatchObject({ subjectType: 'offer', at: o.expiresAt, actor: 'system' });
    },
  );

  it("a workshop group's 21-minute hold, swept 47 minutes late, ended at its deadline", async () => {
    const v = await sandboxVenue(t, owner, {
      clock: T0,
      preset: 'workshop',
      poolCapacity: 14,
      patch: { policy: { holdSeconds: 1260 } },
    });
    const p = await joined(t, owner, v.id, party(5));
    await moveClock(t, owner, v.id, at(2));
    const held = (await request(t.baseUrl).post(`/v1/venues/${v.id}/promotions`).set(owner.auth).expect(201)).body as {
      offer: { id: string; expiresAt: string };
    };
    expect(held.offer.expiresAt).toBe(at(23));
    await moveClock(t, owner, v.id, at(70));
    expect(await byToken(p)).toMatchObject({ lastOffer: { id: held.offer.id, state: 'expired', resolvedAt: at(23) } });
    expect(await resolvedAt(held.offer.id)).toBe(at(23));
    expect((await historyOf(v, held.offer.id)).find((h) => h.to === 'expired')).toMatchObject({ at: at(23), actor: 'system' });
  });

  it('a withdrawal and an acceptance keep the time of the act', async () => {
    const v = await venue('keep-place');
    const p = await joined(t, owner, v.id, party(3));
    const withdrawn = await offer(v, p);
    await moveClock(t, owner, v.id, at(4));
    await request(t.baseUrl).post(`/v1/venues/${v.id}/offers/${withdrawn.id}/withdraw`).set(owner.auth).send({}).expect(200);
    expect((await byToken(p)).lastOffer).toMatchObject({ id: withdrawn.id, state: 'withdrawn', resolvedAt: at(4) });

    const accepted = await offer(v, p);
    await moveClock(t, owner, v.id, at(9));
    const session = queueSession(
      ((await exchange(t, p.queueToken as string).expect(201)).body as { sessionToken: string }).sessionToken,
    );
    await request(t.baseUrl).post('/v1/queue-session/accept').set(session).send({ offerId: accepted.id }).expect(200);
    expect(await resolvedAt(accepted.id)).toBe(at(9));
    expect(accepted.expiresAt).toBe(at(11));
  });
});
