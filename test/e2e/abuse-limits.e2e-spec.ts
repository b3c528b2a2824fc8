import request from 'supertest';
import { AppConfig, loadConfig } from '@hostboard/core';
import { LimiterStore, take } from '@hostboard/auth';
import { deskJoin, freshAddress, moveClock, party, publicJoin, sandboxVenue, uniq } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';

/**
 * Issue 13, items 4 to 6: the public join's abuse limits, Retry-After, what a public refusal
 * reveals, a limiter that keeps answering when Redis is gone, and lists that page instead of cutting.
 */

const CLOCK = '2026-10-09T23:00:00.000Z';
const defaults = new AppConfig();
const codeOf = (res: request.Response): string | undefined => (res.body as { error?: { code?: string } }).error?.code;

describe('the public join, limited per address (TRUST_PROXY unset: the socket address counts)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({
      env: {
        TRUST_PROXY: '',
        JOIN_RATE_PER_ADDRESS: String(defaults.JOIN_RATE_PER_ADDRESS),
        JOIN_RATE_PER_VENUE: String(defaults.JOIN_RATE_PER_VENUE),
      },
    });
  });
  afterAll(() => t.close());

  it('300 anonymous joins from one address meet a 429 with Retry-After; a rotating X-Forwarded-For buys nothing', async () => {
    const owner = await signUp(t, 'owner');
    const v = await sandboxVenue(t, owner, { clock: CLOCK, published: true });
    const statuses: number[] = [];
    let retryAfter: string | undefined;
    for (let i = 0; i < 300; i += 10) {
      const batch = await Promise.all(
        Array.from({ length: 10 }, (_, k) =>
          request(t.baseUrl)
            .post(`/v1/public/venues/${v.slug}/queue`)
            .set('X-Forwarded-For', freshAddress())
            .send({ name: `Spam ${i + k}`, partySize: 2, email: `victim-${uniq()}@example.test` }),
        ),
      );
      for (const r of batch) {
        statuses.push(r.status);
        if (r.status === 429) {
          expect(codeOf(r)).toBe('RATE_LIMITED');
          retryAfter = r.headers['retry-after'] as string | undefined;
        }
      }
    }
    const accepted = statuses.filter((s) => s === 201).length;
    process.stdout.write(`300 joins from one address: ${accepted} accepted, ${statuses.filter((s) => s === 429).length} refused 429\n`);
    expect(accepted).toBe(defaults.JOIN_RATE_PER_ADDRESS);
    expect(statuses.filter((s) => s !== 201 && s !== 429)).toEqual([]);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    expect(Number(retryAfter)).toBeLessThanOrEqual(defaults.JOIN_RATE_WINDOW_SECONDS);
    // Nothing past the limit recorded an email either.
    const queue = (await request(t.baseUrl).get(`/v1/venues/${v.id}/queue`).set(owner.auth).expect(200)).body as { entries: unknown[] };
    expect(queue.entries).toHaveLength(accepted);
    // The desk is staff, not limited.
    await deskJoin(t, owner, v.id, { ...party(2), email: `desk-${uniq()}@example.test` }).expect(201);
  });
});

