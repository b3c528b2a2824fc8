// CPU the stack spends per request, for six requests: GET /health, GET /v1/venues/:id, a desk join
// (POST /v1/venues/:id/queue with an Idempotency-Key), a board read (GET …/board), a table offer
// (POST …/offers with the entry's version, to the oldest waiting party) and its acceptance (POST
// …/offers/:id/accept, on the party's behalf as the bench's acceptPhase sends it). One api process
// (built, from dist) on the machine's PostgreSQL, a worker (the built worker, same env: it takes each
// offer's expiry job) and a redis-server of this run's own (PORT + 9; REDIS_URL=… uses another, whose
// pid is read from INFO), one client sending requests one after another over one keep-alive
// connection. CPU is user + system ticks from /proc/<pid>/stat around each run: the api's, this
// database's PostgreSQL backends' (the api's and the worker's pools), the worker's and Redis's.
// Loopback only; about a minute. Usage: PORT=3610 DB=fastify_cpu N=2000 JOINS=500 OFFERS=400 node bench/request-cpu.mjs
import { spawn, execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'undici';

const PG = process.env.PG ?? 'postgres://postgres@127.0.0.1:5432';
const DB = process.env.DB ?? 'hb_request_cpu';
const PORT = Number(process.env.PORT ?? 3610);
const N = Number(process.env.N ?? 2000);
// Joins are fewer: each lengthens the queue the next one is quoted against, and a run stays short.
const JOINS = Number(process.env.JOINS ?? 500);
const BOARDS = Number(process.env.BOARDS ?? 300);
// Offers (each to the oldest waiting party, on a table of its own), then their acceptances: the
// joins above leave JOINS + 100 waiting parties, of which each phase's warm-up takes 100.
const OFFERS = Math.min(Number(process.env.OFFERS ?? 400), JOINS);
const HZ = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());
const base = `http://127.0.0.1:${PORT}`;
const email = 'cpu-owner@example.test';
const password = 'cpu-owner-password-1';

