// The benchmark scenarios. Each returns plain figures; bench.mjs pairs them and writes the table.
import { execFileSync } from 'node:child_process';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { io } from 'socket.io-client';
import { closedLoop, stats } from './client.mjs';
import { DATABASE_URL, psql } from './stack.mjs';

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

/** Desk joins spread over many venues, against pgbench doing the same SQL work at the same concurrency. */
export async function joins(calls, venueIds, clients, seconds) {
  const project = await closedLoop(clients, seconds, async (i) => {
    const call = calls[i % calls.length];
    const r = await call('POST', `/v1/venues/${venueIds[i % venueIds.length]}/queue`, { name: `J${i}`, partySize: 2, email: `j${i}-${process.pid}@bench.local` });
    return r.status === 201;
  });
  const reference = pgbenchJoin(venueIds, clients, seconds);
  return { clients, project, pgbench: reference, ratio: Math.round((project.perSecond / reference.perSecond) * 100) / 100 };
}

/**
 * pgbench running the SQL of one join transaction: lock the venue row, take the next sequence,
 * insert the entry, its history, its queueing email and its board event, bump the version.
 */
export function pgbenchJoin(venueIds, clients, seconds) {
  psql(`DROP TABLE IF EXISTS bench_venues; CREATE TABLE bench_venues (n int PRIMARY KEY, id uuid NOT NULL)`, DATABASE_URL);
  psql(`INSERT INTO bench_venues VALUES ${venueIds.map((id, i) => `(${i + 1}, '${id}')`).join(',')}`, DATABASE_URL);
  const dir = mkdtempSync(join(tmpdir(), 'hb-pgbench-'));
  const script = join(dir, 'join.sql');
  writeFileSync(
    script,
    `\\set n random(1, ${venueIds.length})
BEGIN;
SELECT v.id FROM venues v WHERE v.id = (SELECT id FROM bench_venues WHERE n = :n) FOR UPDATE;
UPDATE venues SET queue_sequence_last = queue_sequence_last + 1 WHERE id = (SELECT id FROM bench_venues WHERE n = :n) RETURNING queue_sequence_last;
SELECT count(*) FROM queue_entries WHERE venue_id = (SELECT id FROM bench_venues WHERE n = :n) AND status IN ('waiting', 'offered');
INSERT INTO queue_entries (id, venue_id, name, party_size, email, contact_key, status, received_at, queue_sequence, business_date, version, quoted_position, quoted_at, created_at)
  SELECT gen_random_uuid(), id, 'pgbench', 2, 'p@bench.local', NULL, 'waiting', now(), (SELECT queue_sequence_last FROM venues WHERE id = b.id), current_date, 1, 1, now(), now() FROM bench_venues b WHERE n = :n;
INSERT INTO history (venue_id, subject_type, subject_id, from_state, to_state, at, actor, operation_id) SELECT id, 'entry', gen_random_uuid(), NULL, 'waiting', now(), 'staff:bench', 'join-bench' FROM bench_venues WHERE n = :n;
INSERT INTO outbox_messages (id, venue_id, to_address, template, subject, body, status, created_at) SELECT gen_random_uuid(), id, 'p@bench.local', 'queue-joined', 'You are in the queue', 'Queue position when you joined: 1', 'recorded', now() FROM bench_venues WHERE n = :n;
UPDATE venues SET version = version + 1 WHERE id = (SELECT id FROM bench_venues WHERE n = :n) RETURNING version;
INSERT INTO board_events (venue_id, version, type, data, created_at) SELECT id, (SELECT version FROM venues WHERE id = b.id), 'entry.joined', '{}'::jsonb, now() FROM bench_venues b WHERE n = :n;
COMMIT;
`,
  );
  const out = execFileSync('pgbench', ['-n', '-f', script, '-c', String(clients), '-j', String(Math.min(clients, 2)), '-T', String(seconds), '-r', DATABASE_URL], { encoding: 'utf8' });
  const tps = Number(/tps = ([\d.]+)/.exec(out)?.[1] ?? 0);
  const latency = Number(/latency average = ([\d.]+) ms/.exec(out)?.[1] ?? 0);
  return { perSecond: Math.round(tps), latencyAvgMs: latency };
}

/**
 * Offer → accept cycles on table venues (a window running all day, many tables so that each cycle
 * has a free one), each step timed: join, offer one table, accept on the party's behalf.
 */
