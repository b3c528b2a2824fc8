import request from 'supertest';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { BoardClient, waitFor } from '../support/board-client.js';
import { violations } from '../support/invariants.js';
import { activeEntries, joined, messages, moveClock, sandboxVenue, type JoinBody, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';

const PUBLIC_URL = 'https://guests.example.test';
const T0 = '2026-10-09T23:00:00.000Z'; // 6 PM in Chicago, a Friday
const at = (base: string, seconds: number): string => new Date(Date.parse(base) + seconds * 1000).toISOString();

interface OfferBody {
  offer: { id: string; entryId: string; reservationId: string; expiresAt: string };
}
interface HistoryBody {
  at: string;
  subjectType: string;
  subjectId: string;
  from: string | null;
  to: string;
  operationId: string;
  actor: string;
  reason: string | null;
}

/**
 * Many offers of one venue falling due together (issue 18): one sweep ends them all at once, with
 * per offer exactly what ending it alone records, and a second sweep changes nothing.
 */
describe('a burst of offers falling due together', () => {
  let t: TestApp;
  let owner: Staff;
  const board: BoardClient[] = [];
  const ds = (): DataSource => t.app.get<DataSource>(getDataSourceToken());

  beforeAll(async () => {
    t = await startApp({ env: { PUBLIC_URL } });
    owner = await signUp(t, 'owner');
  });
  afterEach(async () => expect(await violations(ds())).toEqual([]));
  afterAll(async () => {
    for (const c of board) c.close();
    await t.close();
  });

  const restaurant = (tables: number, end = '23:00'): Promise<Sandbox> =>
    sandboxVenue(t, owner, {
      clock: T0,
      windows: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '17:00', end, turnMinutes: 90 }],
      tables: Array.from({ length: tables }, (_, i) => ({ label: `T${i + 1}`, capacity: 4 })),
    });
  const offer = async (v: Sandbox, p: JoinBody, table: string): Promise<OfferBody['offer']> =>
    (
      (
        await request(t.baseUrl)
          .post(`/v1/venues/${v.id}/offers`)
          .set(owner.auth)
          .send({ entryId: p.entry.id, entryVersion: p.entry.version, tableIds: [v.tableIds[table]] })
          .expect(201)
      ).body as OfferBody
    ).offer;
  /** The venue's history (of one subject), oldest first: the list is newest first. */
  const historyOf = async (v: Sandbox, subjectId?: string): Promise<HistoryBody[]> =>
    (
      (
        await request(t.baseUrl)
          .get(`/v1/venues/${v.id}/history`)
          .query({ limit: 500, ...(subjectId ? { subjectId } : {}) })
          .set(owner.auth)
          .expect(200)
      ).body as HistoryBody[]
    ).reverse();
  const boardEvents = (v: Sandbox): Promise<Array<{ version: string | number; type: string; data: Record<string, unknown> }>> =>
    ds().query('SELECT version, type, data FROM board_events WHERE venue_id = $1 ORDER BY version', [v.id]);
  const counts = async (v: Sandbox): Promise<Record<string, number>> =>
    (await request(t.baseUrl).get(`/v1/venues/${v.id}/counts`).set(owner.auth).expect(200)).body as Record<string, number>;
  const sweep = async (v: Sandbox): Promise<string[]> =>
    (
      (await request(t.baseUrl).post(`/v1/venues/${v.id}/sweeps`).set(owner.auth).send({}).expect(200)).body as {
        expired: string[];
      }
    ).expired;
  /** Everything a repeated sweep must leave as it was. */
  const state = async (v: Sandbox): Promise<unknown> => ({
    history: await historyOf(v),
    events: await boardEvents(v),
    messages: (await messages(t, owner, v.id)).map((m) => m.id).sort(),
    entries: await activeEntries(t, owner, v.id),
    counts: await counts(v),
  });

  it('one sweep expires seven due offers of one venue, each as if alone; a second sweep changes nothing', async () => {
    const v = await restaurant(8);
    const names = ['Ana', 'Bo', 'Cy', 'Dee', 'Eli', 'Fay', 'Gus', 'Hal'];
    const parties: JoinBody[] = [];
    // Every channel mix: an email, a phone, both (two messages); Hal's offer is not due in the burst.
    const contacts = names.map((name, i): { email?: string; phone?: string } =>
      i === 1
        ? { phone: '+13125550101' }
        : i === 2
          ? { email: 'cy@example.test', phone: '+13125550102' }
          : { email: `${name.toLowerCase()}@example.test` },
    );
    for (const [i, name] of names.entries()) parties.push(await joined(t, owner, v.id, { name, partySize: 2, ...contacts[i] }));
    // Four offers at 6 PM, three at 6:00:30 (later deadlines), Hal's at 6:02 (not due in the burst).
    const offers: Array<OfferBody['offer']> = [];
    for (let i = 0; i < 4; i++) offers.push(await offer(v, parties[i] as JoinBody, `T${i + 1}`));
    await moveClock(t, owner, v.id, at(T0, 30));
    for (let i = 4; i < 7; i++) offers.push(await offer(v, parties[i] as JoinBody, `T${i + 1}`));
    await moveClock(t, owner, v.id, at(T0, 120));
    const hal = await offer(v, parties[7] as JoinBody, 'T8');
    expect(await counts(v)).toEqual({ tables: 8, free: 0, held: 8, booked: 0, occupied: 0 });

    const live = new BoardClient(t.baseUrl, owner.token);
    board.push(live);
    await live.connected();
    const ack = (await live.subscribe(v.id)) as { version: number };
    const messagesBefore = await messages(t, owner, v.id);

    // 6:05:30: the seven are due (deadlines 6:05 and 6:05:30), Hal's (6:07) is not.
    const now = at(T0, 330);
    const moved = (await request(t.baseUrl).post(`/v1/venues/${v.id}/clock`).set(owner.auth).send({ now }).expect(200)).body as {
      expired: string[];
    };
    // Deadline order, then id among equal deadlines.
    const byDeadline = (a: OfferBody['offer'], b: OfferBody['offer']): number =>
      a.expiresAt === b.expiresAt ? (a.id < b.id ? -1 : 1) : a.expiresAt < b.expiresAt ? -1 : 1;
    const due = offers.slice().sort(byDeadline);
    expect(moved.expired).toEqual(due.map((o) => o.id));

    // History: per offer the three rows of one expiry, one operation id, in that order, each at its
    // offer's own deadline (6:05 or 6:05:30: when the hold lapsed, not when the sweep ran).
    for (const o of due) {
      const operationId = `expire-offer-${o.id}`;
      const rows = [
        ...(await historyOf(v, o.id)),
        ...(await historyOf(v, o.reservationId)),
        ...(await historyOf(v, o.entryId)),
      ].filter((h) => h.operationId === operationId);
      expect(rows.map((h) => [h.subjectType, h.subjectId, h.from, h.to, h.reason, h.at])).toEqual([
        ['offer', o.id, 'live', 'expired', 'WAITLIST_OFFER_EXPIRED', o.expiresAt],
        ['reservation', o.reservationId, 'HELD', 'EXPIRED', 'WAITLIST_OFFER_EXPIRED', o.expiresAt],
        ['entry', o.entryId, 'offered', 'waiting', 'WAITLIST_OFFER_EXPIRED', o.expiresAt],
      ]);
    }
    // …and the 21 rows in the venue's history read offer by offer, in expiry order.
    const expiryRows = (await historyOf(v)).filter((h) => h.operationId.startsWith('expire-offer-'));
    expect(expiryRows.map((h) => `${h.operationId} ${h.subjectType}`)).toEqual(
      due.flatMap((o) => ['offer', 'reservation', 'entry'].map((s) => `expire-offer-${o.id} ${s}`)),
    );
    expect(await historyOf(v, hal.id)).toHaveLength(1); // created, still live

    // Board: the clock move, then one offer.expired per offer in the same order, each its own version.
    const events = (await boardEvents(v)).filter((e) => Number(e.version) > ack.version);
    expect(events.map((e) => [Number(e.version), e.type])).toEqual([
      [ack.version + 1, 'clock.moved'],
      ...due.map((_, i) => [ack.version + 2 + i, 'offer.expired']),
    ]);
    expect(events.slice(1).map((e) => e.data)).toEqual(
      due.map((o) => ({ offerId: o.id, entryId: o.entryId, reservationId: o.reservationId, entryStatus: 'waiting' })),
    );
    // …pushed to a connected board after commit, in version order.
    await waitFor(() => live.events.length >= 8, 5000, 'eight pushes');
    expect(live.events.map((e) => [e.version, e.type, e.data])).toEqual(events.map((e) => [Number(e.version), e.type, e.data]));

    // Guest messages: one announcement per expired offer, on each channel its party gave, word for word.
    const lapsed = (await messages(t, owner, v.id)).filter((m) => !messagesBefore.some((b) => b.id === m.id));
    const said = [
      'The offer expired and its table was released.',
      'Nothing lost — the place was kept; watch for the next offer.',
    ];
    const expected = due.flatMap((o) => {
      const i = parties.findIndex((x) => x.entry.id === o.entryId);
      const name = names[i] as string;
      const { email, phone } = contacts[i] ?? {};
      return [
        ...(email ? [email] : []).map((to) => ({
          channel: 'email',
          to,
          template: 'offer-lapsed',
          subject: 'Your table offer lapsed — The Test Kitchen',
          body: [`Hello ${name},`, '', ...said, `Your queue page: ${PUBLIC_URL}/q/`].join('\n'),
          createdAt: now,
          status: 'recorded',
          // This test app has no email or text provider set up: the Messages tab says so.
          noProvider: true,
          entryId: o.entryId,
          reservationId: o.reservationId,
          partyName: name,
        })),
        ...(phone ? [phone] : []).map((to) => ({
          channel: 'sms',
          to,
          template: 'offer-lapsed',
          subject: '',
          // The same words in the SMS alphabet (a hyphen for the dash: docs/waitlist.md).
          body: ['The Test Kitchen:', ...said, `Your queue page: ${PUBLIC_URL}/q/`].join(' ').replace('—', '-'),
          createdAt: now,
          status: 'recorded',
          // This test app has no email or text provider set up: the Messages tab says so.
          noProvider: true,
          entryId: o.entryId,
          reservationId: o.reservationId,
          partyName: name,
        })),
      ];
    });
    const key = (m: { channel: string; to?: string }): string => `${m.channel} ${m.to}`;
    expect(lapsed.map(({ id: _id, ...m }) => m).sort((a, b) => key(a).localeCompare(key(b)))).toEqual(
      expected.sort((a, b) => key(a).localeCompare(key(b))),
    );
    expect(lapsed).toHaveLength(8); // seven parties, one of them on two channels

    // Entries back to waiting with their places (join order), Hal still offered; seven tables free.
    expect((await activeEntries(t, owner, v.id)).map((e) => [e.id, e.status, e.receivedAt])).toEqual(
      parties.map((p, i) => [p.entry.id, i === 7 ? 'offered' : 'waiting', p.entry.receivedAt]),
    );
    const reservations = (await request(t.baseUrl).get(`/v1/venues/${v.id}/reservations`).set(owner.auth).expect(200))
      .body as Array<{ id: string; state: string; stateReason: string | null }>;
    for (const o of due)
      expect(reservations.find((r) => r.id === o.reservationId)).toMatchObject({
        state: 'EXPIRED',
        stateReason: 'WAITLIST_OFFER_EXPIRED',
      });
    expect(reservations.find((r) => r.id === hal.reservationId)?.state).toBe('HELD');
    expect(await counts(v)).toEqual({ tables: 8, free: 7, held: 1, booked: 0, occupied: 0 });

    // A second sweep at the same instant, and one by a job arriving late: nothing changes.
    const before = await state(v);
    expect(await sweep(v)).toEqual([]);
    expect(await sweep(v)).toEqual([]);
    expect(await state(v)).toEqual(before);
  });

  it('offers that lapse after their business day ended promise no place, and their parties leave with the day', async () => {
    // Friday's service ends at 23:59; offers made at 23:56 lapse at 00:01 on Saturday.
    const v = await restaurant(3, '23:59');
    const parties: JoinBody[] = [];
    for (const name of ['Ivy', 'Jo', 'Kai'])
      parties.push(await joined(t, owner, v.id, { name, partySize: 2, email: `${name.toLowerCase()}@example.test` }));
    await moveClock(t, owner, v.id, '2026-10-10T04:56:00.000Z');
    const offers: Array<OfferBody['offer']> = [];
    for (const [i, p] of parties.entries()) offers.push(await offer(v, p, `T${i + 1}`));
    const now = '2026-10-10T05:01:00.000Z';
    const moved = (await request(t.baseUrl).post(`/v1/venues/${v.id}/clock`).set(owner.auth).send({ now }).expect(200)).body as {
      expired: string[];
    };
    expect(moved.expired.slice().sort()).toEqual(offers.map((o) => o.id).sort());
    for (const p of parties) {
      expect((await historyOf(v, p.entry.id)).slice(-2).map((h) => [h.from, h.to, h.reason])).toEqual([
        ['offered', 'waiting', 'WAITLIST_OFFER_EXPIRED'],
        ['waiting', 'expired', 'business day ended'],
      ]);
    }
    expect(await activeEntries(t, owner, v.id)).toEqual([]);
    const lapsed = (await messages(t, owner, v.id)).filter((m) => m.template === 'offer-lapsed');
    expect(lapsed.map((m) => m.body).sort()).toEqual(
      parties
        .map((p) =>
          [
            `Hello ${p.entry.name},`,
            '',
            'The offer expired and its table was released.',
            'You are no longer in the queue; ask the desk if you would like to join again.',
          ].join('\n'),
        )
        .sort(),
    );
    const before = await state(v);
    expect(await sweep(v)).toEqual([]);
    expect(await state(v)).toEqual(before);
  });
});
