import { randomUUID } from 'node:crypto';
import pg from 'pg';
import request from 'supertest';
import { getDataSourceToken } from '@nestjs/typeorm';
import { QueryFailedError, type DataSource } from 'typeorm';
import {
  COMMIT_THEN_RETRY_LIMIT,
  CommitThenRetry,
  DomainException,
  ErrorCode,
  preparedAtCommit,
  preparedInOrder,
  preparedQuery,
  TransactionRunner,
  type AtCommit,
} from '@hostboard/core';
import { startApp, type TestApp } from '../support/test-app.js';
import { describeWithServer, freshDatabase, type TestDatabase } from '../support/test-database.js';
import { createVenue, signUp, type Staff } from '../support/staff.js';
import { joined, liveVenue, party, sandboxVenue, type JoinBody } from '../support/restaurant.js';
import { violations } from '../support/invariants.js';

interface Wire {
  /** Every buffer the api's pool wrote to PostgreSQL since `reset`, one per socket write. */
  writes: Buffer[];
  reset(): void;
}

/** Counts the writes of every connection of the api's node-postgres pool (the ones open now and later). */
function watchWire(t: TestApp): Wire {
  const wire: Wire = { writes: [], reset: () => (wire.writes.length = 0) };
  const pool = (t.app.get<DataSource>(getDataSourceToken()).driver as unknown as { master: pg.Pool }).master;
  type Stream = {
    _write: (chunk: Buffer, ...rest: unknown[]) => unknown;
    _writev?: (chunks: Array<{ chunk: Buffer }>, ...rest: unknown[]) => unknown;
    watched?: boolean;
  };
  const watch = (client: pg.PoolClient): void => {
    const stream = (client as unknown as { connection: { stream: Stream } }).connection.stream;
    if (stream.watched) return;
    stream.watched = true;
    const write = stream._write.bind(stream);
    stream._write = (chunk, ...rest) => {
      wire.writes.push(Buffer.from(chunk));
      return write(chunk, ...rest);
    };
    const writev = stream._writev?.bind(stream);
    if (writev) {
      stream._writev = (chunks, ...rest) => {
        wire.writes.push(Buffer.concat(chunks.map((c) => c.chunk)));
        return writev(chunks, ...rest);
      };
    }
  };
  for (const client of (pool as unknown as { _clients: pg.PoolClient[] })._clients) watch(client);
  pool.on('connect', watch);
  return wire;
}

/** How many statements a write binds (Bind messages of the extended protocol: one per statement run). */
function binds(write: Buffer): number {
  let n = 0;
  for (let at = 0; at + 5 <= write.length; at += 1 + write.readInt32BE(at + 1)) if (write[at] === 0x42) n++;
  return n;
}

/** The transactions of this database's backends that are still open (idle in a transaction, failed or not). */
async function openTransactions(admin: pg.Client, db: TestDatabase, except: number[] = []): Promise<string[]> {
  const { rows } = await admin.query<{ state: string }>(
    `SELECT state FROM pg_stat_activity WHERE datname = $1 AND pid <> ALL($2::int[]) AND state LIKE 'idle in transaction%'`,
    [new URL(db.url ?? '').pathname.slice(1), except],
  );
  return rows.map((r) => r.state);
}

/**
 * Writes per keyed command with nothing due, warm (issue 18, twenty-sixth round). Before it, each
 * asked the sweep's question in a read of its own before its transaction, then the lock and each read
 * in a round trip of its own: promotion 11, withdrawal 8, entry cancellation (a held offer) 12, seat
 * 15, reservation cancellation (a confirmed booking) 18, desk booking 11. Now the question and the
 * command's first reads travel with the lock (and the seat's and booking's key lock with it).
 * Twenty-seventh round: a command whose rows after the decision travel in one statement with the
 * COMMIT, as the offer's do, sends 3 (the key's read, the lock with its reads, the rows with
 * COMMIT); the counts before it are beside each.
 */
const PROMOTION = 3; // 9 before
const WITHDRAWAL = 3; // 6 before
const CANCELLATION = 3; // 9 before
const SEAT = 3; // 12 before
const RESERVATION_CANCELLATION = 3; // 16 before
/** A confirmed party's entry cancelled (its booking with it): as a confirmed booking's cancellation. */
const CONFIRMED_ENTRY_CANCELLATION = 3; // 19 before
/** A held reservation (a live offer's) cancelled: as a held offer's entry cancellation. */
const HELD_RESERVATION_CANCELLATION = 3; // 10 before
const BOOKING = 8;
/** A visit cleared (its reservation completed): as a seat. */
const CLEAR = 3; // 10 before
/**
 * States no command leaves (cancel-unusual-states), cancelled as the common ones are: the key's read,
 * the lock with its reads, the rest (or, when nothing changes, the answer alone) with COMMIT. Before,
 * a one-statement-at-a-time release wrote each step in a round trip of its own (the figure beside).
 */
/** A hold with no live offer, its party confirmed (the reservation cancelled). */
const HELD_WITHOUT_OFFER_CANCELLATION = 3; // 17 before
/** A live offer whose party is no longer offered (the reservation cancelled). */
const OFFER_PARTY_NOT_OFFERED_CANCELLATION = 3; // 10 before
/** A confirmed party whose booking is HELD (the entry cancelled). */
const CONFIRMED_ENTRY_HELD_BOOKING_CANCELLATION = 3; // 19 before
/** A confirmed party whose booking is SEATED (the entry cancelled: nothing changes). */
const CONFIRMED_ENTRY_SEATED_BOOKING_CANCELLATION = 3; // 6 before
/** A seated booking (the reservation cancelled: released false, nothing changes). */
const SEATED_RESERVATION_CANCELLATION = 3; // 5 before
/** A confirmed or seated party moved to other tables: as a seat. */
const MOVE = 3; // 18 before

/**
 * Issue 18: a transaction's START TRANSACTION travels in one write with its first statement (the
 * venue lock), one round trip less per command. Each statement is still its own, so every way the
 * lock statement can fail must end as before: the same answer, and no connection of the pool left in
 * an open or failed transaction (the next request on it works).
 */
