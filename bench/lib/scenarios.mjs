// The scenarios measured by latency and correctness (the load phases with their CPU per request are
// in phases.mjs). Each returns plain figures; bench.mjs writes the table.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { io } from 'socket.io-client';
import { login, stats } from './client.mjs';
import { DATABASE_URL, psql } from './stack.mjs';

/**
 * Subscribes a board socket to a venue as a board does, and waits out the api's rate limit
 * (board-socket.limiter.ts: a subscribe past the burst is refused, not queued). Answers whether
 * the socket is in the venue's room and how many times it was refused on the way.
 */
async function subscribeBoard(socket, venueId) {
  let refusals = 0;
  for (;;) {
    const ack = await socket.timeout(10_000).emitWithAck('subscribe', { venueId });
    if (!ack?.error) return { ok: true, refusals };
    if (ack.error.code !== 'RATE_LIMITED' || refusals >= 10) return { ok: false, refusals };
    refusals++;
    await sleep(1100);
  }
}

async function boardSocket(url, token) {
  const s = io(`${url}/board`, { auth: { token }, transports: ['websocket'], forceNew: true });
  await new Promise((res, rej) => (s.once('connect', res), s.once('connect_error', rej)));
  return s;
}

const slug = (p) => `${p}-${Math.random().toString(36).slice(2, 10)}`;

export async function createVenues(call, n, body) {
  const ids = [];
  for (let i = 0; i < n; i++) {
    const r = await call('POST', '/v1/venues', { slug: slug('bench'), name: `Bench ${i}`, timeZone: 'America/Chicago', preset: 'workshop', poolCapacity: 100000, ...body });
    if (r.status !== 201) throw new Error(`venue ${r.status} ${JSON.stringify(r.body)}`);
    ids.push(r.body.id);
  }
  return ids;
}

/** 200 concurrent promotions for one seat, node:cluster spreading the connections over the api processes: exactly one hold. */
export async function lastSeatStorm(calls, call, rounds = 3) {
  const results = [];
  for (let r = 0; r < rounds; r++) {
    const [venueId] = await createVenues(call, 1, { poolCapacity: 1 });
    for (let i = 0; i < 2; i++) await call('POST', `/v1/venues/${venueId}/queue`, { name: `S${i}`, partySize: 1 });
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => calls[i % calls.length]('POST', `/v1/venues/${venueId}/promotions`, {})));
    const holds = answers.filter((a) => a.status === 201).length;
    const clean = answers.filter((a) => a.status === 200 && a.body.offer === null).length;
    const otherStatuses = {};
    for (const a of answers) if (a.status !== 201 && !(a.status === 200 && a.body.offer === null)) otherStatuses[a.status] = (otherStatuses[a.status] ?? 0) + 1;
    results.push({ holds, cleanRefusals: clean, other: answers.length - holds - clean, otherStatuses, latencyMs: stats(answers.map((a) => a.ms)) });
  }
  return { attemptsPerRound: 200, rounds: results };
}

/**
 * Offers with short holds expiring within a few seconds: delay from expiresAt to the board event.
 * With `holdSeconds` longer than the promotion burst takes, every offer exists before the first one
 * falls due, so the figure is the expiry path itself; with a short hold the expiries land in the
 * middle of the burst (20 venues promoting at once), which measures them under a saturating load.
 */
export async function expiryPunctuality(call, token, baseUrl, offers = 500, perVenue = 25, holdSeconds = 3) {
  const venues = await createVenues(call, Math.ceil(offers / perVenue), { poolCapacity: perVenue });
  const expiresAt = new Map();
  const delays = [];
  let early = 0;
  // A dropped socket loses its rooms (a reconnect does not subscribe again): one reason for a miss.
  const disconnects = {};
  const onExpired = (e) => {
    if (e.type !== 'offer.expired') return;
    const due = expiresAt.get(e.data.offerId);
    if (due === undefined) return;
    const d = Date.now() - due;
    if (d < 0) early++;
    delays.push(d);
  };
  // One board per venue, as a floor has it (one socket on many venues meets the per-socket limit).
  const sockets = [];
  let refused = 0;
  let refusals = 0;
  for (const v of venues) {
    await call('PATCH', `/v1/venues/${v}`, { policy: { holdSeconds } });
    const socket = await boardSocket(baseUrl, token);
    socket.on('disconnect', (reason) => (disconnects[reason] = (disconnects[reason] ?? 0) + 1));
    socket.on('board.event', onExpired);
    const sub = await subscribeBoard(socket, v);
    refusals += sub.refusals;
    if (!sub.ok) refused++;
    sockets.push(socket);
  }
  // Join everyone first, then promote in a burst so the deadlines fall within a few seconds.
  await Promise.all(
    venues.map(async (v) => {
      for (let i = 0; i < perVenue; i++) await call('POST', `/v1/venues/${v}/queue`, { name: `E${i}`, partySize: 1 });
    }),
  );
  await Promise.all(
    venues.map(async (v) => {
      for (let i = 0; i < perVenue; i++) {
        const p = await call('POST', `/v1/venues/${v}/promotions`, {});
        if (p.status === 201) expiresAt.set(p.body.offer.id, Date.parse(p.body.offer.expiresAt));
      }
    }),
  );
  const spanMs = Math.max(...expiresAt.values()) - Math.min(...expiresAt.values());
  const burstEndedBeforeFirstDue = Date.now() < Math.min(...expiresAt.values());
  // An expiry more than 5 s late is a miss against a 500 ms target: no need to wait longer for it.
  const until = Math.max(...expiresAt.values()) + 5000;
  while (delays.length < expiresAt.size && Date.now() < until) await sleep(100);
  for (const socket of sockets) socket.off('disconnect').close();
  // Whether a missing board event is a missing expiry or a lost delivery.
  const ids = [...expiresAt.keys()].map((id) => `'${id}'`).join(',');
  const expiredInDb = ids ? Number(psql(`SELECT count(*) FROM offers WHERE id IN (${ids}) AND state = 'expired'`, DATABASE_URL).trim()) : 0;
  return { offers: expiresAt.size, holdSeconds, spanMs, burstEndedBeforeFirstDue, expiredSeen: delays.length, expiredInDb, early, refused, rateLimitedRetries: refusals, disconnects, delayMs: stats(delays) };
}