const psql = (db, sql) => execFileSync('psql', ['-q', `${PG}/${db}`, '-c', sql], { stdio: 'ignore' });
psql('postgres', `DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
psql('postgres', `CREATE DATABASE ${DB}`);

// API_NODE_ARGS (say "--cpu-prof --cpu-prof-dir=/tmp/prof") goes to the api's node: a profile of the same run;
// PHASES_FILE=/tmp/prof/phases.json writes each phase's window for `node bench/profile-by-package.mjs`.
const nodeArgs = (process.env.API_NODE_ARGS ?? '').split(' ').filter(Boolean);
const REDIS_PORT = PORT + 9;
const ownRedis = process.env.REDIS_URL
  ? null
  : spawn('redis-server', ['--port', String(REDIS_PORT), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
const REDIS_URL = process.env.REDIS_URL ?? `redis://127.0.0.1:${REDIS_PORT}`;
const redisCli = (...args) => execFileSync('redis-cli', ['-u', REDIS_URL, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
for (let i = 0; ownRedis && i < 50; i++) {
  try {
    if (redisCli('ping').trim() === 'PONG') break;
  } catch {
    // Not listening yet.
  }
  await new Promise((r) => setTimeout(r, 100));
}
// Another Redis (REDIS_URL): its pid from INFO, read only (its CPU then includes whatever else uses it).
const redisPid = ownRedis?.pid ?? Number(/process_id:(\d+)/.exec(redisCli('info', 'server'))?.[1]);
const stackEnv = {
  ...process.env,
  DATABASE_URL: `${PG}/${DB}`,
  REDIS_URL,
  JOBS_PREFIX: process.env.JOBS_PREFIX ?? 'requestcpu',
};
const api = spawn(process.execPath, [...nodeArgs, process.env.MAIN ?? 'dist/apps/api/src/main.js'], {
  env: {
    ...stackEnv,
    API_PROCESSES: '1',
    PORT: String(PORT),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    BOOTSTRAP_OWNER_EMAIL: email,
    BOOTSTRAP_OWNER_PASSWORD: password,
    JOIN_RATE_PER_ADDRESS: '1000000',
    JOIN_RATE_PER_VENUE: '1000000',
  },
  // The access log goes to /dev/null, as it would go to a collector: its cost is in the figures.
  stdio: ['ignore', 'pipe', 'inherit'],
});
let started = '';
await new Promise((resolve, reject) => {
  api.stdout.on('data', (d) => {
    if (started !== null) started += d.toString();
    if (started?.includes('hostboard is running')) {
      started = null;
      resolve();
    }
  });
  api.on('exit', (c) => reject(new Error(`api exited ${c}`)));
});
// The worker (WORKER=0: none): it takes each offer's expiry job (a delayed BullMQ job, woken when one
// is added) and would relay guest messages if a provider were set (none here: they stay recorded).
// Started after the api, which has migrated the database. WORKER_NODE_ARGS as API_NODE_ARGS.
const worker =
  process.env.WORKER === '0'
    ? null
    : spawn(
        process.execPath,
        [
          ...(process.env.WORKER_NODE_ARGS ?? '').split(' ').filter(Boolean),
          process.env.WORKER_MAIN ?? (process.env.MAIN ?? 'dist/apps/api/src/main.js').replace('/api/src/', '/worker/src/'),
        ],
        { env: { ...stackEnv, WORKER_PROCESSES: '1', LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'inherit'] },
      );
if (worker) {
  let out = '';
  await new Promise((resolve, reject) => {
    const onData = (d) => {
      out += d.toString();
      if (out.includes('hostboard worker is consuming jobs')) {
        worker.stdout.off('data', onData);
        worker.stdout.resume();
        resolve();
      }
    };
    worker.stdout.on('data', onData);
    worker.on('exit', (c) => reject(new Error(`worker exited ${c}`)));
  });
}

const agent = new Agent({ connections: 1, pipelining: 1 });
async function call(method, path, { token, body, headers = {} } = {}) {
  const res = await request(`${base}${path}`, {
    method,
    dispatcher: agent,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${text}`);
  return text ? JSON.parse(text) : null;
}

const { token } = await call('POST', '/v1/auth/sessions', { body: { email, password } });
const venue = await call('POST', '/v1/venues', {
  token,
  body: { slug: `cpu-${process.pid}`, name: 'CPU', timeZone: 'UTC', preset: 'restaurant' },
});
await call('POST', `/v1/venues/${venue.id}/service-windows`, {
  token,
  body: { days: [1, 2, 3, 4, 5, 6, 7], start: '00:00', end: '23:59', turnMinutes: 60 },
});
await call('POST', `/v1/venues/${venue.id}/tables`, { token, body: { label: 'T1', capacity: 4 } });

// User and system ticks apart: the system share is mostly the loopback sockets' kernel work.
const ticksOf = (pid) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return { user: Number(f[11]), sys: Number(f[12]) };
};
const ticks = () => ticksOf(api.pid);
const totalTicks = (pid) => {
  if (!pid) return 0;
  const t = ticksOf(pid);
  return t.user + t.sys;
};
// PostgreSQL's share: the CPU of this database's backends (the api's pool; PostgreSQL on this machine).
const backendTicks = () => {
  const pids = execFileSync('psql', ['-At', `${PG}/postgres`, '-c', `SELECT pid FROM pg_stat_activity WHERE datname = '${DB}'`])
    .toString()
    .split('\n')
    .filter(Boolean);
  let sum = 0;
  for (const pid of pids) {
    try {
      const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      sum += Number(f[11]) + Number(f[12]);
    } catch {
      // A backend that ended between the list and the read.
    }
  }
  return sum;
};
const windows = [];
async function measure(label, send, n = N) {
  for (let i = 0; i < 100; i++) await send(-1 - i); // warm-up
  const b0 = backendTicks();
  const w0t = totalTicks(worker?.pid);
  const r0 = totalTicks(redisPid);
  const t0 = ticks();
  const w0 = performance.now();
  const h0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await send(i);
  const h1 = process.hrtime.bigint();
  const ms = performance.now() - w0;
  const t1 = ticks();
  const w1t = totalTicks(worker?.pid);
  const r1 = totalTicks(redisPid);
  const b1 = backendTicks();
  // The phase's window on the monotonic clock in µs, the clock of a V8 profile's timestamps, so
  // bench/profile-by-package.mjs can keep one phase's samples (PHASES_FILE).
  windows.push({ label, requests: n, startUs: Number(h0 / 1000n), endUs: Number(h1 / 1000n) });
  const perRequest = (t) => +(((t / HZ) * 1000) / n).toFixed(3);
  return {
    label,
    requests: n,
    cpuMsPerRequest: perRequest(t1.user + t1.sys - t0.user - t0.sys),
    sysMsPerRequest: perRequest(t1.sys - t0.sys),
    pgMsPerRequest: perRequest(b1 - b0),
    workerMsPerRequest: worker ? perRequest(w1t - w0t) : null,
    redisMsPerRequest: redisPid ? perRequest(r1 - r0) : null,
    wallMsPerRequest: +(ms / n).toFixed(3),
  };
}

// What the stack spends with no request (timers, pollers, BullMQ's blocking reads): part of every
// figure below, in proportion to the phase's wall time (wallMsPerRequest), so printed apart.
const IDLE_MS = 3000;
const idle0 = { api: ticks(), pg: backendTicks(), worker: totalTicks(worker?.pid), redis: totalTicks(redisPid) };
await new Promise((r) => setTimeout(r, IDLE_MS));
const idle1 = { api: ticks(), pg: backendTicks(), worker: totalTicks(worker?.pid), redis: totalTicks(redisPid) };
const perSecond = (t) => +(((t / HZ) * 1000) / (IDLE_MS / 1000)).toFixed(1);
const idle = {
  api: perSecond(idle1.api.user + idle1.api.sys - idle0.api.user - idle0.api.sys),
  pg: perSecond(idle1.pg - idle0.pg),
  worker: worker ? perSecond(idle1.worker - idle0.worker) : null,
  redis: redisPid ? perSecond(idle1.redis - idle0.redis) : null,
};

const run = `${process.pid}-${Date.now()}`;
const results = [
  await measure('GET /health', () => call('GET', '/health')),
  await measure('GET /v1/venues/:id', () => call('GET', `/v1/venues/${venue.id}`, { token })),
  await measure(
    'desk join (POST /v1/venues/:id/queue, Idempotency-Key)',
    (i) =>
      call('POST', `/v1/venues/${venue.id}/queue`, {
        token,
        headers: { 'idempotency-key': `k-${run}-${i}` },
        body: { name: 'Bench', partySize: 2, email: `c${run}-${i}@b.test` },
      }),
    JOINS,
  ),
  // After the joins: the board of a venue with JOINS waiting parties (it carries the first 200).
  await measure('board read (GET /v1/venues/:id/board)', () => call('GET', `/v1/venues/${venue.id}/board`, { token }), BOARDS),
];

// A table of its own for every offer (and its warm-up's), then the waiting parties oldest first (a
// restaurant's queue is in strict order: only the head may be offered), with the versions an offer names.
const tables = [];
for (let i = 0; i < OFFERS + 100; i++) {
  tables.push((await call('POST', `/v1/venues/${venue.id}/tables`, { token, body: { label: `O${i}`, capacity: 4 } })).id);
}
const waiting = execFileSync('psql', [
  '-At',
  `${PG}/${DB}`,
  '-c',
  `SELECT id, version FROM queue_entries WHERE venue_id = '${venue.id}' AND status = 'waiting' ORDER BY received_at, queue_sequence`,
])
  .toString()
  .split('\n')
  .filter(Boolean)
  .map((line) => ({ id: line.split('|')[0], version: Number(line.split('|')[1]) }));
const offers = [];
results.push(
  await measure(
    'table offer (POST /v1/venues/:id/offers)',
    async () => {
      const e = waiting.shift();
      const answer = await call('POST', `/v1/venues/${venue.id}/offers`, {
        token,
        body: { entryId: e.id, entryVersion: e.version, tableIds: [tables.shift()] },
      });
      offers.push(answer.offer.id);
    },
    OFFERS,
  ),
  // Each offer just made, accepted on the party's behalf (as the bench's acceptPhase sends it), oldest first.
  await measure(
    'acceptance (POST /v1/venues/:id/offers/:id/accept)',
    () => call('POST', `/v1/venues/${venue.id}/offers/${offers.shift()}/accept`, { token, body: {} }),
    OFFERS,
  ),
);
const loadavg = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
console.table(results);
if (process.env.PHASES_FILE) writeFileSync(process.env.PHASES_FILE, JSON.stringify({ pid: api.pid, windows }, null, 1));
console.log(`idle, CPU ms per second: api ${idle.api}, PostgreSQL ${idle.pg}, worker ${idle.worker}, Redis ${idle.redis}`);
console.log(`load average after: ${loadavg}`);
await agent.close();
for (const p of [api, worker].filter(Boolean)) {
  p.kill('SIGTERM');
  await new Promise((r) => p.once('exit', r));
}
ownRedis?.kill('SIGTERM');
psql('postgres', `DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