describeWithServer('node-postgres wire writes and backends of a PostgreSQL server')(
  'a transaction begun with its first statement',
  () => {
    let db: TestDatabase;
    let t: TestApp;
    let owner: Staff;
    let admin: pg.Client;
    let wire: Wire;
    let venueId: string;
    let serial = 0;

    const join = (id: string, key = `k-${serial++}`): request.Test =>
      request(t.baseUrl)
        .post(`/v1/venues/${id}/queue`)
        .set(owner.auth)
        .set('Idempotency-Key', key)
        .send({ name: `Party ${serial}`, partySize: 2 })
        .timeout(20_000);

    /** A session holding the venue's row lock until `release`. */
    async function holdVenue(id: string): Promise<{ pid: number; release: () => Promise<void> }> {
      const holder = new pg.Client({ connectionString: db.url });
      await holder.connect();
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM venues WHERE id = $1 FOR UPDATE', [id]);
      const { rows } = await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      return {
        pid: rows[0]?.pid ?? 0,
        release: async () => {
          await holder.query('ROLLBACK').catch(() => undefined);
          await holder.end();
        },
      };
    }

    /** One statement on the test's database, on a connection of its own. */
    async function inDatabase<R extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<R[]> {
      const c = new pg.Client({ connectionString: db.url });
      await c.connect();
      try {
        return (await c.query<R>(sql, params)).rows;
      } finally {
        await c.end();
      }
    }

    /** An api backend waiting for a lock (the venue row's). */
    async function waitingBackend(): Promise<number> {
      const name = new URL(db.url ?? '').pathname.slice(1);
      for (let i = 0; i < 100; i++) {
        const { rows } = await admin.query<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'`,
          [name],
        );
        if (rows[0]) return rows[0].pid;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error('no api backend waits for the venue lock');
    }

    /** Nothing left open, and joins on every pooled connection (two at once, then one by one) work. */
    async function poolIsClean(): Promise<void> {
      expect(await openTransactions(admin, db)).toEqual([]);
      const together = await Promise.all([join(venueId), join(venueId)]);
      expect(together.map((r) => r.status)).toEqual([201, 201]);
      for (let i = 0; i < 3; i++) expect((await join(venueId)).status).toBe(201);
      expect(await openTransactions(admin, db)).toEqual([]);
    }

    beforeAll(async () => {
      db = await freshDatabase();
      admin = new pg.Client({ connectionString: process.env['DATABASE_URL'] });
      await admin.connect();
      // Every statement of the api's connections gives up waiting for a lock after 1.5 s (a lock_timeout
      // error from the lock statement, after its BEGIN).
      await admin.query(`ALTER DATABASE ${new URL(db.url ?? '').pathname.slice(1)} SET lock_timeout = '1500ms'`);
      t = await startApp({ db, env: { DATABASE_POOL_SIZE: '2', DATABASE_POOL_WARM: '2' } });
      owner = await signUp(t, 'owner');
      venueId = (await createVenue(t, owner, { preset: 'workshop', poolCapacity: 500 })).id;
      wire = watchWire(t);
    });
    afterAll(async () => {
      await t.close();
      await admin.end();
      await db.drop();
    });

    it("sends a desk join with an Idempotency-Key in 4 writes: its BEGIN and the guards' read go with the venue lock, its last insert with COMMIT", async () => {
      // Warm: both pooled connections have prepared every statement of a join.
      await Promise.all([join(venueId), join(venueId)]);
      for (let i = 0; i < 4; i++) await join(venueId).expect(201);
      wire.reset();
      const joins = 10;
      for (let i = 0; i < joins; i++) await join(venueId).expect(201);
      const begins = wire.writes.filter((w) => w.includes('START TRANSACTION'));
      expect(begins).toHaveLength(joins);
      // Parse of START TRANSACTION, Bind, Execute, then the lock's Bind ('B'), Describe, Execute and Sync.
      for (const w of begins) expect(w.length).toBeGreaterThan(60);
      const commits = wire.writes.filter((w) => w.includes('COMMIT'));
      expect(commits).toHaveLength(joins);
      // The insert's Bind carries the rows' values (the answer's body among them).
      for (const w of commits) expect(w.length).toBeGreaterThan(400);
      // The guards' read (the venue's windows, the earliest waiting date and deadline) travels in the
      // lock's write, as a statement of its own after the lock's.
      // START TRANSACTION's, the lock's and the read's Bind.
      expect(begins.map(binds)).toEqual(Array.from({ length: joins }, () => 3));
      // The session with the key's stored answer, BEGIN with the venue lock and the guards' read, the
      // duplicate check and quote read, the one insert of every row with COMMIT (8 with BEGIN and
      // COMMIT alone; 5 with the guards' read in a round trip of its own).
      expect(wire.writes.length / joins).toBe(4);
    });

    it("sends a public join at a live table venue in 4 writes: the venue by its slug outside any transaction, BEGIN with the lock and the guards' read, the duplicate check and quote read, the rows with COMMIT", async () => {
      const v = await liveVenue(t, owner, { tables: [{ label: 'T1', capacity: 4 }] });
      await request(t.baseUrl).patch(`/v1/venues/${v.id}`).set(owner.auth).send({ published: true }).expect(200);
      const guest = (): request.Test =>
        request(t.baseUrl)
          .post(`/v1/public/venues/${v.slug}/queue`)
          .set('X-Forwarded-For', `10.9.${serial % 250}.${1 + (serial++ % 250)}`)
          .send({ name: `Guest ${serial}`, partySize: 2, email: `guest-${serial}@example.test` })
          .timeout(20_000);
      // Warm: both pooled connections have prepared every statement of a public join.
      for (let i = 0; i < 4; i++) await guest().expect(201);
      await Promise.all([guest().expect(201), guest().expect(201)]);
      wire.reset();
      const joins = 10;
      for (let i = 0; i < joins; i++) await guest().expect(201);
      // One transaction per join (before: the slug's read had a transaction of its own, and its COMMIT
      // a write of its own: 5 writes).
      expect(wire.writes.filter((w) => w.includes('START TRANSACTION'))).toHaveLength(joins);
      expect(wire.writes.length / joins).toBe(4);
    });

    it("sends a keyed table offer and a keyed acceptance in 3 writes each: the reads and the sweep's question with the lock, the rest with COMMIT", async () => {
      const labels = Array.from({ length: 16 }, (_, i) => `T${i + 1}`);
      const v = await sandboxVenue(t, owner, {
        clock: '2026-10-09T23:00:00.000Z',
        tables: labels.map((label) => ({ label, capacity: 4 })),
      });
      const parties: JoinBody[] = [];
      for (let i = 0; i < labels.length; i++) parties.push(await joined(t, owner, v.id, party(2)));
      const offer = (i: number, key = `offer-${i}-${serial++}`): request.Test => {
        const p = parties[i];
        if (!p) throw new Error(`no party ${i}`);
        return request(t.baseUrl)
          .post(`/v1/venues/${v.id}/offers`)
          .set(owner.auth)
          .set('Idempotency-Key', key)
          .send({ entryId: p.entry.id, entryVersion: p.entry.version, tableIds: [v.tableIds[labels[i] ?? '']] })
          .timeout(20_000);
      };
      const accept = (offerId: string): request.Test =>
        request(t.baseUrl)
          .post(`/v1/venues/${v.id}/offers/${offerId}/accept`)
          .set(owner.auth)
          .set('Idempotency-Key', `accept-${serial++}`)
          .send({})
          .timeout(20_000);
      const offered = async (i: number): Promise<string> =>
        ((await offer(i).expect(201)).body as { offer: { id: string } }).offer.id;
      // Warm: both pooled connections have prepared every statement of an offer and an acceptance.
      const warm = await Promise.all([offered(0), offered(1)]);
      await Promise.all(warm.map((id) => accept(id).expect(200)));
      for (let i = 2; i < 6; i++) await accept(await offered(i)).expect(200);

      const count = 8;
      wire.reset();
      const ids: string[] = [];
      for (let i = 6; i < 6 + count; i++) ids.push(await offered(i));
      const offerWrites = wire.writes.length;
      // The session with the key's stored answer; BEGIN with the venue lock, then the checks' read and
      // the sweep's question (due holds, ended days) in the same write; then the reservation, the one
      // insert of every other row (the answer among them) and COMMIT together (8 with the reservation,
      // the answer and COMMIT each alone; 5 with the sweep's read before the transaction and the
      // checks' read in a round trip of its own).
      expect(offerWrites / count).toBe(3);
      wire.reset();
      for (const id of ids) await accept(id).expect(200);
      // The same three: the session, the lock with the reads, the moves, history, the event and the
      // answer with COMMIT (7 before the last round, 5 after it).
      const begins = wire.writes.filter((w) => w.includes('START TRANSACTION'));
      expect(begins).toHaveLength(count);
      // START TRANSACTION's, the lock's and the reads' Bind.
      expect(begins.map(binds)).toEqual(Array.from({ length: count }, () => 3));
      expect(wire.writes.length / count).toBe(3);

      // Every offer and acceptance is written whole, and a retry answers the stored offer.
      const held = await inDatabase<{ state: string; n: string }>(
        `SELECT state, count(*) AS n FROM reservations WHERE venue_id = $1 GROUP BY state`,
        [v.id],
      );
      expect(held).toEqual([{ state: 'CONFIRMED', n: String(6 + count) }]);
      const first = await offer(14, 'offer-replayed').expect(201);
      const again = await offer(14, 'offer-replayed').expect(201);
      expect(again.body).toEqual(first.body);
      expect(await violations(t.app.get<DataSource>(getDataSourceToken()), v.id)).toEqual([]);
    });

    it("sends a keyed promotion, withdrawal, cancellation, seat and booking with the sweep's question in the lock's write, no sweep transaction before", async () => {
      const keyed = (path: string, body: object = {}): request.Test =>
        request(t.baseUrl).post(path).set(owner.auth).set('Idempotency-Key', `cmd-${serial++}`).send(body).timeout(20_000);
      /** The writes of `run` alone (the wire counted from its start), with its answer. */
      const counted = async <T>(run: () => Promise<T>): Promise<{ writes: number; result: T }> => {
        wire.reset();
        const result = await run();
        return { writes: wire.writes.length, result };
      };
      const rounds = 6;
      const warm = 3;
      type Offered = { offer: { id: string; entryId: string; reservationId: string } };

      // A workshop: promote the head, then withdraw that offer or cancel its entry.
      const pool = (await createVenue(t, owner, { preset: 'workshop', poolCapacity: 500 })).id;
      for (let i = 0; i < 2 * (rounds + warm) + 2; i++) await join(pool).expect(201);
      const promote = (): request.Test => keyed(`/v1/venues/${pool}/promotions`);
      const writes = { promotion: [] as number[], withdrawal: [] as number[], cancellation: [] as number[] };
      for (let i = 0; i < rounds + warm; i++) {
        const a = await counted(async () => (await promote().expect(201)).body as Offered);
        const w = await counted(() => keyed(`/v1/venues/${pool}/offers/${a.result.offer.id}/withdraw`).expect(200));
        const b = await counted(async () => (await promote().expect(201)).body as Offered);
        const c = await counted(() => keyed(`/v1/venues/${pool}/queue/${b.result.offer.entryId}/cancel`).expect(200));
        if (i < warm) continue;
        writes.promotion.push(a.writes, b.writes);
        writes.withdrawal.push(w.writes);
        writes.cancellation.push(c.writes);
      }

      // A restaurant: offer and accept, then seat the booking, or cancel it, or cancel the party's entry;
      // or offer, and cancel the hold.
      const labels = Array.from({ length: 4 * (rounds + warm) }, (_, i) => `S${i + 1}`);
      const v = await sandboxVenue(t, owner, {
        clock: '2026-10-09T23:00:00.000Z',
        tables: labels.map((label) => ({ label, capacity: 4 })),
      });
      const offered = async (label: string): Promise<Offered['offer']> => {
        const p = await joined(t, owner, v.id, party(2));
        const made = (
          await keyed(`/v1/venues/${v.id}/offers`, {
            entryId: p.entry.id,
            entryVersion: p.entry.version,
            tableIds: [v.tableIds[label]],
          }).expect(201)
        ).body as Offered;
        return made.offer;
      };
      const booked = async (label: string): Promise<Offered['offer']> => {
        const offer = await offered(label);
        await keyed(`/v1/venues/${v.id}/offers/${offer.id}/accept`).expect(200);
        return offer;
      };
      const seats: number[] = [];
      const reservationCancels: number[] = [];
      const confirmedEntryCancels: number[] = [];
      const heldCancels: number[] = [];
      for (let i = 0; i < rounds + warm; i++) {
        const toSeat = await booked(labels[4 * i] ?? '');
        const toCancel = await booked(labels[4 * i + 1] ?? '');
        const toLeave = await booked(labels[4 * i + 2] ?? '');
        const toRelease = await offered(labels[4 * i + 3] ?? '');
        const s = await counted(() => keyed(`/v1/venues/${v.id}/reservations/${toSeat.reservationId}/seat`).expect(201));
        const c = await counted(() => keyed(`/v1/venues/${v.id}/reservations/${toCancel.reservationId}/cancel`).expect(200));
        const l = await counted(() => keyed(`/v1/venues/${v.id}/queue/${toLeave.entryId}/cancel`).expect(200));
        expect(l.result.body).toMatchObject({
          entry: { id: toLeave.entryId, status: 'cancelled' },
          cancelledBooking: { id: toLeave.reservationId, state: 'CANCELLED' },
        });
        const h = await counted(() => keyed(`/v1/venues/${v.id}/reservations/${toRelease.reservationId}/cancel`).expect(200));
        expect(h.result.body).toMatchObject({ reservation: { id: toRelease.reservationId, state: 'CANCELLED' } });
        if (i < warm) continue;
        seats.push(s.writes);
        reservationCancels.push(c.writes);
        confirmedEntryCancels.push(l.writes);
        heldCancels.push(h.writes);
      }
      // A desk booking at a workshop where nobody waits.
      const desk = (await createVenue(t, owner, { preset: 'workshop', poolCapacity: 500 })).id;
      const bookings: number[] = [];
      for (let i = 0; i < rounds + warm; i++) {
        const b = await counted(() => keyed(`/v1/venues/${desk}/reservations`, { name: `Desk ${i}`, partySize: 2 }).expect(201));
        if (i >= warm) bookings.push(b.writes);
      }
      const all = {
        ...writes,
        seat: seats,
        reservationCancellation: reservationCancels,
        confirmedEntryCancellation: confirmedEntryCancels,
        heldReservationCancellation: heldCancels,
        booking: bookings,
      };
      expect(all).toEqual({
        promotion: Array.from({ length: 2 * rounds }, () => PROMOTION),
        withdrawal: Array.from({ length: rounds }, () => WITHDRAWAL),
        cancellation: Array.from({ length: rounds }, () => CANCELLATION),
        seat: Array.from({ length: rounds }, () => SEAT),
        reservationCancellation: Array.from({ length: rounds }, () => RESERVATION_CANCELLATION),
        confirmedEntryCancellation: Array.from({ length: rounds }, () => CONFIRMED_ENTRY_CANCELLATION),
        heldReservationCancellation: Array.from({ length: rounds }, () => HELD_RESERVATION_CANCELLATION),
        booking: Array.from({ length: rounds }, () => BOOKING),
      });
      for (const id of [pool, v.id, desk]) expect(await violations(t.app.get<DataSource>(getDataSourceToken()), id)).toEqual([]);
    });

    it("sends a keyed clear with its reads in the lock's write and its rows with the COMMIT, and a second clear changes nothing", async () => {
      const rounds = 5;
      const warm = 2;
      const labels = Array.from({ length: rounds + warm }, (_, i) => `C${i + 1}`);
      const v = await sandboxVenue(t, owner, {
        clock: '2026-10-09T23:00:00.000Z',
        tables: labels.map((label) => ({ label, capacity: 3 })),
      });
      const keyed = (path: string, body: object = {}): request.Test =>
        request(t.baseUrl).post(path).set(owner.auth).set('Idempotency-Key', `clear-${serial++}`).send(body).timeout(20_000);
      const clears: number[] = [];
      for (const [i, label] of labels.entries()) {
        const p = await joined(t, owner, v.id, party(3));
        const made = await keyed(`/v1/venues/${v.id}/offers`, {
          entryId: p.entry.id,
          entryVersion: p.entry.version,
          tableIds: [v.tableIds[label]],
        }).expect(201);
        const offer = (made.body as { offer: { id: string; reservationId: string } }).offer;
        await keyed(`/v1/venues/${v.id}/offers/${offer.id}/accept`).expect(200);
        const seated = await keyed(`/v1/venues/${v.id}/reservations/${offer.reservationId}/seat`).expect(201);
        const visitId = (seated.body as { visit: { id: string } }).visit.id;
        wire.reset();
        const cleared = await keyed(`/v1/venues/${v.id}/visits/${visitId}/clear`).expect(200);
        if (i >= warm) clears.push(wire.writes.length);
        const closedAt = (cleared.body as { visit: { closedAt: string } }).visit.closedAt;
        expect(cleared.body).toEqual({
          visit: { id: visitId, reservationId: offer.reservationId, openedAt: expect.any(String), closedAt },
        });
        // Cleared again (another tablet, or a retry with a new key): the same visit, nothing written twice.
        const again = await keyed(`/v1/venues/${v.id}/visits/${visitId}/clear`).expect(200);
        expect(again.body).toEqual(cleared.body);
        const [r] = await inDatabase<{ state: string; completions: string }>(
          `SELECT r.state, (SELECT count(*) FROM history h WHERE h.subject_id = r.id AND h.to_state = 'COMPLETED') AS completions
             FROM reservations r WHERE r.id = $1`,
          [offer.reservationId],
        );
        expect(r).toEqual({ state: 'COMPLETED', completions: '1' });
      }
      expect(clears).toEqual(Array.from({ length: rounds }, () => CLEAR));
      const events = await inDatabase<{ n: string }>(
        `SELECT count(*) AS n FROM board_events WHERE venue_id = $1 AND type = 'visit.cleared'`,
        [v.id],
      );
      expect(events[0]?.n).toBe(String(labels.length));
      expect(await violations(t.app.get<DataSource>(getDataSourceToken()), v.id)).toEqual([]);
    });

    it('sends the cancellation of a state no command leaves (a hold with no live offer, a confirmed party whose booking is not CONFIRMED) as the common ones: the lock with its reads, the rest with COMMIT', async () => {
      const keyed = (path: string): request.Test =>
        request(t.baseUrl).post(path).set(owner.auth).set('Idempotency-Key', `odd-${serial++}`).send({}).timeout(20_000);
      const counted = async (run: () => Promise<unknown>): Promise<number> => {
        wire.reset();
        await run();
        return wire.writes.length;
      };
      const rounds = 4;
      const warm = 2;
      const labels = Array.from({ length: 5 * (rounds + warm) }, (_, i) => `Q${i + 1}`);
      const v = await sandboxVenue(t, owner, {
        clock: '2026-10-14T00:10:00.000Z',
        tables: labels.map((label) => ({ label, capacity: 3 })),
      });
      const offered = async (label: string): Promise<{ id: string; entryId: string; reservationId: string }> => {
        const p = await joined(t, owner, v.id, party(2));
        const made = await keyed(`/v1/venues/${v.id}/offers`)
          .send({ entryId: p.entry.id, entryVersion: p.entry.version, tableIds: [v.tableIds[label]] })
          .expect(201);
        return (made.body as { offer: { id: string; entryId: string; reservationId: string } }).offer;
      };
      const booked = async (label: string): Promise<{ id: string; entryId: string; reservationId: string }> => {
        const o = await offered(label);
        await keyed(`/v1/venues/${v.id}/offers/${o.id}/accept`).expect(200);
        return o;
      };
      // Each state made by hand (none is left by a command: cancel-unusual-states), on a connection of the test's.
      // They break the invariants on purpose: the tests after this one check theirs in their own venue.
      const later = '2026-10-14T00:30:00.000Z';
      const writes = { heldNoOffer: [] as number[], offerPartyWaiting: [] as number[], bookingHeld: [] as number[] };
      const unchanged = { bookingSeated: [] as number[], seatedReservation: [] as number[] };
      for (let i = 0; i < rounds + warm; i++) {
        const a = await booked(labels[5 * i] ?? '');
        await inDatabase(`UPDATE reservations SET state = 'HELD', hold_expires_at = $2 WHERE id = $1`, [a.reservationId, later]);
        const b = await offered(labels[5 * i + 1] ?? '');
        await inDatabase(`UPDATE queue_entries SET status = 'waiting' WHERE id = $1`, [b.entryId]);
        const c = await booked(labels[5 * i + 2] ?? '');
        await inDatabase(`UPDATE reservations SET state = 'HELD', hold_expires_at = $2 WHERE id = $1`, [c.reservationId, later]);
        const d = await booked(labels[5 * i + 3] ?? '');
        await keyed(`/v1/venues/${v.id}/reservations/${d.reservationId}/seat`).expect(201);
        await inDatabase(`UPDATE queue_entries SET status = 'confirmed' WHERE id = $1`, [d.entryId]);
        const e = await booked(labels[5 * i + 4] ?? '');
        await keyed(`/v1/venues/${v.id}/reservations/${e.reservationId}/seat`).expect(201);
        const counts = [
          await counted(() => keyed(`/v1/venues/${v.id}/reservations/${a.reservationId}/cancel`).expect(200)),
          await counted(() => keyed(`/v1/venues/${v.id}/reservations/${b.reservationId}/cancel`).expect(200)),
          await counted(() => keyed(`/v1/venues/${v.id}/queue/${c.entryId}/cancel`).expect(200)),
          await counted(() => keyed(`/v1/venues/${v.id}/queue/${d.entryId}/cancel`).expect(200)),
          await counted(() => keyed(`/v1/venues/${v.id}/reservations/${e.reservationId}/cancel`).expect(200)),
        ];
        if (i < warm) continue;
        writes.heldNoOffer.push(counts[0] ?? 0);
        writes.offerPartyWaiting.push(counts[1] ?? 0);
        writes.bookingHeld.push(counts[2] ?? 0);
        unchanged.bookingSeated.push(counts[3] ?? 0);
        unchanged.seatedReservation.push(counts[4] ?? 0);
      }
      expect({ ...writes, ...unchanged }).toEqual({
        heldNoOffer: Array.from({ length: rounds }, () => HELD_WITHOUT_OFFER_CANCELLATION),
        offerPartyWaiting: Array.from({ length: rounds }, () => OFFER_PARTY_NOT_OFFERED_CANCELLATION),
        bookingHeld: Array.from({ length: rounds }, () => CONFIRMED_ENTRY_HELD_BOOKING_CANCELLATION),
        bookingSeated: Array.from({ length: rounds }, () => CONFIRMED_ENTRY_SEATED_BOOKING_CANCELLATION),
        seatedReservation: Array.from({ length: rounds }, () => SEATED_RESERVATION_CANCELLATION),
      });
    });

    it("sends a keyed move with its reads in the lock's write and its rows with the COMMIT, keeping one table of a combination", async () => {
      const rounds = 4;
      const warm = 2;
      // Each round's party of five sits at A+B, moves to B+C (B stays), then, seated, back to A+B.
      const sets = Array.from({ length: rounds + warm }, (_, i) => ({ a: `A${i + 1}`, b: `B${i + 1}`, c: `C${i + 1}` }));
      const v = await sandboxVenue(t, owner, {
        clock: '2026-10-09T23:00:00.000Z',
        tables: sets.flatMap((s) => [s.a, s.b, s.c]).map((label) => ({ label, capacity: 3 })),
      });
      for (const s of sets)
        for (const pair of [
          [s.a, s.b],
          [s.b, s.c],
        ])
          await request(t.baseUrl)
            .post(`/v1/venues/${v.id}/combinations`)
            .set(owner.auth)
            .send({ tableIds: pair.map((label) => v.tableIds[label]), capacity: 6 })
            .expect(201);
      const keyed = (path: string, body: object = {}, key = `move-${serial++}`): request.Test =>
        request(t.baseUrl).post(path).set(owner.auth).set('Idempotency-Key', key).send(body).timeout(20_000);
      const ids = (...labels: string[]): string[] => labels.map((label) => v.tableIds[label] ?? '').sort();
      const placed = async (reservationId: string): Promise<string[]> =>
        (
          await inDatabase<{ table_id: string }>(
            'SELECT table_id FROM reservation_tables WHERE reservation_id = $1 ORDER BY table_id',
            [reservationId],
          )
        ).map((r) => r.table_id);
      const confirmedMoves: number[] = [];
      const seatedMoves: number[] = [];
      for (const [i, s] of sets.entries()) {
        const p = await joined(t, owner, v.id, party(5));
        const made = await keyed(`/v1/venues/${v.id}/offers`, {
          entryId: p.entry.id,
          entryVersion: p.entry.version,
          tableIds: ids(s.a, s.b),
        }).expect(201);
        const offer = (made.body as { offer: { id: string; reservationId: string } }).offer;
        await keyed(`/v1/venues/${v.id}/offers/${offer.id}/accept`).expect(200);
        const path = `/v1/venues/${v.id}/reservations/${offer.reservationId}/move`;
        const key = `move-${serial++}`;
        wire.reset();
        const moved = await keyed(path, { tableIds: ids(s.b, s.c) }, key).expect(200);
        if (i >= warm) confirmedMoves.push(wire.writes.length);
        expect(moved.body).toMatchObject({
          reservation: { id: offer.reservationId, state: 'CONFIRMED', tableIds: ids(s.b, s.c) },
        });
        expect(await placed(offer.reservationId)).toEqual(ids(s.b, s.c));
        // The same key again answers the same move and writes nothing twice.
        const replay = await keyed(path, { tableIds: ids(s.b, s.c) }, key).expect(200);
        expect(replay.body).toEqual(moved.body);
        await keyed(`/v1/venues/${v.id}/reservations/${offer.reservationId}/seat`).expect(201);
        wire.reset();
        const back = await keyed(path, { tableIds: ids(s.a, s.b) }).expect(200);
        if (i >= warm) seatedMoves.push(wire.writes.length);
        expect(back.body).toMatchObject({ reservation: { id: offer.reservationId, state: 'SEATED', tableIds: ids(s.a, s.b) } });
        expect(await placed(offer.reservationId)).toEqual(ids(s.a, s.b));
        const history = await inDatabase<{ reason: string }>(
          `SELECT reason FROM history WHERE subject_id = $1 AND reason LIKE 'moved%' ORDER BY at, reason`,
          [offer.reservationId],
        );
        expect(history.map((h) => h.reason).sort()).toEqual(
          [
            `moved from ${ids(s.a, s.b).join(',')} to ${ids(s.b, s.c).join(',')}`,
            `moved from ${ids(s.b, s.c).join(',')} to ${ids(s.a, s.b).join(',')}`,
          ].sort(),
        );
      }
      expect({ confirmed: confirmedMoves, seated: seatedMoves }).toEqual({
        confirmed: Array.from({ length: rounds }, () => MOVE),
        seated: Array.from({ length: rounds }, () => MOVE),
      });
      const events = await inDatabase<{ n: string }>(
        `SELECT count(*) AS n FROM board_events WHERE venue_id = $1 AND type = 'reservation.moved'`,
        [v.id],
      );
      expect(events[0]?.n).toBe(String(2 * sets.length));
      expect(await violations(t.app.get<DataSource>(getDataSourceToken()), v.id)).toEqual([]);
    });

    it('reads after the venue lock was granted: an offer that waited for the lock sees the entry changed meanwhile', async () => {
      const v = await sandboxVenue(t, owner, { clock: '2026-10-09T23:00:00.000Z', tables: [{ label: 'W1', capacity: 4 }] });
      const p = await joined(t, owner, v.id, party(2));
      // A session holds the venue's lock, and changes the entry in the same transaction.
      const holder = new pg.Client({ connectionString: db.url });
      await holder.connect();
      let res: request.Response;
      try {
        await holder.query('BEGIN');
        await holder.query('SELECT 1 FROM venues WHERE id = $1 FOR UPDATE', [v.id]);
        const pending = request(t.baseUrl)
          .post(`/v1/venues/${v.id}/offers`)
          .set(owner.auth)
          .set('Idempotency-Key', `offer-waited-${serial++}`)
          .send({ entryId: p.entry.id, entryVersion: p.entry.version, tableIds: [v.tableIds['W1']] })
          .timeout(20_000)
          .then((r) => r);
        await waitingBackend();
        // While the offer waits for the lock, the holder changes the entry and commits: the offer's
        // reads (sent in the lock's write) must see it, as they would in a round trip after the lock.
        await holder.query('UPDATE queue_entries SET version = version + 1 WHERE id = $1', [p.entry.id]);
        await holder.query('COMMIT');
        res = await pending;
      } finally {
        await holder.query('ROLLBACK').catch(() => undefined);
        await holder.end();
      }
      expect(res.status).toBe(409);
      expect((res.body as { error: { code: string } }).error.code).toBe('WAITLIST_STALE');
      expect(await inDatabase('SELECT 1 FROM offers WHERE entry_id = $1', [p.entry.id])).toEqual([]);
      await poolIsClean();
    });

    it("answers with the stored answer when its last insert (with COMMIT) breaks the key's primary key, and writes nothing", async () => {
      const body = { name: 'Raced', partySize: 2 };
      const model = await request(t.baseUrl)
        .post(`/v1/venues/${venueId}/queue`)
        .set(owner.auth)
        .set('Idempotency-Key', 'k-model')
        .send(body)
        .expect(201);
      expect(model.status).toBe(201);
      const [stored] = await inDatabase<{ scope: string; hash: string }>(
        `SELECT scope, request_hash AS hash FROM idempotency_keys WHERE key = 'k-model'`,
      );
      if (!stored) throw new Error('no stored answer for k-model');
      const entries = async (): Promise<number | undefined> =>
        (await inDatabase<{ n: number }>('SELECT count(*)::int AS n FROM queue_entries WHERE venue_id = $1', [venueId]))[0]?.n;
      const before = await entries();
      const holder = await holdVenue(venueId);
      // Past the interceptor's read of the key (nothing stored), waiting for the venue's lock.
      const pending = request(t.baseUrl)
        .post(`/v1/venues/${venueId}/queue`)
        .set(owner.auth)
        .set('Idempotency-Key', 'k-raced')
        .send(body)
        .then((r) => r);
      try {
        await waitingBackend();
        // Meanwhile "the first request with this key" commits its answer.
        await inDatabase(
          `INSERT INTO idempotency_keys (scope, key, request_hash, response_status, response_body, created_at)
         VALUES ($1, 'k-raced', $2, 201, '{"raced": true}', now())`,
          [stored.scope, stored.hash],
        );
      } finally {
        await holder.release();
      }
      const res = await pending;
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ raced: true });
      // The join's own rows rolled back with its failed insert.
      expect(await entries()).toBe(before);
      await poolIsClean();
    });

    it('answers 503 when the connection is killed while its last insert (with COMMIT) runs, and writes nothing', async () => {
      const entries = async (): Promise<number | undefined> =>
        (await inDatabase<{ n: number }>('SELECT count(*)::int AS n FROM queue_entries WHERE venue_id = $1', [venueId]))[0]?.n;
      const before = await entries();
      // The board event's insert, in the join's last statement, sleeps: its backend is killed meanwhile.
      await inDatabase(`CREATE FUNCTION slow_event() RETURNS trigger LANGUAGE plpgsql AS
        'BEGIN PERFORM pg_sleep(5); RETURN NEW; END'`);
      await inDatabase('CREATE TRIGGER slow_event BEFORE INSERT ON board_events FOR EACH ROW EXECUTE FUNCTION slow_event()');
      let res: request.Response;
      try {
        const pending = join(venueId, 'k-killed-at-commit').then((r) => r);
        const name = new URL(db.url ?? '').pathname.slice(1);
        let pid: number | undefined;
        for (let i = 0; i < 100 && pid === undefined; i++) {
          const { rows } = await admin.query<{ pid: number }>(
            `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND wait_event = 'PgSleep'`,
            [name],
          );
          pid = rows[0]?.pid;
          if (pid === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
        }
        if (pid === undefined) throw new Error('no api backend sleeps in the board event insert');
        await admin.query('SELECT pg_terminate_backend($1)', [pid]);
        res = await pending;
      } finally {
        await inDatabase('DROP TRIGGER slow_event ON board_events');
        await inDatabase('DROP FUNCTION slow_event()');
      }
      expect(res.status).toBe(503);
      expect(await entries()).toBe(before);
      // Nothing was recorded for the key: its retry runs the join.
      expect((await join(venueId, 'k-killed-at-commit')).status).toBe(201);
      expect(await entries()).toBe((before ?? 0) + 1);
      await poolIsClean();
    });

    it('answers 404 for an unknown venue (the lock found no row) and leaves no transaction open', async () => {
      const res = await join(randomUUID());
      expect(res.status).toBe(404);
      await poolIsClean();
    });

    it('answers 409 to a second request with the key of one still waiting for the venue lock, and the first its 201', async () => {
      const holder = await holdVenue(venueId);
      let first: Promise<request.Response>;
      try {
        first = join(venueId, 'k-same').then((r) => r);
        await waitingBackend();
        const second = await join(venueId, 'k-same');
        expect(second.status).toBe(409);
        expect((second.body as { error: { code: string } }).error.code).toBe('IDEMPOTENCY_IN_PROGRESS');
      } finally {
        await holder.release();
      }
      const answered = await first;
      expect(answered.status).toBe(201);
      const replay = await join(venueId, 'k-same');
      expect(replay.status).toBe(201);
      // The same entry (the replay leaves out the queue token, which is shown once).
      expect((replay.body as { entry: { id: string } }).entry.id).toBe((answered.body as { entry: { id: string } }).entry.id);
      await poolIsClean();
    });

    it('answers a lock_timeout of the venue lock (after its BEGIN) as an error and rolls the transaction back', async () => {
      const holder = await holdVenue(venueId);
      let res: request.Response;
      try {
        res = await join(venueId, 'k-timeout');
      } finally {
        await holder.release();
      }
      expect(res.status).toBeGreaterThanOrEqual(500);
      // Nothing was recorded for the key: its retry runs the join.
      expect((await join(venueId, 'k-timeout')).status).toBe(201);
      await poolIsClean();
    });

    it('answers 503 when the connection is killed while its lock statement waits, and the pool goes on', async () => {
      const holder = await holdVenue(venueId);
      let res: request.Response;
      try {
        const pending = join(venueId, 'k-killed').then((r) => r);
        const pid = await waitingBackend();
        await admin.query('SELECT pg_terminate_backend($1)', [pid]);
        res = await pending;
      } finally {
        await holder.release();
      }
      expect(res.status).toBe(503);
      expect((await join(venueId, 'k-killed')).status).toBe(201);
      await poolIsClean();
    });
  },
);

