// CPU the api process spends per request, for four requests: GET /health, GET /v1/venues/:id, a
// desk join (POST /v1/venues/:id/queue with an Idempotency-Key) and a board read (GET …/board). One api process (built, from dist)
// on the machine's PostgreSQL and Redis, one client sending N requests one after another over one
// keep-alive connection; CPU is the process's user + system ticks from /proc/<pid>/stat around each
// run, and PostgreSQL's: the CPU of this database's backends (the api's pool) around the same run, read
// from /proc (PostgreSQL on this machine). Loopback only; about 30 s. Usage: PORT=3610 DB=fastify_cpu N=2000 JOINS=500 node bench/request-cpu.mjs
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
const api = spawn(process.execPath, [...nodeArgs, process.env.MAIN ?? 'dist/apps/api/src/main.js'], {
  env: {
    ...process.env,
    DATABASE_URL: `${PG}/${DB}`,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    JOBS_PREFIX: process.env.JOBS_PREFIX ?? 'requestcpu',
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
const ticks = () => {
  const f = readFileSync(`/proc/${api.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return { user: Number(f[11]), sys: Number(f[12]) };
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
  const t0 = ticks();
  const w0 = performance.now();
  const h0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await send(i);
  const h1 = process.hrtime.bigint();
  const ms = performance.now() - w0;
  const t1 = ticks();
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
    wallMsPerRequest: +(ms / n).toFixed(3),
  };
}

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
const loadavg = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
console.table(results);
if (process.env.PHASES_FILE) writeFileSync(process.env.PHASES_FILE, JSON.stringify({ pid: api.pid, windows }, null, 1));
console.log(`load average after: ${loadavg}`);
await agent.close();
api.kill('SIGTERM');
await new Promise((r) => api.once('exit', r));
psql('postgres', `DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
