import request from 'supertest';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { exchange, joined, sandboxVenue, uniq, type JoinBody, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';

const CLOCK = '2026-11-18T01:20:00.000Z'; // 7:20 PM in Chicago, the sandboxes' standing clock
const LATER = '2026-11-18T01:31:00.000Z'; // a hold's end put back by hand, after the clock

interface Offered {
  offer: { id: string; entryId: string; reservationId: string };
}

/** What one cancellation changed: rows whose columns differ, and the history, messages and board events it added. */
interface Changed {
  rows: Record<string, string>;
  history: string[];
  messages: string[];
  events: string[];
}

/**
 * Cancellations of states no command leaves (each breaks an invariant of ARCHITECTURE.md: a hold
 * with no live offer, a live offer whose party is not `offered`, a confirmed party whose booking is
 * not CONFIRMED or names another party): rows a hand repair, a restore or a bug elsewhere could leave.
 * Each is made here by an update of the rows, then cancelled through HTTP as the board or the party
 * would. What each answers and writes (rows, history, guest messages, board events, the token and
 * sessions, the answer a retry with the same Idempotency-Key replays) is pinned as the one-statement-
 * at-a-time release wrote it, so the release that travels with the COMMIT changes none of it.
 */
describe('cancelling a hold or booking in a state no command leaves', () => {
  let t: TestApp;
  let owner: Staff;
  let v: Sandbox;
  let pool: Sandbox;
  /** Ids to the names the expectations use. */
  const names = new Map<string, string>();
  const ds = (): DataSource => t.app.get<DataSource>(getDataSourceToken());
  /** Rows as text for the pictures below (a count or a time is printed as it comes). */
  const sql = (text: string, params: unknown[] = []): Promise<Array<Record<string, string>>> => ds().query(text, params);

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'owner');
    v = await sandboxVenue(t, owner, {
      clock: CLOCK,
      tables: Array.from({ length: 11 }, (_, i) => ({ label: `U${i + 1}`, capacity: 3 })),
    });
    pool = await sandboxVenue(t, owner, { clock: CLOCK, preset: 'workshop', poolCapacity: 11 });
    names.set(v.id, 'venue');
    names.set(pool.id, 'pool');
    // A cancellation names the tables of the reservation it cancelled.
    for (const [label, id] of Object.entries(v.tableIds)) names.set(id, label);
  });
  afterAll(async () => t.close());

  const keyed = (path: string, key: string, auth: Record<string, string> = owner.auth): request.Test =>
    request(t.baseUrl).post(path).set(auth).set('Idempotency-Key', key).send({});

  /** A party with an email and a phone (both channels hear of an ending), named `name` in the expectations. */
  const join = async (venueId: string, name: string, partySize = 2): Promise<JoinBody> => {
    const p = await joined(t, owner, venueId, {
      name: `Guest ${name}`,
      partySize,
      email: `${name.toLowerCase()}-${uniq()}@example.test`,
      phone: `+1312555${String(1000 + names.size).slice(-4)}`,
    });
    names.set(p.entry.id, name);
    return p;
  };
  const offer = async (p: JoinBody, table: string): Promise<Offered['offer']> => {
    const made = (
      await request(t.baseUrl)
        .post(`/v1/venues/${v.id}/offers`)
        .set(owner.auth)
        .send({ entryId: p.entry.id, entryVersion: p.entry.version, tableIds: [v.tableIds[table]] })
        .expect(201)
    ).body as Offered;
    const name = names.get(p.entry.id) ?? '?';
    names.set(made.offer.id, `${name}.offer`);
    names.set(made.offer.reservationId, `${name}.booking`);
    return made.offer;
  };
  const accept = async (o: Offered['offer']): Promise<void> => {
    await request(t.baseUrl).post(`/v1/venues/${v.id}/offers/${o.id}/accept`).set(owner.auth).send({}).expect(200);
  };

  /** Known ids and the standing clock by name; other ids as `id`. */
  const relabel = (text: string): string =>
    text
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (id) => names.get(id) ?? 'id')
      .replaceAll(CLOCK, 'now');
  const iso = (x: unknown): string | null => (x === null || x === undefined ? null : new Date(x as string).toISOString());

  /** The venue's rows as one line each, and its history, messages and events so far. */
  async function picture(venueId: string): Promise<{
    rows: Map<string, string>;
    history: Map<string, string>;
    messages: Map<string, string>;
    events: Map<string, string>;
  }> {
    const rows = new Map<string, string>();
    for (const r of await sql(
      'SELECT id, state, state_reason, entry_id, updated_at, hold_expires_at FROM reservations WHERE venue_id = $1',
      [venueId],
    ))
      rows.set(
        String(r['id']),
        `${r['state']} reason=${r['state_reason']} entry=${r['entry_id']} updated=${iso(r['updated_at'])} hold=${iso(r['hold_expires_at'])}`,
      );
    for (const r of await sql('SELECT id, status, version FROM queue_entries WHERE venue_id = $1', [venueId]))
      rows.set(String(r['id']), `${r['status']} v${r['version']}`);
    for (const r of await sql('SELECT id, state, resolved_at FROM offers WHERE venue_id = $1', [venueId]))
      rows.set(String(r['id']), `${r['state']} resolved=${iso(r['resolved_at'])}`);
    for (const r of await sql(
      `SELECT e.id,
              (SELECT count(*) FROM queue_tokens k WHERE k.entry_id = e.id AND k.used_at IS NULL AND k.replaced_at IS NULL)::int AS open_tokens,
              (SELECT count(*) FROM queue_sessions s WHERE s.entry_id = e.id AND s.ended_at IS NULL)::int AS open_sessions
         FROM queue_entries e WHERE e.venue_id = $1`,
      [venueId],
    ))
      rows.set(`${String(r['id'])} credentials`, `tokens=${r['open_tokens']} sessions=${r['open_sessions']}`);
    for (const r of await sql('SELECT pool_held, pool_confirmed, version FROM venues WHERE id = $1', [venueId]))
      rows.set(`${venueId} counts`, `held=${r['pool_held']} confirmed=${r['pool_confirmed']}`);
    const history = new Map<string, string>();
    for (const r of await sql(
      `SELECT id, subject_type, subject_id, from_state, to_state, at, actor, operation_id, reason FROM history WHERE venue_id = $1 ORDER BY id`,
      [venueId],
    ))
      history.set(
        String(r['id']),
        `${r['subject_type']} ${r['subject_id']} ${r['from_state']}->${r['to_state']} at=${iso(r['at'])} actor=${r['actor']} op=${r['operation_id']} reason=${r['reason']}`,
      );
    const messages = new Map<string, string>();
    for (const r of await sql(
      `SELECT id, channel, template, entry_id, reservation_id, created_at, status FROM outbox_messages WHERE venue_id = $1 ORDER BY created_at, channel`,
      [venueId],
    ))
      messages.set(
        String(r['id']),
        `${r['channel']} ${r['template']} entry=${r['entry_id']} reservation=${r['reservation_id']} at=${iso(r['created_at'])} ${r['status']}`,
      );
    const events = new Map<string, string>();
    for (const r of await sql('SELECT version, type, data FROM board_events WHERE venue_id = $1 ORDER BY version', [venueId])) {
      const data = typeof r['data'] === 'string' ? (JSON.parse(r['data']) as object) : (r['data'] as object);
      events.set(String(r['version']), `${r['type']} ${canon(data)}`);
    }
    return { rows, history, messages, events };
  }

  /** What `act` changed at the venue, by name. */
  async function changedBy(venueId: string, act: () => Promise<void>): Promise<Changed> {
    const before = await picture(venueId);
    await act();
    const after = await picture(venueId);
    const rows: Record<string, string> = {};
    for (const [id, line] of after.rows) if (before.rows.get(id) !== line) rows[relabel(id)] = relabel(line);
    const added = (b: Map<string, string>, a: Map<string, string>): string[] =>
      [...a].filter(([id]) => !b.has(id)).map(([, line]) => relabel(line));
    return {
      rows,
      history: added(before.history, after.history),
      messages: added(before.messages, after.messages),
      events: added(before.events, after.events),
    };
  }

  /** `path` with a fresh Idempotency-Key: its status and body, relabelled; the same key again replays them and changes nothing. */
  async function cancelled(
    venueId: string,
    path: string,
    auth?: Record<string, string>,
  ): Promise<{ status: number; body: unknown; changed: Changed }> {
    const key = `unusual-${uniq()}`;
    const answerOf = (res: request.Response): { status: number; body: unknown } => ({
      status: res.status,
      body: JSON.parse(relabel(JSON.stringify(res.body))) as unknown,
    });
    let answer = { status: 0, body: {} as unknown };
    const changed = await changedBy(venueId, async () => {
      answer = answerOf(await keyed(path, key, auth));
    });
    const replayed = await changedBy(venueId, async () => {
      expect(answerOf(await keyed(path, key, auth))).toEqual(answer);
    });
    expect(replayed).toEqual({ rows: {}, history: [], messages: [], events: [] });
    return { ...answer, changed };
  }

  it('a hold with no live offer whose party is confirmed: released, the party removed and told, as a booking is', async () => {
    const a = await join(v.id, 'Ana');
    const offered = await offer(a, 'U1');
    await accept(offered);
    await sql(`UPDATE reservations SET state = 'HELD', hold_expires_at = $2 WHERE id = $1`, [offered.reservationId, LATER]);
    expect(await cancelled(v.id, `/v1/venues/${v.id}/reservations/${offered.reservationId}/cancel`)).toEqual({
      status: 200,
      body: {
        released: true,
        reservation: {
          createdAt: 'now',
          entryId: 'Ana',
          holdExpiresAt: '2026-11-18T01:31:00.000Z',
          id: 'Ana.booking',
          kind: 'tables',
          name: 'Guest Ana',
          partySize: 2,
          state: 'CANCELLED',
          stateReason: 'cancelled',
          tableIds: ['U1'],
          termsVersion: 'v1',
          updatedAt: 'now',
          confirmedAt: 'now',
        },
      },
      changed: {
        rows: {
          'Ana.booking': 'CANCELLED reason=cancelled entry=Ana updated=now hold=2026-11-18T01:31:00.000Z',
          Ana: 'cancelled v4',
          'Ana credentials': 'tokens=0 sessions=0',
        },
        history: [
          'reservation Ana.booking HELD->CANCELLED at=now actor=staff:id op=cancel-reservation-Ana.booking reason=null',
          'entry Ana confirmed->cancelled at=now actor=staff:id op=cancel-reservation-Ana.booking reason=null',
        ],
        messages: [
          'email queue-removed entry=Ana reservation=Ana.booking at=now recorded',
          'sms queue-removed entry=Ana reservation=Ana.booking at=now recorded',
        ],
        events: ['reservation.cancelled {"by":"staff","entryId":"Ana","name":"Guest Ana","reservationId":"Ana.booking"}'],
      },
    });
  });

  it('a hold whose offer ended without it (the party still offered): released, the party left as it is', async () => {
    const b = await join(v.id, 'Bruno');
    const offered = await offer(b, 'U2');
    await sql(`UPDATE offers SET state = 'expired', resolved_at = $2 WHERE id = $1`, [offered.id, CLOCK]);
    expect(await cancelled(v.id, `/v1/venues/${v.id}/reservations/${offered.reservationId}/cancel`)).toEqual({
      status: 200,
      body: {
        released: true,
        reservation: {
          createdAt: 'now',
          entryId: 'Bruno',
          holdExpiresAt: '2026-11-18T01:25:00.000Z',
          id: 'Bruno.booking',
          kind: 'tables',
          name: 'Guest Bruno',
          partySize: 2,
          state: 'CANCELLED',
          stateReason: 'cancelled',
          tableIds: ['U2'],
          termsVersion: 'v1',
          updatedAt: 'now',
          confirmedAt: null,
        },
      },
      changed: {
        rows: { 'Bruno.booking': 'CANCELLED reason=cancelled entry=Bruno updated=now hold=2026-11-18T01:25:00.000Z' },
        history: [
          'reservation Bruno.booking HELD->CANCELLED at=now actor=staff:id op=cancel-reservation-Bruno.booking reason=null',
        ],
        messages: [],
        events: ['reservation.cancelled {"by":"staff","entryId":"Bruno","name":"Guest Bruno","reservationId":"Bruno.booking"}'],
      },
    });
  });

  it('a workshop hold whose promotion ended without it: released, its seats free again', async () => {
    const m = await join(pool.id, 'Mia', 3);
    const promoted = (await request(t.baseUrl).post(`/v1/venues/${pool.id}/promotions`).set(owner.auth).send({}).expect(201))
      .body as Offered;
    names.set(promoted.offer.id, 'Mia.offer');
    names.set(promoted.offer.reservationId, 'Mia.booking');
    expect(promoted.offer.entryId).toBe(m.entry.id);
    await sql(`UPDATE offers SET state = 'expired', resolved_at = $2 WHERE id = $1`, [promoted.offer.id, CLOCK]);
    expect(await cancelled(pool.id, `/v1/venues/${pool.id}/reservations/${promoted.offer.reservationId}/cancel`)).toEqual({
      status: 200,
      body: {
        released: true,
        reservation: {
          createdAt: 'now',
          entryId: 'Mia',
          holdExpiresAt: '2026-11-18T01:50:00.000Z',
          id: 'Mia.booking',
          kind: 'pool',
          name: 'Guest Mia',
          partySize: 3,
          state: 'CANCELLED',
          stateReason: 'cancelled',
          tableIds: [],
          termsVersion: 'v1',
          updatedAt: 'now',
          confirmedAt: null,
        },
      },
      changed: {
        rows: {
          'Mia.booking': 'CANCELLED reason=cancelled entry=Mia updated=now hold=2026-11-18T01:50:00.000Z',
          'pool counts': 'held=0 confirmed=0',
        },
        history: ['reservation Mia.booking HELD->CANCELLED at=now actor=staff:id op=cancel-reservation-Mia.booking reason=null'],
        messages: [],
        events: ['reservation.cancelled {"by":"staff","entryId":"Mia","name":"Guest Mia","reservationId":"Mia.booking"}'],
      },
    });
  });

  it('a live offer whose party is no longer offered: the offer ends as cancelled, the party is told and its token stops', async () => {
    const c = await join(v.id, 'Cleo');
    const offered = await offer(c, 'U3');
    await sql(`UPDATE queue_entries SET status = 'waiting' WHERE id = $1`, [c.entry.id]);
    expect(await cancelled(v.id, `/v1/venues/${v.id}/reservations/${offered.reservationId}/cancel`)).toEqual({
      status: 200,
      body: {
        released: true,
        reservation: {
          createdAt: 'now',
          entryId: 'Cleo',
          holdExpiresAt: '2026-11-18T01:25:00.000Z',
          id: 'Cleo.booking',
          kind: 'tables',
          name: 'Guest Cleo',
          partySize: 2,
          state: 'CANCELLED',
          stateReason: 'cancelled',
          tableIds: ['U3'],
          termsVersion: 'v1',
          updatedAt: 'now',
          confirmedAt: null,
        },
      },
      changed: {
        rows: {
          'Cleo.booking': 'CANCELLED reason=cancelled entry=Cleo updated=now hold=2026-11-18T01:25:00.000Z',
          'Cleo.offer': 'cancelled resolved=now',
          'Cleo credentials': 'tokens=0 sessions=0',
        },
        history: [
          'offer Cleo.offer live->cancelled at=now actor=staff:id op=cancel-reservation-Cleo.booking reason=cancelled',
          'reservation Cleo.booking HELD->CANCELLED at=now actor=staff:id op=cancel-reservation-Cleo.booking reason=cancelled',
          'entry Cleo offered->cancelled at=now actor=staff:id op=cancel-reservation-Cleo.booking reason=cancelled',
        ],
        messages: [
          'email queue-removed entry=Cleo reservation=Cleo.booking at=now recorded',
          'sms queue-removed entry=Cleo reservation=Cleo.booking at=now recorded',
        ],
        events: [
          'offer.cancelled {"by":"staff","entryId":"Cleo","entryStatus":"cancelled","offerId":"Cleo.offer","reservationId":"Cleo.booking"}',
        ],
      },
    });
  });

  it("a live offer whose hold names another party: the offer's party leaves, the other is untouched", async () => {
    const d = await join(v.id, 'Dara');
    const other = await join(v.id, 'Dov');
    const offered = await offer(d, 'U4');
    await sql(`UPDATE reservations SET entry_id = $2 WHERE id = $1`, [offered.reservationId, other.entry.id]);
    expect(await cancelled(v.id, `/v1/venues/${v.id}/reservations/${offered.reservationId}/cancel`)).toEqual({
      status: 200,
      body: {
        released: true,
        reservation: {
          createdAt: 'now',
          entryId: 'Dov',
          holdExpiresAt: '2026-11-18T01:25:00.000Z',
          id: 'Dara.booking',
          kind: 'tables',
          name: 'Guest Dara',
          partySize: 2,
          state: 'CANCELLED',
          stateReason: 'cancelled',
          tableIds: ['U4'],
          termsVersion: 'v1',
          updatedAt: 'now',
          confirmedAt: null,
        },
      },
      changed: {
        rows: {
          'Dara.booking': 'CANCELLED reason=cancelled entry=Dov updated=now hold=2026-11-18T01:25:00.000Z',
          Dara: 'cancelled v3',
          'Dara.offer': 'cancelled resolved=now',
          'Dara credentials': 'tokens=0 sessions=0',
        },
        history: [
          'offer Dara.offer live->cancelled at=now actor=staff:id op=cancel-reservation-Dara.booking reason=cancelled',
          'reservation Dara.booking HELD->CANCELLED at=now actor=staff:id op=cancel-reservation-Dara.booking reason=cancelled',
          'entry Dara offered->cancelled at=now actor=staff:id op=cancel-reservation-Dara.booking reason=cancelled',
        ],
        messages: [
          'email queue-removed entry=Dara reservation=Dara.booking at=now recorded',
          'sms queue-removed entry=Dara reservation=Dara.booking at=now recorded',
        ],
        events: [
          'offer.cancelled {"by":"staff","entryId":"Dara","entryStatus":"cancelled","offerId":"Dara.offer","reservationId":"Dara.booking"}',
        ],
      },
    });
  });

  it('a seated booking: released false, nothing changes', async () => {
    const e = await join(v.id, 'Emil');
    const offered = await offer(e, 'U5');
    await accept(offered);
    await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/reservations/${offered.reservationId}/seat`)
      .set(owner.auth)
      .send({})
      .expect(201);
    expect(await cancelled(v.id, `/v1/venues/${v.id}/reservations/${offered.reservationId}/cancel`)).toEqual({
      status: 200,
      body: {
        released: false,
        reservation: {
          createdAt: 'now',
          entryId: 'Emil',
          holdExpiresAt: '2026-11-18T01:25:00.000Z',
          id: 'Emil.booking',
          kind: 'tables',
          name: 'Guest Emil',
          partySize: 2,
          state: 'SEATED',
          stateReason: null,
          tableIds: ['U5'],
          termsVersion: 'v1',
          updatedAt: 'now',
          confirmedAt: 'now',
        },
      },
      changed: { rows: {}, history: [], messages: [], events: [] },
    });
  });

  it('a confirmed party whose booking is seated: the entry as it is, no booking cancelled, nothing changes', async () => {
    const f = await join(v.id, 'Fay');
    const offered = await offer(f, 'U6');
    await accept(offered);
    await request(t.baseUrl)
      .post(`/v1/venues/${v.id}/reservations/${offered.reservationId}/seat`)
      .set(owner.auth)
      .send({})
      .expect(201);
    await sql(`UPDATE queue_entries SET status = 'confirmed' WHERE id = $1`, [f.entry.id]);
    expect(await cancelled(v.id, `/v1/venues/${v.id}/queue/${f.entry.id}/cancel`)).toEqual({
      status: 200,
      body: {
        entry: {
          businessDate: '2026-11-17',
          id: 'Fay',
          name: 'Guest Fay',
          partySize: 2,
          queueSequence: 7,
          receivedAt: 'now',
          status: 'confirmed',
          version: 4,
        },
      },
      changed: { rows: {}, history: [], messages: [], events: [] },
    });
  });

  it('a confirmed party whose booking is HELD leaves from its phone: both cancelled, the history saying what the booking was (HELD)', async () => {
    const g = await join(v.id, 'Gus');
    const session = (await exchange(t, g.queueToken ?? '').expect(201)).body as { sessionToken: string };
    const offered = await offer(g, 'U7');
    await accept(offered);
    await sql(`UPDATE reservations SET state = 'HELD', hold_expires_at = $2 WHERE id = $1`, [offered.reservationId, LATER]);
    expect(await cancelled(v.id, '/v1/queue-session/leave', { Authorization: `QueueSession ${session.sessionToken}` })).toEqual({
      status: 200,
      body: {
        cancelledBooking: {
          createdAt: 'now',
          entryId: 'Gus',
          holdExpiresAt: '2026-11-18T01:31:00.000Z',
          id: 'Gus.booking',
          kind: 'tables',
          name: 'Guest Gus',
          partySize: 2,
          state: 'CANCELLED',
          stateReason: 'cancelled',
          tableIds: ['U7'],
          termsVersion: 'v1',
          updatedAt: 'now',
          confirmedAt: 'now',
        },
        entry: {
          businessDate: '2026-11-17',
          id: 'Gus',
          name: 'Guest Gus',
          partySize: 2,
          queueSequence: 8,
          receivedAt: 'now',
          status: 'cancelled',
          version: 4,
        },
      },
      changed: {
        rows: {
          'Gus.booking': 'CANCELLED reason=cancelled entry=Gus updated=now hold=2026-11-18T01:31:00.000Z',
          Gus: 'cancelled v4',
          'Gus credentials': 'tokens=0 sessions=0',
        },
        history: [
          'reservation Gus.booking HELD->CANCELLED at=now actor=party:Gus op=cancel-entry-Gus reason=null',
          'entry Gus confirmed->cancelled at=now actor=party:Gus op=cancel-entry-Gus reason=null',
        ],
        messages: [
          'email queue-left entry=Gus reservation=Gus.booking at=now recorded',
          'sms queue-left entry=Gus reservation=Gus.booking at=now recorded',
        ],
        events: ['reservation.cancelled {"by":"party","entryId":"Gus","name":"Guest Gus","reservationId":"Gus.booking"}'],
      },
    });
  });

  it('a confirmed party whose booking names another confirmed party: the booking and that party cancelled, this entry as it is', async () => {
    const h = await join(v.id, 'Hana');
    const other = await join(v.id, 'Hugo');
    const offered = await offer(h, 'U8');
    await accept(offered);
    await accept(await offer(other, 'U9'));
    await sql(`UPDATE reservations SET entry_id = $2 WHERE id = $1`, [offered.reservationId, other.entry.id]);
    expect(await cancelled(v.id, `/v1/venues/${v.id}/queue/${h.entry.id}/cancel`)).toEqual({
      status: 200,
      body: {
        cancelledBooking: {
          createdAt: 'now',
          entryId: 'Hugo',
          holdExpiresAt: '2026-11-18T01:25:00.000Z',
          id: 'Hana.booking',
          kind: 'tables',
          name: 'Guest Hana',
          partySize: 2,
          state: 'CANCELLED',
          stateReason: 'cancelled',
          tableIds: ['U8'],
          termsVersion: 'v1',
          updatedAt: 'now',
          confirmedAt: 'now',
        },
        entry: {
          businessDate: '2026-11-17',
          id: 'Hana',
          name: 'Guest Hana',
          partySize: 2,
          queueSequence: 9,
          receivedAt: 'now',
          status: 'confirmed',
          version: 3,
        },
      },
      changed: {
        rows: {
          'Hana.booking': 'CANCELLED reason=cancelled entry=Hugo updated=now hold=2026-11-18T01:25:00.000Z',
          Hugo: 'cancelled v4',
          'Hugo credentials': 'tokens=0 sessions=0',
        },
        history: [
          'reservation Hana.booking CONFIRMED->CANCELLED at=now actor=staff:id op=cancel-entry-Hana reason=null',
          'entry Hugo confirmed->cancelled at=now actor=staff:id op=cancel-entry-Hana reason=null',
        ],
        messages: [
          'email queue-removed entry=Hugo reservation=Hana.booking at=now recorded',
          'sms queue-removed entry=Hugo reservation=Hana.booking at=now recorded',
        ],
        events: ['reservation.cancelled {"by":"staff","entryId":"Hugo","name":"Guest Hana","reservationId":"Hana.booking"}'],
      },
    });
  });

  it('a confirmed party whose booking names no party: the booking cancelled, the entry as it is', async () => {
    const k = await join(v.id, 'Kai');
    const offered = await offer(k, 'U10');
    await accept(offered);
    await sql(`UPDATE reservations SET entry_id = NULL WHERE id = $1`, [offered.reservationId]);
    expect(await cancelled(v.id, `/v1/venues/${v.id}/queue/${k.entry.id}/cancel`)).toEqual({
      status: 200,
      body: {
        cancelledBooking: {
          createdAt: 'now',
          entryId: null,
          holdExpiresAt: '2026-11-18T01:25:00.000Z',
          id: 'Kai.booking',
          kind: 'tables',
          name: 'Guest Kai',
          partySize: 2,
          state: 'CANCELLED',
          stateReason: 'cancelled',
          tableIds: ['U10'],
          termsVersion: 'v1',
          updatedAt: 'now',
          confirmedAt: 'now',
        },
        entry: {
          businessDate: '2026-11-17',
          id: 'Kai',
          name: 'Guest Kai',
          partySize: 2,
          queueSequence: 11,
          receivedAt: 'now',
          status: 'confirmed',
          version: 3,
        },
      },
      changed: {
        rows: { 'Kai.booking': 'CANCELLED reason=cancelled entry=null updated=now hold=2026-11-18T01:25:00.000Z' },
        history: ['reservation Kai.booking CONFIRMED->CANCELLED at=now actor=staff:id op=cancel-entry-Kai reason=null'],
        messages: [],
        events: ['reservation.cancelled {"by":"staff","entryId":null,"name":"Guest Kai","reservationId":"Kai.booking"}'],
      },
    });
  });

  it('a confirmed party with no accepted offer: the entry as it is, nothing changes', async () => {
    const l = await join(v.id, 'Lia');
    const offered = await offer(l, 'U11');
    await accept(offered);
    await sql(`UPDATE offers SET state = 'withdrawn' WHERE id = $1`, [offered.id]);
    expect(await cancelled(v.id, `/v1/venues/${v.id}/queue/${l.entry.id}/cancel`)).toEqual({
      status: 200,
      body: {
        entry: {
          businessDate: '2026-11-17',
          id: 'Lia',
          name: 'Guest Lia',
          partySize: 2,
          queueSequence: 12,
          receivedAt: 'now',
          status: 'confirmed',
          version: 3,
        },
      },
      changed: { rows: {}, history: [], messages: [], events: [] },
    });
  });
});

/** JSON with every object's keys in order: a stored answer comes back from jsonb in its own order. */
function canon(x: unknown): string {
  if (Array.isArray(x)) return `[${x.map(canon).join(',')}]`;
  if (x !== null && typeof x === 'object')
    return `{${Object.keys(x)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canon((x as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(x);
}