/**
 * The transactions themselves, on PostgreSQL (BEGIN sent with the first statement) and on the embedded
 * database (TypeORM's own): whichever way the first statement goes, everything runs in one transaction,
 * committed or rolled back whole.
 */
describe('TransactionRunner.run', () => {
  let t: TestApp;
  let runner: TransactionRunner;
  let dataSource: DataSource;
  const count = async (): Promise<number> =>
    Number(((await dataSource.query('SELECT count(*) AS n FROM pipeline_probe')) as Array<{ n: string }>)[0]?.n);
  const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

  beforeAll(async () => {
    t = await startApp();
    runner = t.app.get(TransactionRunner);
    dataSource = t.app.get<DataSource>(getDataSourceToken());
    await dataSource.query('CREATE TABLE pipeline_probe (n int PRIMARY KEY)');
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(async () => {
    await dataSource.query('DELETE FROM pipeline_probe');
  });

  it('runs a first statement sent through TypeORM inside the transaction', async () => {
    const stamps = await runner.run(async (tx) => {
      const first = (await tx.manager.query('SELECT transaction_timestamp() AS t')) as Array<{ t: Date }>;
      await sleep(20);
      const second = await preparedQuery<{ t: Date }>(tx.manager, 'SELECT transaction_timestamp() AS t', []);
      return [first[0]?.t, second[0]?.t].map((d) => new Date(d ?? 0).getTime());
    });
    expect(stamps[0]).toBeGreaterThan(0);
    expect(stamps[1]).toBe(stamps[0]);
  });

  it('runs a first prepared statement (its BEGIN with it) inside the transaction', async () => {
    const stamps = await runner.run(async (tx) => {
      const first = await preparedQuery<{ t: Date }>(tx.manager, 'SELECT transaction_timestamp() AS t', []);
      await sleep(20);
      const second = (await tx.manager.query('SELECT transaction_timestamp() AS t')) as Array<{ t: Date }>;
      return [first[0]?.t, second[0]?.t].map((d) => new Date(d ?? 0).getTime());
    });
    expect(stamps[0]).toBeGreaterThan(0);
    expect(stamps[1]).toBe(stamps[0]);
  });

  it('rolls back the whole transaction when its work throws, whichever way its first statement went', async () => {
    const fail = new Error('the work failed');
    await expect(
      runner.run(async (tx) => {
        await preparedQuery(tx.manager, 'INSERT INTO pipeline_probe (n) VALUES ($1)', [1]);
        await tx.manager.query('INSERT INTO pipeline_probe (n) VALUES ($1)', [2]);
        throw fail;
      }),
    ).rejects.toBe(fail);
    await expect(
      runner.run(async (tx) => {
        await tx.manager.query('INSERT INTO pipeline_probe (n) VALUES ($1)', [3]);
        throw fail;
      }),
    ).rejects.toBe(fail);
    expect(await count()).toBe(0);
  });

  it('rolls back after a unique violation, and the pool goes on', async () => {
    await runner.run((tx) => preparedQuery(tx.manager, 'INSERT INTO pipeline_probe (n) VALUES ($1)', [1]));
    await expect(
      runner.run(async (tx) => {
        await preparedQuery(tx.manager, 'INSERT INTO pipeline_probe (n) VALUES ($1)', [2]);
        await preparedQuery(tx.manager, 'INSERT INTO pipeline_probe (n) VALUES ($1)', [1]);
      }),
    ).rejects.toMatchObject({ driverError: expect.objectContaining({ code: '23505' }) as unknown });
    // A unique violation in the first statement, the one that carries BEGIN.
    await expect(
      runner.run((tx) => preparedQuery(tx.manager, 'INSERT INTO pipeline_probe (n) VALUES ($1)', [1])),
    ).rejects.toMatchObject({ driverError: expect.objectContaining({ code: '23505' }) as unknown });
    expect(await count()).toBe(1);
    for (let i = 10; i < 16; i++)
      await runner.run((tx) => preparedQuery(tx.manager, 'INSERT INTO pipeline_probe (n) VALUES ($1)', [i]));
    expect(await count()).toBe(7);
  });

  it('sends a statement held for the commit with it, and answers its rows after the commit', async () => {
    const insert = 'INSERT INTO pipeline_probe (n) VALUES ($1) RETURNING n';
    const held = await runner.run(async (tx) => {
      await preparedQuery(tx.manager, 'SELECT 1', []);
      return { last: await preparedAtCommit<{ n: number }>(tx.manager, insert, [5]) };
    });
    expect(await held.last.rows()).toEqual([{ n: 5 }]);
    expect(await count()).toBe(1);
  });

  it('sends a held statement first when another statement follows, or its rows are asked for inside', async () => {
    const seen = await runner.run(async (tx) => {
      await preparedQuery(tx.manager, 'SELECT 1', []);
      const first = await preparedAtCommit<{ n: number }>(
        tx.manager,
        'INSERT INTO pipeline_probe (n) VALUES ($1) RETURNING n',
        [1],
      );
      // Sent before this one: the count sees it.
      const [afterFirst] = await preparedQuery<{ n: string }>(tx.manager, 'SELECT count(*) AS n FROM pipeline_probe', []);
      const second = await preparedAtCommit<{ n: number }>(
        tx.manager,
        'INSERT INTO pipeline_probe (n) VALUES ($1) RETURNING n',
        [2],
      );
      const third = await preparedAtCommit<{ n: number }>(
        tx.manager,
        'INSERT INTO pipeline_probe (n) VALUES ($1) RETURNING n',
        [3],
      );
      // Through TypeORM too.
      const afterThird = (await tx.manager.query('SELECT count(*) AS n FROM pipeline_probe')) as Array<{ n: string }>;
      const fourth = await preparedAtCommit<{ n: number }>(
        tx.manager,
        'INSERT INTO pipeline_probe (n) VALUES ($1) RETURNING n',
        [4],
      );
      return {
        counts: [Number(afterFirst?.n), Number(afterThird[0]?.n)],
        rows: [await first.rows(), await second.rows(), await third.rows(), await fourth.rows()],
      };
    });
    expect(seen.counts).toEqual([1, 3]);
    expect(seen.rows).toEqual([[{ n: 1 }], [{ n: 2 }], [{ n: 3 }], [{ n: 4 }]]);
    expect(await count()).toBe(4);
  });

  it('sends several statements held for the commit with it, in their order, each seeing those before it', async () => {
    const insert = 'INSERT INTO pipeline_probe (n) VALUES ($1) RETURNING n';
    const held = await runner.run(async (tx) => {
      await preparedQuery(tx.manager, 'SELECT 1', []);
      return [
        await preparedAtCommit<{ n: number }>(tx.manager, insert, [1]),
        await preparedAtCommit<{ n: number }>(tx.manager, insert, [2]),
        await preparedAtCommit<{ n: number }>(tx.manager, 'SELECT count(*)::int AS n FROM pipeline_probe', [], { oneOff: true }),
      ];
    });
    expect(await Promise.all(held.map((h) => h.rows()))).toEqual([[{ n: 1 }], [{ n: 2 }], [{ n: 2 }]]);
    expect(await count()).toBe(2);
  });

  it("rolls back the whole transaction when one of several held statements fails at the commit, with that statement's error", async () => {
    await runner.run((tx) => preparedQuery(tx.manager, 'INSERT INTO pipeline_probe (n) VALUES ($1)', [1]));
    for (const order of [
      [1, 7],
      [7, 1],
    ]) {
      let held: Array<AtCommit<unknown>> = [];
      const failed = runner.run(async (tx) => {
        await preparedQuery(tx.manager, 'INSERT INTO pipeline_probe (n) VALUES ($1)', [2]);
        held = [
          await preparedAtCommit(tx.manager, 'INSERT INTO pipeline_probe (n) VALUES ($1)', [order[0]]),
          await preparedAtCommit(tx.manager, 'INSERT INTO pipeline_probe (n) VALUES ($1)', [order[1]]),
        ];
      });
      await expect(failed).rejects.toBeInstanceOf(QueryFailedError);
      await expect(failed).rejects.toMatchObject({ driverError: expect.objectContaining({ code: '23505' }) as unknown });
      // Nothing committed: no held statement answers rows.
      for (const h of held) await expect(h.rows()).rejects.toBeDefined();
      expect(await count()).toBe(1);
    }
    // The pool goes on: each connection takes a transaction with held statements again.
    for (let i = 10; i < 14; i++)
      await runner.run(async (tx) => {
        await preparedQuery(tx.manager, 'SELECT 1', []);
        await preparedAtCommit(tx.manager, 'INSERT INTO pipeline_probe (n) VALUES ($1)', [i]);
        await preparedAtCommit(tx.manager, 'INSERT INTO pipeline_probe (n) VALUES ($1)', [i + 100]);
      });
    expect(await count()).toBe(9);
  });

  it("rolls back the whole transaction when its held statement fails at the commit, with the statement's error", async () => {
    await runner.run((tx) => preparedQuery(tx.manager, 'INSERT INTO pipeline_probe (n) VALUES ($1)', [1]));
    let held: AtCommit<unknown> | undefined;
    const failed = runner.run(async (tx) => {
      await preparedQuery(tx.manager, 'INSERT INTO pipeline_probe (n) VALUES ($1)', [2]);
      held = await preparedAtCommit(tx.manager, 'INSERT INTO pipeline_probe (n) VALUES ($1)', [1]);
    });
    await expect(failed).rejects.toBeInstanceOf(QueryFailedError);
    await expect(failed).rejects.toMatchObject({ driverError: expect.objectContaining({ code: '23505' }) as unknown });
    // Its rows reject with the same error (on the embedded database it ran at once and threw there).
    await expect(held ? held.rows() : failed).rejects.toMatchObject({
      driverError: expect.objectContaining({ code: '23505' }) as unknown,
    });
    expect(await count()).toBe(1);
    // The work throwing after it held a statement: nothing of it is written.
    const thrown = new Error('after holding');
    await expect(
      runner.run(async (tx) => {
        await preparedQuery(tx.manager, 'INSERT INTO pipeline_probe (n) VALUES ($1)', [3]);
        await preparedAtCommit(tx.manager, 'INSERT INTO pipeline_probe (n) VALUES ($1)', [4]);
        throw thrown;
      }),
    ).rejects.toBe(thrown);
    expect(await count()).toBe(1);
    for (let i = 10; i < 16; i++) {
      await runner.run(async (tx) => {
        await preparedQuery(tx.manager, 'SELECT 1', []);
        await preparedAtCommit(tx.manager, 'INSERT INTO pipeline_probe (n) VALUES ($1)', [i]);
      });
    }
    expect(await count()).toBe(7);
  });

  it('sends statements in order in one go (BEGIN with them), each seeing those before it, and rolls back on an error in one', async () => {
    const insert = 'INSERT INTO pipeline_probe (n) VALUES ($1) RETURNING n';
    const rows = await runner.run((tx) =>
      preparedInOrder(tx.manager, [
        { text: insert, params: [1] },
        { text: 'SELECT count(*)::int AS n FROM pipeline_probe', params: [] },
        { text: insert, params: [2] },
      ]),
    );
    expect(rows).toEqual([[{ n: 1 }], [{ n: 1 }], [{ n: 2 }]]);
    // A failure in the second: the third never runs, the first is rolled back, and the error is the statement's.
    await expect(
      runner.run((tx) =>
        preparedInOrder(tx.manager, [
          { text: insert, params: [3] },
          { text: insert, params: [1] },
          { text: insert, params: [4] },
        ]),
      ),
    ).rejects.toMatchObject({ driverError: expect.objectContaining({ code: '23505' }) as unknown });
    // After a first statement: no BEGIN to send with them.
    await expect(
      runner.run(async (tx) => {
        await preparedQuery(tx.manager, 'SELECT 1', []);
        return preparedInOrder(tx.manager, [
          { text: insert, params: [5] },
          { text: 'SELECT n FROM pipeline_probe WHERE n = 99', params: [] },
        ]);
      }),
    ).resolves.toEqual([[{ n: 5 }], []]);
    expect(await count()).toBe(3);
    for (let i = 10; i < 14; i++)
      await runner.run((tx) =>
        preparedInOrder(tx.manager, [
          { text: insert, params: [i] },
          { text: 'SELECT 1 AS one', params: [] },
        ]),
      );
    expect(await count()).toBe(7);
  });

  it('commits work that sent nothing, and answers its result', async () => {
    await expect(runner.run(() => Promise.resolve('nothing sent'))).resolves.toBe('nothing sent');
    expect(await count()).toBe(0);
  });

  it('commits a round that asked to go again (CommitThenRetry) on its own, then runs the command in a new transaction', async () => {
    const rounds: string[] = [];
    const result = await runner
      .command({}, async (tx) => {
        const [{ x }] = (await tx.manager.query('SELECT txid_current()::text AS x')) as [{ x: string }];
        rounds.push(x);
        await preparedQuery(tx.manager, 'INSERT INTO pipeline_probe (n) VALUES ($1)', [rounds.length]);
        if (rounds.length === 1) throw new CommitThenRetry('a sweep');
        throw new Error('the second round fails');
      })
      .catch((err: Error) => err.message);
    // The first round's row stands; the second round (a transaction of its own) rolled back.
    expect(result).toBe('the second round fails');
    expect(rounds).toHaveLength(2);
    expect(rounds[0]).not.toBe(rounds[1]);
    expect(await dataSource.query('SELECT n FROM pipeline_probe')).toEqual([{ n: 1 }]);
  });

  it('answers 503 UNAVAILABLE to a command that keeps asking to go again, with each round it committed kept', async () => {
    let rounds = 0;
    const refused = await runner
      .command({}, async (tx) => {
        rounds++;
        await preparedQuery(tx.manager, 'INSERT INTO pipeline_probe (n) VALUES ($1)', [rounds]);
        throw new CommitThenRetry('a sweep');
      })
      .catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(DomainException);
    expect((refused as DomainException).code).toBe(ErrorCode.UNAVAILABLE);
    expect(rounds).toBe(COMMIT_THEN_RETRY_LIMIT);
    expect(await count()).toBe(COMMIT_THEN_RETRY_LIMIT);
  });
});
