// The fault drills' kit: their own PostgreSQL (initdb into a temporary folder, port 5544) and
// redis-server (port 6391) on loopback, two api processes and a worker in production mode, and the
// traffic, probes and checks the drills in drills.mjs are made of.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { io } from 'socket.io-client';
import { Proc, redisServer } from '../../bench/lib/stack.mjs';

const PG_BIN = `/usr/lib/postgresql/${execFileSync('ls', ['/usr/lib/postgresql'], { encoding: 'utf8' }).trim().split('\n')[0]}/bin`;
// DRILL_PG_PORT, DRILL_REDIS_PORT and DRILL_API_PORTS (two, comma-separated) move the drills off
// their default ports, for a machine where another checkout may run them at the same time.
export const PG_PORT = Number(process.env.DRILL_PG_PORT ?? 5544);
export const REDIS_PORT = Number(process.env.DRILL_REDIS_PORT ?? 6391);
export const DATABASE_URL = `postgres://postgres@127.0.0.1:${PG_PORT}/postgres`;
export const REDIS_URL = `redis://127.0.0.1:${REDIS_PORT}`;
export const PREFIX = 'drill';
export const QUEUE = 'hostboard';
export const OWNER = { email: 'drill-owner@faults.local', password: 'quiet-harbour-7314' };
export const PORTS = (process.env.DRILL_API_PORTS ?? '3411,3412').split(',').map(Number);
export const URLS = PORTS.map((p) => `http://127.0.0.1:${p}`);
/** The Done-when bounds of issue 12. */
export const JOIN_BOUND_MS = 5000;
export const READY_DOWN_BOUND_MS = 1000;
export const READY_BACK_BOUND_S = 20;

const asPostgres = (cmd, args) => execFileSync('runuser', ['-u', 'postgres', '--', cmd, ...args], { stdio: 'pipe', encoding: 'utf8' });
export const seconds = (ms) => Math.round(ms / 100) / 10;
export const dir = mkdtempSync(join(tmpdir(), 'hb-drill-'));
chmodSync(dir, 0o777);
const pgData = join(dir, 'pg');
let stopRedisServer = async () => {};

/** A fresh cluster in the temporary folder, trusting loopback (it lives only for the drills). */
export function initPostgres() {
  asPostgres(`${PG_BIN}/initdb`, ['-D', pgData, '-U', 'postgres', '--auth=trust', '-E', 'UTF8']);
}
export function startPostgres() {
  asPostgres(`${PG_BIN}/pg_ctl`, ['-D', pgData, '-o', `-p ${PG_PORT} -k ${dir} -c listen_addresses=127.0.0.1`, '-l', join(dir, 'pg.log'), '-w', 'start']);
}
export function stopPostgres() {
  asPostgres(`${PG_BIN}/pg_ctl`, ['-D', pgData, '-m', 'fast', '-w', 'stop']);
}
export async function startRedis() {
  stopRedisServer = await redisServer(REDIS_PORT, ['--hz', '100']);
}
export async function stopRedis() {
  await stopRedisServer();
  stopRedisServer = async () => {};
}
export function redisCli(...args) {
  return execFileSync('redis-cli', ['-p', String(REDIS_PORT), ...args], { encoding: 'utf8' }).trim();
}

const env = {
  DATABASE_URL,
  REDIS_URL,
  JOBS_PREFIX: PREFIX,
  BOOTSTRAP_OWNER_EMAIL: OWNER.email,
  BOOTSTRAP_OWNER_PASSWORD: OWNER.password,
  AUTH_RATE_LIMIT: '100000',
  // Info, not the Proc default of warn: the drills count lines such as "database reachable again".
  LOG_LEVEL: 'info',
};
export const apiProc = (n) => new Proc(`api-${n + 1}`, 'dist/apps/api/src/main.js', { ...env, PORT: String(PORTS[n]), HOST: '127.0.0.1' });
export const workerProc = () => new Proc('worker', 'dist/apps/worker/src/main.js', env);
/** The processes now running; a drill that kills one on purpose replaces it here. */
export const procs = { apis: [], worker: null };
export const running = () => [...procs.apis, procs.worker];
/** Names of the running processes that have exited: a drill that leaves any fails. */
export const died = () => running().filter((p) => p.ended).map((p) => p.name);

