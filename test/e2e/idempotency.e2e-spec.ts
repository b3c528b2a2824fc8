import { jest } from '@jest/globals';
import pg from 'pg';
import request from 'supertest';
import { IdempotencyStore } from '@hostboard/core';
import { startApp, type TestApp } from '../support/test-app.js';
import { addMember, signUp, type Staff } from '../support/staff.js';
import { activeEntries, deskJoin, party, sandboxVenue } from '../support/restaurant.js';

describe('Idempotency-Key', () => {
  let t: TestApp;
  let owner: Staff;
  let n = 0;
  const body = (): Record<string, unknown> => ({
    slug: `idem-${++n}`,
    name: 'Idem',
    timeZone: 'Europe/Paris',
    preset: 'workshop',
    poolCapacity: 12,
  });

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'owner');
  });
  afterAll(() => t.close());

  const myVenues = async (): Promise<Array<{ slug: string }>> =>
    (await request(t.baseUrl).get('/v1/venues').set(owner.auth).expect(200)).body as Array<{ slug: string }>;

  it('replays the stored response for the same key and body, and runs the command once', async () => {
    const b = body();
    const first = await request(t.baseUrl)
      .post('/v1/venues')
      .set(owner.auth)
      .set('Idempotency-Key', 'k-replay')
      .send(b)
      .expect(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await request(t.baseUrl)
      .post('/v1/venues')
      .set(owner.auth)
      .set('Idempotency-Key', 'k-replay')
      .send({ ...b })
      .expect(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await myVenues()).filter((v) => v.slug === b['slug'])).toHaveLength(1);
  });

  it('refuses the same key with a different body', async () => {
    const b = body();
    await request(t.baseUrl).post('/v1/venues').set(owner.auth).set('Idempotency-Key', 'k-reuse').send(b).expect(201);
    const res = await request(t.baseUrl)
      .post('/v1/venues')
      .set(owner.auth)
      .set('Idempotency-Key', 'k-reuse')
      .send({ ...b, name: 'Other' })
      .expect(422);
    expect((res.body as { error: { code: string } }).error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('keys belong to their caller: another user with the same key runs their own command', async () => {
    const other = await signUp(t, 'other');
    const b = body();
    await request(t.baseUrl).post('/v1/venues').set(owner.auth).set('Idempotency-Key', 'k-shared').send(b).expect(201);
    const res = await request(t.baseUrl)
      .post('/v1/venues')
      .set(other.auth)
      .set('Idempotency-Key', 'k-shared')
      .send(b)
      .expect(409);
    expect((res.body as { error: { code: string } }).error.code).toBe('CONFLICT');
  });

  it("keys belong to the venue acted on too: an organizer's operation ids work at each of their workshops", async () => {
    // The worksheet names operations T-01, T-02, …; the organizer uses them as keys at a practice
    // venue and at the live one (or at two workshops): each venue runs its own.
    const workshop = async (capacity: number): Promise<string> => {
      const v = (
        await request(t.baseUrl)
          .post('/v1/venues')
          .set(owner.auth)
          .send({ ...body(), poolCapacity: capacity })
          .expect(201)
      ).body as { id: string };
      const r = await request(t.baseUrl)
        .post(`/v1/venues/${v.id}/reservations`)
        .set(owner.auth)
        .send({ name: 'B', partySize: 3 })
        .expect(201);
      const reservation = r.body as { id?: string; reservation?: { id: string } };
      return `/v1/venues/${v.id}/reservations/${reservation.reservation?.id ?? reservation.id ?? ''}/cancel`;
    };
    const [x, y] = [await workshop(7), await workshop(9)];
    const inX = await request(t.baseUrl).post(x).set(owner.auth).set('Idempotency-Key', 'T-01').send({}).expect(200);
    const inY = await request(t.baseUrl).post(y).set(owner.auth).set('Idempotency-Key', 'T-01').send({});
    expect(inY.status).toBe(200);
    expect(inY.headers['idempotent-replayed']).toBeUndefined();
    expect((inY.body as { reservation: { state: string } }).reservation.state).toBe('CANCELLED');
    expect(inY.body).not.toEqual(inX.body);
    // Within one venue the key still names one request: a retry replays, another request is refused.
    const retried = await request(t.baseUrl).post(y).set(owner.auth).set('Idempotency-Key', 'T-01').send({}).expect(200);
    expect(retried.headers['idempotent-replayed']).toBe('true');
    const venueY = y.split('/')[3] ?? '';
    const other = await request(t.baseUrl)
      .post(`/v1/venues/${venueY}/reservations`)
      .set(owner.auth)
      .set('Idempotency-Key', 'T-01')
      .send({ name: 'C', partySize: 1 })
      .expect(422);
    expect((other.body as { error: { code: string } }).error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('replays a refusal as the same refusal', async () => {
    const b = body();
    await request(t.baseUrl).post('/v1/venues').set(owner.auth).send(b).expect(201);
    const refused = await request(t.baseUrl)
      .post('/v1/venues')
      .set(owner.auth)
      .set('Idempotency-Key', 'k-refused')
      .send(b)
      .expect(409);
    const replay = await request(t.baseUrl)
      .post('/v1/venues')
      .set(owner.auth)
      .set('Idempotency-Key', 'k-refused')
      .send(b)
      .expect(409);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(refused.body);
  });

  it('a DELETE retried with its key replays the first answer (204 with no body), not "not a member"', async () => {
    const venue = (await request(t.baseUrl).post('/v1/venues').set(owner.auth).send(body()).expect(201)).body as { id: string };
    const host = await addMember(t, venue.id, owner, 'host');
    const remove = (key: string): request.Test =>
      request(t.baseUrl).delete(`/v1/venues/${venue.id}/members/${host.userId}`).set(owner.auth).set('Idempotency-Key', key);
    const first = await remove('k-delete').expect(204);
    const again = await remove('k-delete').expect(204);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.text).toBe(first.text);
    // A new key is a new request: that member is gone.
    expect((await remove('k-delete-2')).status).toBe(404);
  });

  it('refuses a malformed key', async () => {
    const res = await request(t.baseUrl)
      .post('/v1/venues')
      .set(owner.auth)
      .set('Idempotency-Key', 'has space')
      .send(body())
      .expect(400);
    expect((res.body as { error: { code: string } }).error.code).toBe('VALIDATION');
  });

  it('runs the command once when many requests with one key arrive together (20 rounds)', async () => {
    for (let round = 0; round < 20; round++) {
      const b = body();
      const key = `k-race-${round}`;
      const answers = await Promise.all(
        Array.from({ length: 6 }, () =>
          request(t.baseUrl).post('/v1/venues').set(owner.auth).set('Idempotency-Key', key).send(b),
        ),
      );
      const fresh = answers.filter((r) => r.status === 201 && r.headers['idempotent-replayed'] === undefined);
      const replayed = answers.filter((r) => r.status === 201 && r.headers['idempotent-replayed'] === 'true');
      const inProgress = answers.filter(
        (r) => r.status === 409 && (r.body as { error: { code: string } }).error.code === 'IDEMPOTENCY_IN_PROGRESS',
      );
      expect(fresh).toHaveLength(1);
      expect(fresh.length + replayed.length + inProgress.length).toBe(answers.length);
      for (const r of replayed) expect(r.body).toEqual(fresh[0]?.body);
      expect((await myVenues()).filter((v) => v.slug === b['slug'])).toHaveLength(1);
    }
  });

  /**
   * The first request commits after the retry's up-front read looked (that read is made to miss here,
   * as a late commit would): the retry's command runs, is stopped by what the first one wrote (the
   * same slug, the same contact, or the key's own primary key), and answers the stored answer.
   */
  describe('when the first answer is stored after the up-front read', () => {
    const missNextRead = (): void => {
      const store = t.app.get(IdempotencyStore);
      jest.spyOn(store, 'replayIfStored').mockImplementationOnce(() => Promise.resolve());
    };
    afterEach(() => jest.restoreAllMocks());

    it('a venue created twice answers the first creation', async () => {
      const b = body();
      const first = await request(t.baseUrl)
        .post('/v1/venues')
        .set(owner.auth)
        .set('Idempotency-Key', 'k-late-v')
        .send(b)
        .expect(201);
      missNextRead();
      const again = await request(t.baseUrl)
        .post('/v1/venues')
        .set(owner.auth)
        .set('Idempotency-Key', 'k-late-v')
        .send(b)
        .expect(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
      expect((await myVenues()).filter((v) => v.slug === b['slug'])).toHaveLength(1);
    });

    it('a desk join sent twice answers the first join, and the party is queued once', async () => {
      const venue = await sandboxVenue(t, owner, { clock: '2026-03-04T18:10:00-06:00' });
      const p = party(3);
      const first = await deskJoin(t, owner, venue.id, p).set('Idempotency-Key', 'k-late-j').expect(201);
      missNextRead();
      const again = await deskJoin(t, owner, venue.id, p).set('Idempotency-Key', 'k-late-j').expect(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual({ ...(first.body as object), queueToken: null });
      expect(await activeEntries(t, owner, venue.id)).toHaveLength(1);
    });

    it('a join whose contact changed in between gets the key-reuse refusal, not a second entry', async () => {
      const venue = await sandboxVenue(t, owner, { clock: '2026-03-04T18:10:00-06:00' });
      await deskJoin(t, owner, venue.id, party(2)).set('Idempotency-Key', 'k-late-r').expect(201);
      missNextRead();
      const res = await deskJoin(t, owner, venue.id, party(2)).set('Idempotency-Key', 'k-late-r').expect(422);
      expect((res.body as { error: { code: string } }).error.code).toBe('IDEMPOTENCY_KEY_REUSED');
      expect(await activeEntries(t, owner, venue.id)).toHaveLength(1);
    });
  });

  /**
   * A venue command takes the key's lock in the statement that takes the venue's (one round trip
   * less); the key's lock still comes first, so a request whose key is still running is refused at
   * once, not after waiting for the venue.
   */
  describe('the key’s lock, taken with the venue’s', () => {
    it('joins with one key, sent together, run once (20 rounds)', async () => {
      const venue = await sandboxVenue(t, owner, { clock: '2026-03-04T18:10:00-06:00' });
      for (let round = 0; round < 20; round++) {
        const p = party(2);
        const answers = await Promise.all(
          Array.from({ length: 5 }, () => deskJoin(t, owner, venue.id, p).set('Idempotency-Key', `k-join-race-${round}`)),
        );
        const fresh = answers.filter((r) => r.status === 201 && r.headers['idempotent-replayed'] === undefined);
        const others = answers.filter(
          (r) =>
            (r.status === 201 && r.headers['idempotent-replayed'] === 'true') ||
            (r.status === 409 && (r.body as { error: { code: string } }).error.code === 'IDEMPOTENCY_IN_PROGRESS'),
        );
        expect([fresh.length, others.length]).toEqual([1, 4]);
      }
      expect(await activeEntries(t, owner, venue.id)).toHaveLength(20);
    });

    // A second connection holding the key's lock needs a PostgreSQL server (PGlite is one connection).
    const withServer = (name: string, fn: () => Promise<void>): void =>
      process.env['DATABASE_URL']
        ? it(name, fn)
        : it.skip(`${name} [skipped: a second connection holding the key needs a PostgreSQL server; set DATABASE_URL]`, fn);
    withServer('a key still running on another connection is refused at once while that connection holds the venue', async () => {
      const venue = await sandboxVenue(t, owner, { clock: '2026-03-04T18:10:00-06:00' });
      const key = 'k-held-elsewhere';
      const other = new pg.Client({ connectionString: t.db.url });
      await other.connect();
      try {
        await other.query('BEGIN');
        await other.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 7))', [
          `staff:${owner.userId} venue:${venue.id.toLowerCase()}\n${key}`,
        ]);
        await other.query('SELECT id FROM venues WHERE id = $1 FOR UPDATE', [venue.id]);
        // Had the venue's lock been taken first, this would wait until the other connection ends.
        const res = await deskJoin(t, owner, venue.id, party(2)).set('Idempotency-Key', key).timeout(5_000);
        expect([res.status, (res.body as { error: { code: string } }).error.code]).toEqual([409, 'IDEMPOTENCY_IN_PROGRESS']);
      } finally {
        await other.query('ROLLBACK');
        await other.end();
      }
      await deskJoin(t, owner, venue.id, party(2)).set('Idempotency-Key', key).expect(201);
      // An unknown venue is still not found, key or not.
      const unknown = await request(t.baseUrl)
        .post('/v1/venues/00000000-0000-4000-8000-000000000000/queue')
        .set(owner.auth)
        .set('Idempotency-Key', 'k-unknown')
        .send(party(2));
      expect(unknown.status).toBe(404);
    });
  });
});
