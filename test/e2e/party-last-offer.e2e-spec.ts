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
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';

const T0 = '2026-10-09T23:00:00.000Z'; // 6 PM in Chicago
const at = (minutes: number): string => new Date(Date.parse(T0) + minutes * 60_000).toISOString();

interface View {
  entry: { status: string };
  offer: { id: string } | null;
  lastOffer: { id: string; state: string; resolvedAt: string | null } | null;
}

/**
 * The party's view says how its most recent offer ended (`lastOffer`) once none is live, by the
 * token (POST /v1/queue-status) and by the session (GET /v1/queue-session) alike: the page words a
 * host's withdrawal and a lapsed hold differently, and tells a party back in the queue that it lapsed.
 */
describe('the party view: how the last offer ended', () => {
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
      windows: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '17:00', end: '23:00', turnMinutes: 90 }],
      tables: [{ label: 'T1', capacity: 4 }],
      patch: { policy: { onOfferExpired } },
    });

  /** Offers T1 to the party at the entry's current version; answers the offer's id. */
  async function offer(v: Sandbox, p: JoinBody): Promise<string> {
    const entry = (await activeEntries(t, owner, v.id)).find((e) => e.id === p.entry.id);
    const res = await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/offers`)
      .set(owner.auth)
      .send({ entryId: p.entry.id, entryVersion: entry?.version, tableIds: [v.tableIds['T1']] })
      .expect(201);
    return (res.body as { offer: { id: string } }).offer.id;
  }
  const withdraw = (v: Sandbox, offerId: string) =>
    request(t.baseUrl).post(`/v1/venues/${v.id}/offers/${offerId}/withdraw`).set(owner.auth).send({}).expect(200);
  const byToken = async (p: JoinBody): Promise<View> =>
    (await request(t.baseUrl).post('/v1/queue-status').send({ token: p.queueToken }).expect(200)).body as View;

  it('keep-place: none before the first offer or while one is live; a lapsed hold, then a withdrawal, each once ended', async () => {
    const v = await venue('keep-place');
    const p = await joined(t, owner, v.id, party(2));
    expect((await byToken(p)).lastOffer).toBeNull();

    const first = await offer(v, p);
    expect(await byToken(p)).toMatchObject({ entry: { status: 'offered' }, offer: { id: first }, lastOffer: null });

    // The five minutes pass: the party is back waiting with its place, and the view says the hold
    // lapsed, at its deadline (not at the minute the clock was moved to).
    await moveClock(t, owner, v.id, at(6));
    expect(await byToken(p)).toMatchObject({
      entry: { status: 'waiting' },
      offer: null,
      lastOffer: { id: first, state: 'expired', resolvedAt: at(5) },
    });

    // The next offer is the news while it is live; withdrawn by the host, the view says so.
    const second = await offer(v, p);
    expect((await byToken(p)).lastOffer).toBeNull();
    await moveClock(t, owner, v.id, at(7));
    await withdraw(v, second);
    const session = queueSession(
      ((await exchange(t, p.queueToken as string).expect(201)).body as { sessionToken: string }).sessionToken,
    );
    const read = (await request(t.baseUrl).get('/v1/queue-session').set(session).expect(200)).body as View;
    expect(read).toMatchObject({
      entry: { status: 'waiting' },
      offer: null,
      lastOffer: { id: second, state: 'withdrawn', resolvedAt: at(7) },
    });
  });

  it('leave-queue: an entry ended by a withdrawal says withdrawn, one ended by a lapse says expired', async () => {
    const v = await venue('leave-queue');
    const withdrawn = await joined(t, owner, v.id, party(2));
    const lapsed = await joined(t, owner, v.id, party(2));

    const w = await offer(v, withdrawn);
    await withdraw(v, w);
    expect(await byToken(withdrawn)).toMatchObject({
      entry: { status: 'expired' },
      offer: null,
      lastOffer: { id: w, state: 'withdrawn', resolvedAt: T0 },
    });

    const l = await offer(v, lapsed);
    await moveClock(t, owner, v.id, at(6));
    expect(await byToken(lapsed)).toMatchObject({
      entry: { status: 'expired' },
      offer: null,
      lastOffer: { id: l, state: 'expired', resolvedAt: at(5) },
    });
    // The other party's page still reads its own ending, not the latest offer at the venue.
    expect((await byToken(withdrawn)).lastOffer).toMatchObject({ id: w, state: 'withdrawn' });
  });

  it('an accepted offer reads as accepted once the party confirmed', async () => {
    const v = await venue('keep-place');
    const p = await joined(t, owner, v.id, party(2));
    const id = await offer(v, p);
    const session = queueSession(
      ((await exchange(t, p.queueToken as string).expect(201)).body as { sessionToken: string }).sessionToken,
    );
    await request(t.baseUrl).post('/v1/queue-session/accept').set(session).send({ offerId: id }).expect(200);
    const read = (await request(t.baseUrl).get('/v1/queue-session').set(session).expect(200)).body as View;
    expect(read).toMatchObject({ entry: { status: 'confirmed' }, offer: null, lastOffer: { id, state: 'accepted' } });
  });
});
