import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { violations } from '../support/invariants.js';
import { errorOf, EVERY_DAY, joined, party, refusal } from '../support/restaurant.js';
import { ManualClock, startApp, type TestApp } from '../support/test-app.js';
import { createVenue, signIn, signUp, type Staff } from '../support/staff.js';

/**
 * A table's resize or retirement is refused while a party holds it ("Table K5 is offered to …"). A
 * hold whose deadline has passed holds nothing, even before the expiry job or any request has swept
 * it (a late job, a worker down): the manager's change sweeps the venue's lapsed holds first, as an
 * offer, an acceptance and a join do, and then goes through. The app's clock is a manual one, so a
 * hold lapses with nothing to sweep it (a sandbox's clock move sweeps as it moves).
 */
const WEDNESDAY_1915_LISBON = new Date('2026-11-18T19:15:00.000Z'); // 19:15 WET
const HOLD_SECONDS = 480;

interface OfferBody {
  offer: { id: string; expiresAt: string };
  reservation: { id: string };
}

interface HistoryBody {
  subjectId: string;
  from: string | null;
  to: string;
  actor: string;
  at: string;
}

describe('a table resized or retired after its hold lapsed, before anything swept it', () => {
  let t: TestApp;
  let owner: Staff;
  const clock = new ManualClock(WEDNESDAY_1915_LISBON);
  const api = (): request.Agent => t.http();
  const ds = (): DataSource => t.app.get<DataSource>(getDataSourceToken());

  beforeAll(async () => {
    t = await startApp({ clock });
    owner = await signUp(t, 'resize-lapsed');
  });
  afterEach(async () => expect(await violations(ds())).toEqual([]));
  afterAll(() => t.close());

  /** A live Lisbon restaurant (18:00–23:30, 70-minute turns, 8-minute holds), a 5-top and a 4-top; a party of 4 offered the 5-top. */
  const offered = async (): Promise<{ venueId: string; k5: string; m4: string; entryId: string; o: OfferBody }> => {
    clock.set(WEDNESDAY_1915_LISBON);
    owner = await signIn(t, owner.email, owner.password);
    const v = await createVenue(t, owner, { timeZone: 'Europe/Lisbon' });
    await api()
      .post(`/v1/venues/${v.id}/service-windows`)
      .set(owner.auth)
      .send({ days: EVERY_DAY, start: '18:00', end: '23:30', turnMinutes: 70 })
      .expect(201);
    const table = async (label: string, capacity: number): Promise<string> =>
      (
        (await api().post(`/v1/venues/${v.id}/tables`).set(owner.auth).send({ label, capacity }).expect(201)).body as {
          id: string;
        }
      ).id;
    const k5 = await table('K5', 5);
    const m4 = await table('M4', 4);
    await api()
      .patch(`/v1/venues/${v.id}`)
      .set(owner.auth)
      .send({ policy: { holdSeconds: HOLD_SECONDS, onOfferExpired: 'keep-place' } })
      .expect(200);
    const w = await joined(t, owner, v.id, party(4, 'Rui Tavares'));
    const o = (
      await api()
        .post(`/v1/venues/${v.id}/offers`)
        .set(owner.auth)
        .set('Idempotency-Key', randomUUID())
        .send({ entryId: w.entry.id, entryVersion: w.entry.version, tableIds: [k5] })
        .expect(201)
    ).body as OfferBody;
    return { venueId: v.id, k5, m4, entryId: w.entry.id, o };
  };
  const at = async (instant: number): Promise<void> => {
    clock.set(new Date(instant));
    owner = await signIn(t, owner.email, owner.password);
  };
  const resize = (venueId: string, tableId: string, capacity: number): request.Test =>
    api().patch(`/v1/venues/${venueId}/tables/${tableId}`).set(owner.auth).send({ capacity });
  const retire = (venueId: string, tableId: string): request.Test =>
    api().post(`/v1/venues/${venueId}/tables/${tableId}/retire`).set(owner.auth).send({});

  it('a live hold still keeps its seats, one second before its deadline', async () => {
    const v = await offered();
    await at(Date.parse(v.o.offer.expiresAt) - 1000);
    const smaller = await resize(v.venueId, v.k5, 3);
    expect(refusal(smaller)).toEqual({ status: 409, code: 'CONFLICT' });
    expect(errorOf(smaller).message).toBe(
      'Table K5 is offered to Rui Tavares, a party of 4: it keeps at least 4 seats until they are done.',
    );
    expect(refusal(await retire(v.venueId, v.k5))).toEqual({ status: 409, code: 'CONFLICT' });
  });

  it('a lapsed hold: the resize goes through, and the hold is recorded expired at its deadline', async () => {
    const v = await offered();
    await at(Date.parse(v.o.offer.expiresAt) + 3 * 60_000);
    const res = await resize(v.venueId, v.k5, 3);
    expect(res.status).toBe(200);
    expect((res.body as { capacity: number }).capacity).toBe(3);
    const history = (await api().get(`/v1/venues/${v.venueId}/history?subjectId=${v.o.offer.id}`).set(owner.auth).expect(200))
      .body as HistoryBody[];
    expect(history.map((h) => [h.to, h.actor, h.at])).toEqual([
      ['expired', 'system', v.o.offer.expiresAt],
      ['live', `staff:${owner.userId}`, expect.any(String)],
    ]);
    // The party went back to waiting, place kept; nothing is held now.
    const queue = (await api().get(`/v1/venues/${v.venueId}/queue`).set(owner.auth).expect(200)).body as {
      entries: Array<{ id: string; status: string }>;
    };
    expect(queue.entries.map((e) => [e.id, e.status])).toEqual([[v.entryId, 'waiting']]);
    const counts = (await api().get(`/v1/venues/${v.venueId}/counts`).set(owner.auth).expect(200)).body as { held: number };
    expect(counts.held).toBe(0);
  });

  it('a lapsed hold: the table can be retired', async () => {
    const v = await offered();
    await at(Date.parse(v.o.offer.expiresAt));
    const res = await retire(v.venueId, v.k5);
    expect(res.status).toBe(200);
    const tables = (await api().get(`/v1/venues/${v.venueId}/tables`).set(owner.auth).expect(200)).body as Array<{ id: string }>;
    expect(tables.map((x) => x.id)).toEqual([v.m4]);
  });

  it('a lapsed hold elsewhere is swept, and a party still seated here keeps the refusal', async () => {
    const v = await offered();
    await api()
      .post(`/v1/venues/${v.venueId}/walk-ins`)
      .set(owner.auth)
      .set('Idempotency-Key', randomUUID())
      .send({ tableIds: [v.m4], partySize: 4, name: 'Ana Seated' })
      .expect(201);
    await at(Date.parse(v.o.offer.expiresAt) + 60_000);
    const smaller = await resize(v.venueId, v.m4, 2);
    expect(errorOf(smaller).message).toBe(
      'Table M4 is occupied by Ana Seated, a party of 4: it keeps at least 4 seats until they are done.',
    );
    // The refusal still ended the lapsed hold on K5 (the sweep stands on its own), read before any
    // other request could sweep it.
    const rows: Array<{ state: string }> = await ds().query('SELECT state FROM offers WHERE id = $1', [v.o.offer.id]);
    expect(rows.map((r) => r.state)).toEqual(['expired']);
    await resize(v.venueId, v.k5, 2).expect(200);
  });
});
