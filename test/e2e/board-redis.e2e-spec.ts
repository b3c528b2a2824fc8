import request from 'supertest';
import type { INestApplicationContext } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { BoardClient, waitFor } from '../support/board-client.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { describeWithServerAndRedis, freshDatabase, type TestDatabase } from '../support/test-database.js';
import { startWorker } from '../support/test-worker.js';
import { createVenue, signIn, signUp, type Staff } from '../support/staff.js';

/** Several processes on one PostgreSQL and one Redis: board fan-out between api processes, expiry by the worker. */
describeWithServerAndRedis('api processes and a worker sharing PostgreSQL and Redis')('board and expiry across processes', () => {
  let db: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  let owner: Staff;
  let ownerB: Staff;
  let worker: INestApplicationContext | undefined;
  const clients: BoardClient[] = [];

  beforeAll(async () => {
    db = await freshDatabase();
    a = await startApp({ db });
    b = await startApp({ db });
    owner = await signUp(a, 'owner');
    ownerB = await signIn(b, owner.email, owner.password);
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await worker?.close();
    await a.close();
    await b.close();
    await db.drop();
  });

  /** A live (not sandbox) pool venue whose holds last `holdSeconds`. */
  async function liveVenue(holdSeconds: number): Promise<string> {
    const { id } = await createVenue(a, owner, { preset: 'workshop', poolCapacity: 4 });
    await request(a.baseUrl).patch(`/v1/venues/${id}`).set(owner.auth).send({ policy: { holdSeconds } }).expect(200);
    return id;
  }

  async function board(t: TestApp, staff: Staff, venueId: string): Promise<BoardClient> {
    const c = new BoardClient(t.baseUrl, staff.token);
    clients.push(c);
    await c.connected();
    await c.subscribe(venueId);
    return c;
  }

  it('delivers a change made through api process A to a board connected to api process B', async () => {
    const venueId = await liveVenue(60);
    const onB = await board(b, ownerB, venueId);
    await request(a.baseUrl)
      .post(`/v1/venues/${venueId}/reservations`)
      .set(owner.auth)
      .send({ name: 'via A', partySize: 1 })
      .expect(201);
    await waitFor(() => onB.events.some((e) => e.type === 'reservation.created'), 5000, 'the event on B');
  });

  it('expires a short hold by the BullMQ job, and the board hears it soon after expiresAt', async () => {
    worker = await startWorker(a);
    const venueId = await liveVenue(2);
    const onB = await board(b, ownerB, venueId);
    await request(a.baseUrl)
      .post(`/v1/venues/${venueId}/queue`)
      .set(owner.auth)
      .send({ name: 'Short', partySize: 2 })
      .expect(201);
    const promoted = await request(a.baseUrl).post(`/v1/venues/${venueId}/promotions`).set(owner.auth).send({}).expect(201);
    const expiresAt = Date.parse((promoted.body as { offer: { expiresAt: string } }).offer.expiresAt);
    await waitFor(() => onB.events.some((e) => e.type === 'offer.expired'), 8000, 'offer.expired');
    const heardAt = Date.now();
    // Never early; a generous bound for lateness (the benchmark measures the real figure).
    expect(heardAt).toBeGreaterThanOrEqual(expiresAt);
    expect(heardAt - expiresAt).toBeLessThan(3000);
    const counts = await request(a.baseUrl).get(`/v1/venues/${venueId}/counts`).set(owner.auth).expect(200);
    expect(counts.body).toEqual({ capacity: 4, confirmed: 0, held: 0, available: 4 });
  });

  it('still expires once when the worker is stopped over the deadline and started again', async () => {
    await worker?.close();
    worker = undefined;
    const venueId = await liveVenue(1);
    await request(a.baseUrl).post(`/v1/venues/${venueId}/queue`).set(owner.auth).send({ name: 'Late', partySize: 1 }).expect(201);
    const promoted = await request(a.baseUrl).post(`/v1/venues/${venueId}/promotions`).set(owner.auth).send({}).expect(201);
    const offerId = (promoted.body as { offer: { id: string } }).offer.id;
    await new Promise((r) => setTimeout(r, 2000));
    // Read from the table, not through the api: an api read sweeps lapsed holds itself, and this test
    // is about the worker's job.
    const ds = a.app.get<DataSource>(getDataSourceToken());
    const offerState = async (): Promise<string> =>
      ((await ds.query('SELECT state FROM offers WHERE id = $1', [offerId])) as Array<{ state: string }>)[0]?.state ?? '';
    expect(await offerState()).toBe('live');
    worker = await startWorker(a);
    const until = Date.now() + 8000;
    let state = 'live';
    while (state === 'live' && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 100));
      state = await offerState();
    }
    expect(state).toBe('expired');
    const counts = await request(a.baseUrl).get(`/v1/venues/${venueId}/counts`).set(owner.auth).expect(200);
    expect((counts.body as { held: number }).held).toBe(0);
    const history = await request(a.baseUrl)
      .get(`/v1/venues/${venueId}/history?subjectId=${offerId}`)
      .set(owner.auth)
      .expect(200);
    expect((history.body as Array<{ to: string }>).filter((h) => h.to === 'expired')).toHaveLength(1);
  });
});
