import request from 'supertest';
import { BoardClient, waitFor, type BoardEvent } from '../support/board-client.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { addMember, signUp, type Staff } from '../support/staff.js';
import { exchange, joined, moveClock, party, queueSession, sandboxVenue } from '../support/restaurant.js';

/**
 * Parties who accepted a table but are not seated yet (UI review of an evening): the board snapshot
 * lists them in `toSeat` with their tables and since when, their tables read booked (not free) and
 * are counted booked even after their slot has passed, until the host seats them or cancels the
 * booking as a no-show. The board events say who acted (the party from its phone, or staff) and name
 * the party, so a board can tell the host.
 */
const CLOCK = '2026-06-12T23:00:00.000Z'; // 6 PM in Chicago
const LATER = '2026-06-12T23:50:00.000Z'; // past the 30-minute turn of both offers

interface ToSeat {
  reservationId: string;
  entryId: string | null;
  name: string;
  partySize: number;
  tableIds: string[];
  slot: { start: string; end: string };
  confirmedAt: string;
}
interface Board {
  counts: { tables: number; free: number; held: number; booked: number; occupied: number };
  tables: Array<{ id: string; label: string; state: string; placement: { reservationId: string; state: string } | null }>;
  queue: Array<{ id: string }>;
  toSeat: ToSeat[];
}