export async function sql(q, params = []) {
  const c = new pg.Client({ connectionString: DATABASE_URL });
  await c.connect();
  try {
    return (await c.query(q, params)).rows;
  } finally {
    await c.end();
  }
}

/** One HTTP call, given up after `timeoutMs`: status 0 means no answer in time. */
export async function req(base, method, path, { body, token, timeoutMs = 10_000 } = {}) {
  const t0 = performance.now();
  try {
    const r = await fetch(`${base}${path}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await r.text();
    let parsed = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = text;
    }
    return { status: r.status, body: parsed, ms: performance.now() - t0 };
  } catch (err) {
    return { status: 0, body: { error: { code: err.name } }, ms: performance.now() - t0 };
  }
}
/** How many of a process's log lines since `from` (a length of its log) carry `msg`. */
export const linesSince = (proc, from, msg) => proc.log.slice(from).split('\n').filter((l) => l.includes(`"msg":"${msg}`)).length;
export const codeOf = (r) => `${r.status}${r.body?.error?.code ? ` ${r.body.error.code}` : ''}`;
/** A /ready answer as status and what it said (`200 degraded`, `503 not-ready`). */
export const readyOf = (r) => `${r.status}${typeof r.body?.status === 'string' ? ` ${r.body.status}` : ''}`;
/** A /ready answer during a Redis outage: 200 `degraded`, the database ok, Redis named as `state`. */
export const degradedFor = (r, state = 'unreachable') =>
  r.status === 200 && r.body?.status === 'degraded' && r.body?.checks?.redis === state && r.body?.checks?.database === 'ok';

/** The owner's session token, set once the stack is up. */
export const session = { token: undefined };
export async function login(base = URLS[0]) {
  const r = await req(base, 'POST', '/v1/auth/sessions', { body: OWNER, timeoutMs: JOIN_BOUND_MS });
  if (r.status !== 201) throw new Error(`login ${codeOf(r)}`);
  return r.body.token;
}
export const call = (base, method, path, body) => req(base, method, path, { body, token: session.token });

export async function newVenue(capacity = 500, holdSeconds = 600) {
  const v = await call(URLS[0], 'POST', '/v1/venues', { slug: `d-${Math.random().toString(36).slice(2, 9)}`, name: 'Drill', timeZone: 'America/Chicago', preset: 'workshop', poolCapacity: capacity });
  if (v.status !== 201) throw new Error(`venue ${codeOf(v)}`);
  const p = await call(URLS[0], 'PATCH', `/v1/venues/${v.body.id}`, { policy: { holdSeconds } });
  if (p.status !== 200) throw new Error(`policy ${codeOf(p)}`);
  return v.body.id;
}

export async function liveOffers(count, holdSeconds) {
  const venueId = await newVenue(count, holdSeconds);
  for (let i = 0; i < count; i++) await call(URLS[0], 'POST', `/v1/venues/${venueId}/queue`, { name: `P${i}`, partySize: 1 });
  const ids = [];
  let slowestMs = 0;
  for (let i = 0; i < count; i++) {
    const r = await call(URLS[i % 2], 'POST', `/v1/venues/${venueId}/promotions`, {});
    if (r.status !== 201) throw new Error(`promotion ${codeOf(r)}`);
    ids.push(r.body.offer.id);
    slowestMs = Math.max(slowestMs, r.ms);
  }
  return { venueId, offerIds: ids, slowestMs };
}

export async function waitAllExpired(offerIds, ms) {
  const until = performance.now() + ms;
  for (;;) {
    const rows = await sql(`SELECT count(*)::int AS n FROM offers WHERE id = ANY($1::uuid[]) AND state = 'expired'`, [offerIds]);
    if (rows[0].n === offerIds.length) return true;
    if (performance.now() > until) return false;
    await sleep(250);
  }
}

export async function expiredOnce(offerIds) {
  const rows = await sql(`SELECT subject_id, count(*)::int AS n FROM history WHERE subject_type = 'offer' AND to_state = 'expired' AND subject_id = ANY($1::uuid[]) GROUP BY subject_id`, [offerIds]);
  return rows.length === offerIds.length && rows.every((r) => r.n === 1);
}

/** The invariants that faults could break: pool counters, live offers, expiry exactly once, versions. */
export async function invariantViolations() {
  const found = [];
  const checks = {
    'pool counters equal held and confirmed people': `SELECT v.id FROM venues v LEFT JOIN LATERAL (SELECT COALESCE(SUM(party_size) FILTER (WHERE state IN ('CONFIRMED','SEATED')),0) c, COALESCE(SUM(party_size) FILTER (WHERE state='HELD'),0) h FROM reservations r WHERE r.venue_id=v.id AND r.kind='pool') s ON true WHERE v.pool_confirmed<>s.c OR v.pool_held<>s.h`,
    'a live offer holds a HELD reservation for an offered entry': `SELECT o.id FROM offers o JOIN reservations r ON r.id=o.reservation_id JOIN queue_entries e ON e.id=o.entry_id WHERE o.state='live' AND (r.state<>'HELD' OR e.status<>'offered')`,
    'an offer expired at most once': `SELECT subject_id FROM history WHERE subject_type='offer' AND to_state='expired' GROUP BY subject_id HAVING COUNT(*)>1`,
    'board versions have no gaps': `SELECT v.id FROM venues v LEFT JOIN LATERAL (SELECT COUNT(*) n FROM board_events b WHERE b.venue_id=v.id) b ON true WHERE b.n<>v.version`,
    'a queue name joined twice': `SELECT venue_id, name FROM queue_entries GROUP BY venue_id, name HAVING COUNT(*) > 1`,
  };
  for (const [name, q] of Object.entries(checks)) if ((await sql(q)).length > 0) found.push(name);
  return found;
}

/**
 * Desk joins at a steady rate while a fault happens, alternating between the api processes, each
 * given up after JOIN_BOUND_MS. Every join has its own name, so the database says which committed.
 */
export function joinTraffic(venueId, everyMs, tag) {
  const answers = [];
  const pending = [];
  let i = 0;
  const timer = setInterval(() => {
    const name = `${tag}-${i}`;
    const base = URLS[i++ % URLS.length];
    pending.push(req(base, 'POST', `/v1/venues/${venueId}/queue`, { body: { name, partySize: 1 }, token: session.token, timeoutMs: JOIN_BOUND_MS + 5000 }).then((r) => answers.push({ name, ...r })));
  }, everyMs);
  return {
    async stop() {
      clearInterval(timer);
      await Promise.all(pending);
      return answers;
    },
  };
}

/** Summary of a traffic run: counts by answer, the slowest, and how many missed the bound. */
export function joinFigures(answers) {
  const by = {};
  for (const a of answers) by[codeOf(a)] = (by[codeOf(a)] ?? 0) + 1;
  const slowest = Math.max(0, ...answers.map((a) => a.ms));
  const late = answers.filter((a) => a.ms > JOIN_BOUND_MS).length;
  return { by, slowest, late, text: `${answers.length} joins: ${Object.entries(by).map(([k, n]) => `${n}×${k}`).join(', ')}; slowest ${Math.round(slowest)} ms` };
}

/** The names that committed, against the answers: every 201 is there, nothing else is. */
export async function lostOrDoubled(venueId, answers) {
  const rows = await sql('SELECT name, count(*)::int AS n FROM queue_entries WHERE venue_id = $1 GROUP BY name', [venueId]);
  const inDb = new Map(rows.map((r) => [r.name, r.n]));
  const created = answers.filter((a) => a.status === 201).map((a) => a.name);
  const lost = created.filter((n) => !inDb.has(n));
  const doubled = [...inDb].filter(([, n]) => n > 1).map(([k]) => k);
  const unanswered = [...inDb.keys()].filter((n) => !created.includes(n) && answers.some((a) => a.name === n));
  return { lost, doubled, unanswered };
}

/** Polls /ready on every api process; answers its records. */
export function readyPoller(everyMs) {
  const seen = [];
  let on = true;
  const loop = (async () => {
    while (on) {
      const t = performance.now();
      await Promise.all(URLS.map(async (u) => seen.push({ url: u, t, ...(await req(u, 'GET', '/ready', { timeoutMs: 5000 })) })));
      await sleep(everyMs);
    }
  })();
  return {
    async stop() {
      on = false;
      await loop;
      return seen;
    },
  };
}

/**
 * Seconds from `since` until every api answers /ready 200 with every dependency ok (status `ready`,
 * not `degraded`), polled every 250 ms, or null.
 */
export async function readyAgain(since, boundS) {
  for (;;) {
    const all = await Promise.all(URLS.map((u) => req(u, 'GET', '/ready', { timeoutMs: 2000 })));
    if (all.every((r) => r.status === 200 && r.body?.status === 'ready')) return seconds(performance.now() - since);
    if (performance.now() - since > boundS * 1000 + 5000) return null;
    await sleep(250);
  }
}

/** A board socket subscribed to one venue on one api process, remembering every version pushed to it. */
export async function openBoard(base, venueId, sinceVersion) {
  const socket = io(`${base}/board`, { auth: { token: session.token }, transports: ['websocket'], reconnection: false, forceNew: true });
  const seen = new Set();
  const arrivals = [];
  socket.on('board.event', (e) => {
    if (e.venueId !== venueId) return;
    seen.add(e.version);
    arrivals.push({ version: e.version, at: performance.now() });
  });
  await new Promise((r, j) => (socket.once('connect', r), socket.once('connect_error', j)));
  const ack = await socket.timeout(5000).emitWithAck('subscribe', sinceVersion === undefined ? { venueId } : { venueId, sinceVersion });
  return { socket, seen, arrivals, ack, base: ack.version };
}
/** The highest version from `from` on with no gap in what the board has seen. */
export function contiguous(board, from) {
  let v = from;
  while (board.seen.has(v + 1)) v++;
  return v;
}
export async function resubscribe(board, venueId, since) {
  return board.socket.timeout(5000).emitWithAck('subscribe', { venueId, sinceVersion: since });
}
export const versionOf = async (venueId) => Number((await sql('SELECT version FROM venues WHERE id = $1', [venueId]))[0].version);

/** Seconds until a join committed on api-2 is pushed live to a board held by api-1 (cross-process fan-out), or null. */
export async function fanOutSeconds(board, venueId, boundS) {
  const t0 = performance.now();
  for (let i = 0; performance.now() - t0 < boundS * 1000; i++) {
    const before = board.arrivals.length;
    const r = await call(URLS[1], 'POST', `/v1/venues/${venueId}/queue`, { name: `fan-${Date.now()}-${i}`, partySize: 1 });
    if (r.status !== 201) continue;
    const until = performance.now() + 1000;
    while (performance.now() < until) {
      if (board.arrivals.length > before) return seconds(performance.now() - t0);
      await sleep(50);
    }
  }
  return null;
}

/** BullMQ works again end to end: an offer's expiry job is in Redis and the worker completes it. */
export async function jobsWorkAgain() {
  const { offerIds } = await liveOffers(1, 2);
  const [id] = offerIds;
  const queued = redisCli('EXISTS', `${PREFIX}:${QUEUE}:${id}`) === '1';
  const t0 = performance.now();
  let completed = false;
  while (performance.now() - t0 < 8000 && !completed) {
    completed = redisCli('ZSCORE', `${PREFIX}:${QUEUE}:completed`, id) !== '';
    if (!completed) await sleep(200);
  }
  // The schedulers are re-created at the reconnect, retried each second if Redis refuses at first.
  const back = () => {
    const s = redisCli('ZRANGE', `${PREFIX}:${QUEUE}:repeat`, '0', '-1').split('\n').filter(Boolean);
    return s.includes('safety-sweep') && s.includes('outbox-relay');
  };
  let schedulers = back();
  for (const t1 = performance.now(); !schedulers && performance.now() - t1 < 5000; schedulers = back()) await sleep(200);
  return { queued, completed, schedulers, ok: queued && completed && schedulers };
}