export async function offerAccept(calls, call, clients, seconds, tablesPerVenue = 120) {
  const venues = [];
  for (let i = 0; i < clients; i++) {
    const r = await call('POST', '/v1/venues', { slug: slug('tables'), name: `Tables ${i}`, timeZone: 'America/Chicago', preset: 'restaurant' });
    const id = r.body.id;
    await call('POST', `/v1/venues/${id}/service-windows`, { days: [1, 2, 3, 4, 5, 6, 7], start: '00:00', end: '23:59', turnMinutes: 60 });
    await call('PATCH', `/v1/venues/${id}`, { queuePartyCap: 8 });
    const tables = [];
    for (let t = 0; t < tablesPerVenue; t++) tables.push((await call('POST', `/v1/venues/${id}/tables`, { label: `T${t}`, capacity: 4 })).body.id);
    venues.push({ id, tables, next: 0 });
  }
  const offer = [];
  const accept = [];
  const cycle = await closedLoop(clients, seconds, async (i) => {
    const c = calls[i % calls.length];
    const v = venues[i % clients];
    const table = v.tables[v.next++ % v.tables.length];
    const j = await c('POST', `/v1/venues/${v.id}/queue`, { name: `C${i}`, partySize: 2, email: `c${i}-${process.pid}@bench.local` });
    if (j.status !== 201) return false;
    const o = await c('POST', `/v1/venues/${v.id}/offers`, { entryId: j.body.entry.id, entryVersion: j.body.entry.version, tableIds: [table] });
    if (o.status !== 201) return false;
    offer.push(o.ms);
    const a = await c('POST', `/v1/venues/${v.id}/offers/${o.body.offer.id}/accept`, {});
    accept.push(a.ms);
    return a.status === 200;
  });
  return { clients, cyclesPerSecond: cycle.perSecond, errors: cycle.errors, offerMs: stats(offer), acceptMs: stats(accept) };
}

/** 200 concurrent promotions for one seat, spread over the api processes: exactly one hold. */
export async function lastSeatStorm(calls, call, rounds = 3) {
  const results = [];
  for (let r = 0; r < rounds; r++) {
    const [venueId] = await createVenues(call, 1, { poolCapacity: 1 });
    for (let i = 0; i < 2; i++) await call('POST', `/v1/venues/${venueId}/queue`, { name: `S${i}`, partySize: 1 });
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => calls[i % calls.length]('POST', `/v1/venues/${venueId}/promotions`, {})));
    const holds = answers.filter((a) => a.status === 201).length;
    const clean = answers.filter((a) => a.status === 200 && a.body.offer === null).length;
    results.push({ holds, cleanRefusals: clean, other: answers.length - holds - clean, latencyMs: stats(answers.map((a) => a.ms)) });
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
  const socket = io(`${baseUrl}/board`, { auth: { token }, transports: ['websocket'] });
  await new Promise((res, rej) => (socket.once('connect', res), socket.once('connect_error', rej)));
  const expiresAt = new Map();
  const delays = [];
  let early = 0;
  socket.on('board.event', (e) => {
    if (e.type !== 'offer.expired') return;
    const due = expiresAt.get(e.data.offerId);
    if (due === undefined) return;
    const d = Date.now() - due;
    if (d < 0) early++;
    delays.push(d);
  });
  for (const v of venues) {
    await call('PATCH', `/v1/venues/${v}`, { policy: { holdSeconds } });
    await subscribe(socket, v);
  }
  // Join everyone first, then promote in a burst so the deadlines fall within a few seconds.
  for (const v of venues) for (let i = 0; i < perVenue; i++) await call('POST', `/v1/venues/${v}/queue`, { name: `E${i}`, partySize: 1 });
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
  const until = Date.now() + 30_000 + holdSeconds * 1000;
  while (delays.length < expiresAt.size && Date.now() < until) await sleep(100);
  socket.close();
  return { offers: expiresAt.size, holdSeconds, spanMs, burstEndedBeforeFirstDue, expiredSeen: delays.length, early, delayMs: stats(delays) };
}

/**
 * A board's subscribe, retried while the socket's subscribe bucket (10 at once, then one a second)
 * refuses it: unchecked, only the first ten venues were subscribed and half the expiries went unseen.
 */
async function subscribe(socket, venueId) {
  for (;;) {
    const ack = await socket.timeout(5000).emitWithAck('subscribe', { venueId });
    if (ack?.error?.code !== 'RATE_LIMITED') return ack;
    await sleep(1000);
  }
}

/** 200 boards on one venue over the api processes: delay from the command's answer to delivery. */
export async function boardFanout(calls, token, urls, call, boards = 200, changes = 30) {
  const [venueId] = await createVenues(call, 1, {});
  const sockets = [];
  const received = new Map();
  for (let i = 0; i < boards; i++) {
    const s = io(`${urls[i % urls.length]}/board`, { auth: { token }, transports: ['websocket'], forceNew: true });
    await new Promise((res, rej) => (s.once('connect', res), s.once('connect_error', rej)));
    await s.timeout(5000).emitWithAck('subscribe', { venueId });
    s.on('board.event', (e) => {
      const list = received.get(e.version) ?? [];
      list.push(performance.now());
      received.set(e.version, list);
    });
    sockets.push(s);
  }
  const delays = [];
  for (let c = 0; c < changes; c++) {
    const t0 = performance.now();
    const r = await calls[c % calls.length]('POST', `/v1/venues/${venueId}/reservations`, { name: `F${c}`, partySize: 1 });
    const committedAt = t0 + r.ms;
    await sleep(100);
    const version = r.body?.id ? Math.max(...received.keys()) : null;
    for (const at of received.get(version) ?? []) delays.push(Math.max(0, at - committedAt));
  }
  for (const s of sockets) s.close();
  return { boards, changes, deliveries: delays.length, delayMs: stats(delays) };
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