describe('the public join, limited per venue; what a refusal reveals; token exchange', () => {
  let t: TestApp;
  let owner: Staff;
  beforeAll(async () => {
    t = await startApp({ env: { JOIN_RATE_PER_VENUE: '5', AUTH_RATE_LIMIT: '2' } });
    owner = await signUp(t, 'owner');
  });
  afterAll(() => t.close());

  it('from many addresses, a venue takes JOIN_RATE_PER_VENUE joins per window; another venue is not affected', async () => {
    const busy = await sandboxVenue(t, owner, { clock: CLOCK, published: true });
    const calm = await sandboxVenue(t, owner, { clock: CLOCK, published: true });
    for (let i = 0; i < 5; i++) await publicJoin(t, busy.slug, { ...party(2), email: `p-${uniq()}@example.test` }).expect(201);
    const refused = await publicJoin(t, busy.slug, { ...party(2), email: `p-${uniq()}@example.test` });
    expect({ status: refused.status, code: codeOf(refused) }).toEqual({ status: 429, code: 'RATE_LIMITED' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    await publicJoin(t, calm.slug, { ...party(2), email: `p-${uniq()}@example.test` }).expect(201);
  });

  it('an anonymous duplicate join is told nothing about the party already queued; the desk is told where it stands', async () => {
    const v = await sandboxVenue(t, owner, { clock: CLOCK, published: true });
    const email = `dup-${uniq()}@example.test`;
    const first = (await publicJoin(t, v.slug, { ...party(2), email }).expect(201)).body as { entry: { id: string } };
    const anonymous = await publicJoin(t, v.slug, { ...party(2), email });
    expect(anonymous.status).toBe(409);
    expect(anonymous.body).toEqual({
      error: { code: 'WAITLIST_DUPLICATE', message: 'This contact is already in the queue for today.', details: {} },
    });
    const desk = await deskJoin(t, owner, v.id, { ...party(2), email });
    expect(desk.status).toBe(409);
    expect((desk.body as { error: { details: { entryId?: string } } }).error.details.entryId).toBe(first.entry.id);
  });

  it('token exchange: past the limit, 429 with Retry-After', async () => {
    const from = freshAddress();
    const bogus = (): request.Test =>
      request(t.baseUrl).post('/v1/queue-sessions').set('X-Forwarded-For', from).send({ token: 'A'.repeat(43) });
    expect((await bogus()).status).toBe(401);
    expect((await bogus()).status).toBe(401);
    const limited = await bogus();
    expect({ status: limited.status, code: codeOf(limited) }).toEqual({ status: 429, code: 'RATE_LIMITED' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('limits without Redis', () => {
  it('a limiter whose Redis is unreachable still answers (the in-memory insurance limiter), and still limits', async () => {
    const config = loadConfig({ REDIS_URL: 'redis://127.0.0.1:1', JOBS_PREFIX: `ins${process.pid}` });
    const store = new LimiterStore(config);
    try {
      const limiter = store.create({ name: 'insurance-check', points: 2, durationSeconds: 60 });
      expect(await take(limiter, 'k')).toBeNull();
      expect(await take(limiter, 'k')).toBeNull();
      const third = await take(limiter, 'k');
      expect(third?.msBeforeNext).toBeGreaterThan(0);
    } finally {
      store.onModuleDestroy();
    }
  });
});

describe('lists page instead of cutting: history and reservations', () => {
  let t: TestApp;
  let owner: Staff;
  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'owner');
  });
  afterAll(() => t.close());

  /** Follows Link rel="next" from `first` and answers every page's body. */
  async function allPages(first: string): Promise<Array<Array<Record<string, unknown>>>> {
    const pages: Array<Array<Record<string, unknown>>> = [];
    let next: string | null = first;
    while (next) {
      const res: request.Response = await request(t.baseUrl).get(next).set(owner.auth).expect(200);
      expect(Array.isArray(res.body)).toBe(true);
      pages.push(res.body as Array<Record<string, unknown>>);
      const link = res.headers['link'] as string | undefined;
      next = link ? (/^<([^>]+)>; rel="next"$/.exec(link)?.[1] ?? null) : null;
      if (pages.length > 20) throw new Error('too many pages');
    }
    return pages;
  }

  it('reservations: newest first, ?limit= pages with a Link to the next, nothing lost or repeated', async () => {
    const v = await sandboxVenue(t, owner, { clock: CLOCK, preset: 'workshop', poolCapacity: 20 });
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const r = await request(t.baseUrl).post(`/v1/venues/${v.id}/reservations`).set(owner.auth).send({ name: `R${i}`, partySize: 1 }).expect(201);
      ids.push((r.body as { id: string }).id);
    }
    const pages = await allPages(`/v1/venues/${v.id}/reservations?limit=3`);
    expect(pages.map((p) => p.length)).toEqual([3, 3, 1]);
    // The default page holds them all, with no Link; the pages hold the same, in the same order.
    const all = await request(t.baseUrl).get(`/v1/venues/${v.id}/reservations`).set(owner.auth).expect(200);
    expect(all.headers['link']).toBeUndefined();
    expect(pages.flat()).toEqual(all.body);
    expect(pages.flat().map((r) => r['id']).sort()).toEqual([...ids].sort());
    // Newest first: one made by the wall clock now leads (a sandbox's clock stands still, so the
    // seven above share one time and are ordered by id among themselves).
    await moveClock(t, owner, v.id, '2026-10-09T23:30:00.000Z');
    const later = await request(t.baseUrl).post(`/v1/venues/${v.id}/reservations`).set(owner.auth).send({ name: 'Later', partySize: 1 }).expect(201);
    const first = (await request(t.baseUrl).get(`/v1/venues/${v.id}/reservations?limit=1`).set(owner.auth).expect(200)).body as Array<{ id: string }>;
    expect(first.map((r) => r.id)).toEqual([(later.body as { id: string }).id]);
    for (const bad of ['0', '501', 'abc', '2.5']) {
      const res = await request(t.baseUrl).get(`/v1/venues/${v.id}/reservations?limit=${bad}`).set(owner.auth);
      expect({ bad, status: res.status, code: codeOf(res) }).toEqual({ bad, status: 400, code: 'VALIDATION' });
    }
    const cursorJunk = await request(t.baseUrl).get(`/v1/venues/${v.id}/reservations?before=bm90LWEtdXVpZA`).set(owner.auth);
    expect(cursorJunk.status).toBe(400);
  });

  it('history: newest first, pages keep the subject filter, 500 at most per page', async () => {
    const v = await sandboxVenue(t, owner, { clock: CLOCK, preset: 'workshop', poolCapacity: 20 });
    const r = await request(t.baseUrl).post(`/v1/venues/${v.id}/reservations`).set(owner.auth).send({ name: 'H', partySize: 1 }).expect(201);
    const id = (r.body as { id: string }).id;
    await request(t.baseUrl).post(`/v1/venues/${v.id}/reservations/${id}/cancel`).set(owner.auth).send({}).expect(200);
    for (let i = 0; i < 4; i++) {
      await request(t.baseUrl).post(`/v1/venues/${v.id}/reservations`).set(owner.auth).send({ name: `X${i}`, partySize: 1 }).expect(201);
    }
    const everything = (await request(t.baseUrl).get(`/v1/venues/${v.id}/history?limit=500`).set(owner.auth).expect(200)).body as Array<{
      at: string;
    }>;
    const paged = (await allPages(`/v1/venues/${v.id}/history?limit=2`)).flat();
    expect(paged).toEqual(everything);
    const times = everything.map((h) => Date.parse(h.at));
    expect([...times].sort((x, y) => y - x)).toEqual(times);
    const mine = await allPages(`/v1/venues/${v.id}/history?subjectId=${id}&limit=1`);
    expect(mine.flat().map((h) => h['to'])).toEqual(['CANCELLED', 'CONFIRMED']);
    expect((await request(t.baseUrl).get(`/v1/venues/${v.id}/history?limit=501`).set(owner.auth)).status).toBe(400);
  });
});
