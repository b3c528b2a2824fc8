import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { deskJoin, party, sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { addMember, signUp, type Staff } from '../support/staff.js';

/**
 * The owner of venue A, on A's own routes (where the guard lets them in), names the records of venue
 * B (whose owner is someone else): B's entries, offers, reservations, visits, tables, combinations,
 * windows, invitations and members. Every call is refused as not found (or invalid), and B is as it was.
 */
const T0 = '2026-11-13T23:25:00.000Z'; // 5:25 PM in Chicago

describe("a venue's routes given another venue's record ids", () => {
  let t: TestApp;
  let ownerA: Staff;
  let ownerB: Staff;
  let a: Sandbox;
  let b: Sandbox;
  const ds = (): DataSource => t.app.get<DataSource>(getDataSourceToken());
  const ids: Record<string, string> = {};

  const venue = (owner: Staff): Promise<Sandbox> =>
    sandboxVenue(t, owner, {
      clock: T0,
      windows: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '16:00', end: '23:10', turnMinutes: 65 }],
      tables: [
        { label: 'K3', capacity: 3 },
        { label: 'K6', capacity: 6 },
        { label: 'K8', capacity: 8 },
      ],
    });

  /** Every row of B's that a call might change, as one comparable picture. */
  const pictureOfB = async (): Promise<unknown> => {
    const q = (sql: string): Promise<unknown> => ds().query(sql, [b.id]);
    return {
      entries: await q(
        'SELECT id, status, version, name, party_size, staff_note, staff_tags FROM queue_entries WHERE venue_id = $1 ORDER BY id',
      ),
      offers: await q('SELECT id, state FROM offers WHERE venue_id = $1 ORDER BY id'),
      reservations: await q('SELECT id, state FROM reservations WHERE venue_id = $1 ORDER BY id'),
      visits: await q('SELECT id, closed_at FROM visits WHERE venue_id = $1 ORDER BY id'),
      tables: await q('SELECT id, label, capacity, retired_at FROM venue_tables WHERE venue_id = $1 ORDER BY id'),
      members: await q('SELECT user_id, role FROM venue_memberships WHERE venue_id = $1 ORDER BY user_id'),
    };
  };

  beforeAll(async () => {
    t = await startApp();
    ownerA = await signUp(t, 'owner-a');
    ownerB = await signUp(t, 'owner-b');
    a = await venue(ownerA);
    b = await venue(ownerB);
    const api = (): request.Agent => t.http();
    // B: a waiting party with an offer, a seated walk-in, a combination, a host and an open invitation.
    const waiting = (await deskJoin(t, ownerB, b.id, party(5)).expect(201)).body as { entry: { id: string; version: number } };
    ids['entry'] = waiting.entry.id;
    const offered = await api()
      .post(`/v1/venues/${b.id}/offers`)
      .set(ownerB.auth)
      .send({ entryId: waiting.entry.id, entryVersion: waiting.entry.version, tableIds: [b.tableIds['K6']] })
      .expect(201);
    ids['offer'] = (offered.body as { offer: { id: string } }).offer.id;
    ids['offerReservation'] = (offered.body as { reservation: { id: string } }).reservation.id;
    const read = await api().get(`/v1/venues/${b.id}/queue/${waiting.entry.id}`).set(ownerB.auth).expect(200);
    ids['entryVersion'] = String((read.body as { version: number }).version);
    const walkIn = await api()
      .post(`/v1/venues/${b.id}/walk-ins`)
      .set(ownerB.auth)
      .set('Idempotency-Key', randomUUID())
      .send({ tableIds: [b.tableIds['K3']], partySize: 2 })
      .expect(201);
    ids['walkInReservation'] = (walkIn.body as { reservation: { id: string } }).reservation.id;
    ids['visit'] = (walkIn.body as { visit: { id: string } }).visit.id;
    const combo = await api()
      .post(`/v1/venues/${b.id}/combinations`)
      .set(ownerB.auth)
      .send({ tableIds: [b.tableIds['K6'], b.tableIds['K8']], capacity: 13 })
      .expect(201);
    ids['combination'] = (combo.body as { id: string }).id;
    const windows = (await api().get(`/v1/venues/${b.id}/service-windows`).set(ownerB.auth).expect(200)).body as Array<{
      id: string;
    }>;
    ids['window'] = windows[0]!.id;
    const host = await addMember(t, b.id, ownerB, 'host');
    ids['host'] = host.userId;
    ids['owner'] = ownerB.userId;
    const invited = await api()
      .post(`/v1/venues/${b.id}/members`)
      .set(ownerB.auth)
      .send({ email: `invitee-${randomUUID()}@example.test`, role: 'manager' })
      .expect(201);
    ids['invitation'] = (invited.body as { invitation: { id: string } }).invitation.id;
  });
  afterAll(() => t.close());

  const calls = (): Array<[string, string, Record<string, unknown>?]> => [
    ['GET', `queue/${ids['entry']}`],
    ['PATCH', `queue/${ids['entry']}`, { partySize: 4, entryVersion: Number(ids['entryVersion']) }],
    ['PUT', `queue/${ids['entry']}/details`, { note: 'mine now' }],
    ['POST', `queue/${ids['entry']}/token`, {}],
    ['POST', `queue/${ids['entry']}/cancel`, {}],
    ['POST', 'offers', { entryId: ids['entry'], entryVersion: Number(ids['entryVersion']), tableIds: [a.tableIds['K6']] }],
    ['POST', 'offers', { entryId: ids['entry'], entryVersion: Number(ids['entryVersion']), tableIds: [b.tableIds['K8']] }],
    ['POST', `offers/${ids['offer']}/accept`, {}],
    ['POST', `offers/${ids['offer']}/withdraw`, {}],
    ['POST', `reservations/${ids['offerReservation']}/cancel`, {}],
    ['POST', `reservations/${ids['offerReservation']}/seat`, {}],
    ['POST', `reservations/${ids['walkInReservation']}/move`, { tableIds: [a.tableIds['K8']] }],
    ['POST', `reservations/${ids['walkInReservation']}/move`, { tableIds: [b.tableIds['K8']] }],
    ['POST', `visits/${ids['visit']}/clear`, {}],
    ['PATCH', `tables/${b.tableIds['K3']}`, { capacity: 9 }],
    ['POST', `tables/${b.tableIds['K8']}/retire`, {}],
    ['POST', 'combinations', { tableIds: [b.tableIds['K3'], b.tableIds['K8']], capacity: 11 }],
    ['DELETE', `combinations/${ids['combination']}`],
    ['DELETE', `service-windows/${ids['window']}`],
    ['DELETE', `invitations/${ids['invitation']}`],
    ['PATCH', `members/${ids['host']}`, { role: 'manager' }],
    ['DELETE', `members/${ids['host']}`],
    ['POST', `members/${ids['host']}/password`, { password: 'a-new-password-7731' }],
    ['PATCH', `members/${ids['owner']}`, { role: 'host' }],
    ['POST', 'walk-ins', { tableIds: [b.tableIds['K8']], partySize: 7 }],
  ];

  it('refuses each call as not found or invalid, and leaves B as it was', async () => {
    const before = await pictureOfB();
    const wrong: Array<{ call: string; status: number; body: unknown }> = [];
    for (const [method, path, body] of calls()) {
      const verb = method.toLowerCase() as 'get' | 'post' | 'patch' | 'put' | 'delete';
      let req = request(t.baseUrl)[verb](`/v1/venues/${a.id}/${path}`).set(ownerA.auth).set('Idempotency-Key', randomUUID());
      if (body) req = req.send(body);
      const res = await req;
      // B's record named through A: not found; a body naming B's tables or entry: invalid or not found.
      if (![400, 404].includes(res.status)) wrong.push({ call: `${method} ${path}`, status: res.status, body: res.body });
    }
    expect(wrong).toEqual([]);
    // The history of B's entry read through A: nothing.
    const history = await request(t.baseUrl)
      .get(`/v1/venues/${a.id}/history?subjectId=${ids['entry']}`)
      .set(ownerA.auth)
      .expect(200);
    expect(history.body).toEqual([]);
    expect(await pictureOfB()).toEqual(before);
  });
});
