import request from 'supertest';
import type { FuzzContext } from './fuzz-arbitraries.js';
import { EVERY_DAY, exchange, joined, party, publicJoin, sandboxVenue, type Sandbox } from './restaurant.js';
import type { Staff } from './staff.js';
import type { TestApp } from './test-app.js';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

export interface DeepFixture {
  restaurant: Sandbox;
  workshop: Sandbox;
  ctx: FuzzContext;
  /** Queue session tokens of parties waiting at the restaurant. */
  sessions: string[];
}

/**
 * Two sandbox venues with something on every list (entries, an offer, reservations) for the fuzz to
 * aim at: every id the API shows about them becomes a path parameter or a body value. Setup steps
 * that the API refuses are skipped, not failed: the fuzz needs ids, not a particular state.
 */
export async function deepFixture(t: TestApp, owner: Staff): Promise<DeepFixture> {
  const clock = '2026-10-09T18:00:00Z';
  const seen: string[] = [];
  const harvest = (body: unknown): void => {
    for (const id of JSON.stringify(body ?? null).match(UUID) ?? []) if (!seen.includes(id)) seen.push(id);
  };
  const restaurant = await sandboxVenue(t, owner, {
    clock,
    published: true,
    windows: [{ days: EVERY_DAY, start: '00:00', end: '23:59', turnMinutes: 30 }],
    tables: [
      { label: 'T1', capacity: 4 },
      { label: 'T2', capacity: 2 },
      { label: 'T3', capacity: 6 },
    ],
  });
  const workshop = await sandboxVenue(t, owner, { clock, preset: 'workshop', poolCapacity: 8, published: true });
  const api = (method: 'post' | 'get', path: string, body?: object): Promise<request.Response> => {
    const req = request(t.baseUrl)[method](path).set(owner.auth);
    return body ? req.send(body) : req;
  };
  // Registered before anyone waits: a registration while groups wait is refused (strict order).
  harvest((await api('post', `/v1/venues/${workshop.id}/reservations`, { name: 'Booked', partySize: 2 })).body);
  for (const v of [restaurant, workshop]) for (let i = 0; i < 4; i++) harvest(await joined(t, owner, v.id, party(2 + (i % 3))));
  const entries = seen.slice();
  harvest(
    (
      await api('post', `/v1/venues/${restaurant.id}/offers`, {
        entryId: entries[0],
        entryVersion: 1,
        tableIds: [restaurant.tableIds['T1']],
      })
    ).body,
  );
  const start = new Date(Date.parse(clock) + 3 * 3_600_000).toISOString();
  harvest(
    (
      await api('post', `/v1/venues/${restaurant.id}/reservations`, {
        name: 'Booked',
        partySize: 2,
        start,
        tableIds: [restaurant.tableIds['T2']],
      })
    ).body,
  );
  const sessions: string[] = [];
  for (let i = 0; i < 3; i++) {
    const joinedPublicly = (await publicJoin(t, restaurant.slug, party(2))).body as { queueToken?: string };
    harvest(joinedPublicly);
    if (!joinedPublicly.queueToken) continue;
    const opened = (await exchange(t, joinedPublicly.queueToken)).body as { sessionToken?: string };
    if (opened.sessionToken) sessions.push(opened.sessionToken);
  }
  for (const v of [restaurant, workshop])
    for (const list of ['board', 'queue', 'reservations', 'tables', 'combinations', 'history'])
      harvest((await api('get', `/v1/venues/${v.id}/${list}`)).body);
  if (sessions.length === 0) throw new Error('the fuzz fixture could not open a queue session');
  const tableIds = Object.values(restaurant.tableIds);
  return {
    restaurant,
    workshop,
    sessions,
    ctx: { ids: seen.filter((id) => id !== restaurant.id && id !== workshop.id), tableIds, now: Date.parse(clock) },
  };
}