describe('board: confirmed parties to be seated', () => {
  let t: TestApp;
  let owner: Staff;
  const api = () => request(t.baseUrl);

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'to-seat-owner');
  });
  afterAll(() => t.close());

  it('lists accepted parties with their tables until seated or cancelled, and keeps their tables booked past the slot', async () => {
    const v = await sandboxVenue(t, owner, {
      clock: CLOCK,
      windows: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '17:00', end: '23:59', turnMinutes: 30 }],
      tables: [
        { label: 'T1', capacity: 2 },
        { label: 'T2', capacity: 4 },
        { label: 'T3', capacity: 4 },
      ],
    });
    const host = await addMember(t, v.id, owner, 'host');
    const board = async (): Promise<Board> =>
      (await api().get(`/v1/venues/${v.id}/board`).set(host.auth).expect(200)).body as Board;
    const events = new BoardClient(t.baseUrl, host.token);
    await events.connected();
    await events.subscribe(v.id);

    const ada = await joined(t, host, v.id, party(2, 'Ada Lovelace'));
    const bea = await joined(t, host, v.id, party(3, 'Bea Noshow'));
    const offer = async (entryId: string, version: number, table: string): Promise<string> =>
      (
        (
          await api()
            .post(`/v1/venues/${v.id}/offers`)
            .set(host.auth)
            .send({ entryId, entryVersion: version, tableIds: [v.tableIds[table]] })
            .expect(201)
        ).body as { offer: { id: string } }
      ).offer.id;
    await offer(ada.entry.id, ada.entry.version, 'T1');
    const beaOffer = await offer(bea.entry.id, bea.entry.version, 'T2');

    // Ada accepts from her phone (her own queue session); Bea's offer is accepted by staff.
    const session = (await exchange(t, ada.queueToken as string).expect(201)).body as { sessionToken: string };
    await api().post('/v1/queue-session/accept').set(queueSession(session.sessionToken)).send({}).expect(200);
    await api().post(`/v1/venues/${v.id}/offers/${beaOffer}/accept`).set(host.auth).expect(200);

    await waitFor(() => events.events.filter((e) => e.type === 'offer.accepted').length === 2, 5000, 'two acceptances');
    const accepted = events.events.filter((e) => e.type === 'offer.accepted');
    expect(accepted.map((e) => e.data)).toEqual([
      expect.objectContaining({
        entryId: ada.entry.id,
        by: 'party',
        name: 'Ada Lovelace',
        partySize: 2,
        tableIds: [v.tableIds['T1']],
      }),
      expect.objectContaining({
        entryId: bea.entry.id,
        by: 'staff',
        name: 'Bea Noshow',
        partySize: 3,
        tableIds: [v.tableIds['T2']],
      }),
    ]);

    let b = await board();
    expect(b.queue).toEqual([]);
    expect(b.toSeat).toEqual([
      {
        reservationId: expect.any(String) as string,
        entryId: ada.entry.id,
        name: 'Ada Lovelace',
        partySize: 2,
        tableIds: [v.tableIds['T1']],
        slot: { start: CLOCK, end: '2026-06-12T23:30:00.000Z' },
        confirmedAt: CLOCK,
      },
      expect.objectContaining({ entryId: bea.entry.id, name: 'Bea Noshow', partySize: 3, tableIds: [v.tableIds['T2']] }),
    ]);
    expect(b.counts).toEqual({ tables: 3, free: 1, held: 0, booked: 2, occupied: 0 });

    // The practice clock moves past both slots: they are still expected, their tables not free.
    await moveClock(t, owner, v.id, LATER);
    b = await board();
    expect(b.toSeat.map((p) => p.name)).toEqual(['Ada Lovelace', 'Bea Noshow']);
    expect(b.counts).toEqual({ tables: 3, free: 1, held: 0, booked: 2, occupied: 0 });
    expect(b.tables.filter((x) => x.state === 'booked').map((x) => x.label)).toEqual(['T1', 'T2']);
    const [adaRes, beaRes] = b.toSeat.map((p) => p.reservationId);

    // Ada arrives: seated, off the list, her table occupied.
    await api().post(`/v1/venues/${v.id}/reservations/${adaRes}/seat`).set(host.auth).expect(201);
    b = await board();
    expect(b.toSeat.map((p) => p.name)).toEqual(['Bea Noshow']);
    expect(b.tables.find((x) => x.label === 'T1')?.state).toBe('occupied');

    // Bea never comes: the host cancels her booking (a no-show); her table is free again.
    await api().post(`/v1/venues/${v.id}/reservations/${beaRes}/cancel`).set(host.auth).expect(200);
    b = await board();
    expect(b.toSeat).toEqual([]);
    expect(b.counts).toEqual({ tables: 3, free: 2, held: 0, booked: 0, occupied: 1 });
    await waitFor(() => events.events.some((e) => e.type === 'reservation.cancelled'), 5000, 'the cancellation');
    expect(events.events.find((e) => e.type === 'reservation.cancelled')?.data).toEqual({
      reservationId: beaRes,
      entryId: bea.entry.id,
      by: 'staff',
      name: 'Bea Noshow',
    });
    events.close();
  });

  it('says the party left from its phone, whether it was waiting, holding an offer or confirmed', async () => {
    const v = await sandboxVenue(t, owner, {
      clock: CLOCK,
      tables: [
        { label: 'T1', capacity: 4 },
        { label: 'T2', capacity: 4 },
      ],
    });
    const events = new BoardClient(t.baseUrl, owner.token);
    await events.connected();
    await events.subscribe(v.id);
    const leave = async (token: string): Promise<void> => {
      const s = (await exchange(t, token).expect(201)).body as { sessionToken: string };
      await api().post('/v1/queue-session/leave').set(queueSession(s.sessionToken)).send({}).expect(200);
    };
    const kat = await joined(t, owner, v.id, party(2, 'Katherine'));
    const off = await joined(t, owner, v.id, party(2, 'Otto Offered'));
    const con = await joined(t, owner, v.id, party(2, 'Cora Confirmed'));
    const staffGone = await joined(t, owner, v.id, party(2, 'Sam Removed'));
    const offerTo = async (e: typeof off, table: string): Promise<string> =>
      (
        (
          await api()
            .post(`/v1/venues/${v.id}/offers`)
            .set(owner.auth)
            .send({ entryId: e.entry.id, entryVersion: e.entry.version, tableIds: [v.tableIds[table]] })
            .expect(201)
        ).body as { offer: { id: string } }
      ).offer.id;
    await offerTo(off, 'T1');
    const conOffer = await offerTo(con, 'T2');
    await api().post(`/v1/venues/${v.id}/offers/${conOffer}/accept`).set(owner.auth).expect(200);

    await leave(kat.queueToken as string);
    await leave(off.queueToken as string);
    await leave(con.queueToken as string);
    await api().post(`/v1/venues/${v.id}/queue/${staffGone.entry.id}/cancel`).set(owner.auth).expect(200);

    const left = (e: BoardEvent): boolean => ['entry.cancelled', 'offer.cancelled', 'reservation.cancelled'].includes(e.type);
    await waitFor(() => events.events.filter(left).length === 4, 5000, 'four leavings');
    expect(events.events.filter(left).map((e) => [e.type, e.data['entryId'], e.data['by']])).toEqual([
      ['entry.cancelled', kat.entry.id, 'party'],
      ['offer.cancelled', off.entry.id, 'party'],
      ['reservation.cancelled', con.entry.id, 'party'],
      ['entry.cancelled', staffGone.entry.id, 'staff'],
    ]);
    expect(events.events.find((e) => e.type === 'entry.cancelled')?.data['name']).toBe('Katherine');
    expect(events.events.find((e) => e.type === 'reservation.cancelled')?.data['name']).toBe('Cora Confirmed');
    // The confirmed party's booking was cancelled with it: nobody is left to be seated.
    const b = (await api().get(`/v1/venues/${v.id}/board`).set(owner.auth).expect(200)).body as Board;
    expect(b.toSeat).toEqual([]);
    expect(b.counts.free).toBe(2);
    events.close();
  });
});