/**
 * 200 boards on one venue, node:cluster spreading them over the api processes: delay from the
 * command's answer to delivery, and how many deliveries never came (every board should get every
 * event). A version is the change's whose request started last before the version first arrived.
 */
export async function boardFanout(calls, token, urls, call, boards = 200, changes = 30, boardsPerLogin = 10) {
  const [venueId] = await createVenues(call, 1, {});
  // The floor's tablets on several staff logins (the api limits subscribes per login).
  const tokens = [];
  for (let u = 0; u < Math.ceil(boards / boardsPerLogin); u++) {
    const email = `board-${u}-${Math.random().toString(36).slice(2, 8)}@bench.local`;
    const password = `bench-board-${Math.random().toString(36).slice(2)}-pw`;
    const m = await call('POST', `/v1/venues/${venueId}/members`, { email, name: `Board ${u}`, password, role: 'host' });
    if (m.status !== 201) throw new Error(`member ${m.status} ${JSON.stringify(m.body)}`);
    tokens.push(await login(urls[0], email, password));
  }
  const sockets = [];
  const received = new Map();
  const disconnects = {};
  const perSocket = new Array(boards).fill(0);
  let refused = 0;
  let refusals = 0;
  for (let i = 0; i < boards; i++) {
    const s = await boardSocket(urls[i % urls.length], tokens[i % tokens.length]);
    const sub = await subscribeBoard(s, venueId);
    refusals += sub.refusals;
    if (!sub.ok) refused++;
    s.on('disconnect', (reason) => (disconnects[reason] = (disconnects[reason] ?? 0) + 1));
    const n = i;
    s.on('board.event', (e) => {
      perSocket[n]++;
      const list = received.get(e.version) ?? [];
      list.push(performance.now());
      received.set(e.version, list);
    });
    sockets.push(s);
  }
  const sent = [];
  for (let c = 0; c < changes; c++) {
    const t0 = performance.now();
    const r = await calls[c % calls.length]('POST', `/v1/venues/${venueId}/reservations`, { name: `F${c}`, partySize: 1 });
    if (r.status === 201) sent.push({ t0, committedAt: t0 + r.ms });
    await sleep(100);
  }
  // Stragglers: a delivery later than this is as good as lost for a board.
  await sleep(2000);
  for (const s of sockets) s.off('disconnect').close();
  const delays = [];
  for (const arrivals of received.values()) {
    const first = Math.min(...arrivals);
    const change = sent.filter((x) => x.t0 <= first).at(-1);
    if (change) for (const at of arrivals) delays.push(Math.max(0, at - change.committedAt));
  }
  const expected = received.size * boards;
  // Which boards missed events: none at all, or some (stopped receiving part-way).
  const silent = perSocket.filter((n) => n === 0).length;
  const partial = perSocket.filter((n) => n > 0 && n < received.size).length;
  return { boards, changes: sent.length, versions: received.size, deliveries: delays.length, missing: expected - delays.length, silent, partial, refused, rateLimitedRetries: refusals, disconnects, delayMs: stats(delays) };
}

/** Join and GET /board cost at 10, 1,000 and 10,000 active entries in one venue, with the query plans. */
export async function scaleWithSize(call, sizes = [10, 1000, 10000]) {
  const out = [];
  for (const size of sizes) {
    const [venueId] = await createVenues(call, 1, {});
    // Bulk-load the queue in SQL (the figure is the cost at that size, not the cost of getting there).
    psql(
      `WITH v AS (SELECT id FROM venues WHERE id = '${venueId}')
       INSERT INTO queue_entries (id, venue_id, name, party_size, status, received_at, queue_sequence, business_date, version, created_at)
       SELECT gen_random_uuid(), v.id, 'L' || g, 1, 'waiting', now() - interval '1 hour' + g * interval '1 ms', g, current_date, 1, now() FROM v, generate_series(1, ${size}) g;
       UPDATE venues SET queue_sequence_last = ${size} WHERE id = '${venueId}'; ANALYZE queue_entries;`,
      DATABASE_URL,
    );
    const join = [];
    const board = [];
    for (let i = 0; i < 30; i++) join.push((await call('POST', `/v1/venues/${venueId}/queue`, { name: `X${i}`, partySize: 1 })).ms);
    for (let i = 0; i < 10; i++) board.push((await call('GET', `/v1/venues/${venueId}/board`)).ms);
    const plan = psql(
      `EXPLAIN SELECT * FROM queue_entries e WHERE e.venue_id = '${venueId}' AND e.status IN ('waiting','offered') ORDER BY e.received_at, e.queue_sequence`,
      DATABASE_URL,
    );
    out.push({ activeEntries: size, joinMs: stats(join), boardMs: stats(board), activeQueuePlan: plan.split('\n')[0]?.trim() });
  }
  return out;
}
