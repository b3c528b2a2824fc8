import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { BoardClient, waitFor } from '../support/board-client.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { describeWithServerAndRedis, freshDatabase, type TestDatabase } from '../support/test-database.js';
import { createVenue, signIn, signUp, type Staff } from '../support/staff.js';

/**
 * Two deployments sharing one Redis server each set their own JOBS_PREFIX (README): staging and
 * production, say. Redis pub/sub channels belong to the whole server (not to a key prefix, nor to a
 * database number), and the board's socket.io adapter and the worker's emitter used socket.io's
 * default channel: every board push, and every "end these sessions" and "this member left" cut, of
 * one deployment reached the sockets of the other. A staging copy restored from production's dump
 * holds the same venue, user and session ids, so production tablets showed staging's events (guest
 * names included) and staging's boards showed production's. Here the two deployments share one
 * database to hold the same ids.
 */
describeWithServerAndRedis('two api deployments sharing one Redis server')('board pushes stay within their deployment', () => {
  let db: TestDatabase;
  let prod: TestApp;
  let staging: TestApp;
  let owner: Staff;
  let ownerOnStaging: Staff;
  const clients: BoardClient[] = [];

  beforeAll(async () => {
    db = await freshDatabase();
    const tag = randomBytes(3).toString('hex');
    prod = await startApp({ db, env: { JOBS_PREFIX: `prod-${tag}` } });
    staging = await startApp({ db, env: { JOBS_PREFIX: `staging-${tag}` } });
    owner = await signUp(prod, 'owner');
    ownerOnStaging = await signIn(staging, owner.email, owner.password);
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await staging.close();
    await prod.close();
    await db.drop();
  });

  async function board(t: TestApp, staff: Staff, venueId: string): Promise<BoardClient> {
    const c = new BoardClient(t.baseUrl, staff.token);
    clients.push(c);
    await c.connected();
    await c.subscribe(venueId);
    return c;
  }

  it("a change made on one deployment is pushed to its own boards only, not to the other's", async () => {
    const { id: venueId } = await createVenue(prod, owner);
    const onProd = await board(prod, owner, venueId);
    const onStaging = await board(staging, ownerOnStaging, venueId);
    await request(prod.baseUrl)
      .post(`/v1/venues/${venueId}/tables`)
      .set(owner.auth)
      .send({ label: 'P1', capacity: 2 })
      .expect(201);
    await waitFor(() => onProd.events.some((e) => e.type === 'table.created'), 5000, 'the event on its own board');
    // Given the time it took to reach its own board, and as long again.
    await new Promise((r) => setTimeout(r, 1500));
    expect(onStaging.events.map((e) => e.type)).toEqual([]);
  });
});
