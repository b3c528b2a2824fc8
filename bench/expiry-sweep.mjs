#!/usr/bin/env node
// Statements and CPU per expiry when many offers of one venue fall due together (issue 18, "expiry
// p99 under 500 ms inside the full bench").
//
// A sandbox table venue gets N tables, N waiting parties and N live offers made at one simulated
// instant; one move of its clock past their deadline runs the sweep (the same `sweepLocked` the
// worker's expiry job runs) and expires all N in one transaction.
//
// 1. Counts: a fresh database with `log_statement = all` (on that database only), the statements of
//    one clock move expiring N offers, for each N of SIZES, read back from the server log.
// 2. CPU: a second fresh database without logging, ROUNDS clock moves of CPU_OFFERS offers each (a new
//    venue per round); CPU ticks of the api process and of this database's PostgreSQL backends from
//    /proc around the moves only (the setup is not counted), per expired offer.
//
// Needs dist/ built, PostgreSQL at 127.0.0.1:5432 (user postgres), Redis at 127.0.0.1:6379, read access
// to /var/log/postgresql. Env: PORT (3700), PREFIX (expiry_sweep), SIZES (1,10,50), CPU_OFFERS (200),
// ROUNDS (3), PG_LOG, API_DIST (dist; a copy built from another commit to compare, inside this checkout).
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

const PORT = Number(process.env.PORT ?? 3700);
const PREFIX = process.env.PREFIX ?? 'expiry_sweep';
const SIZES = (process.env.SIZES ?? '1,10,50')
  .split(',')
  .map(Number)
  .filter((n) => n > 0);
const CPU_OFFERS = Number(process.env.CPU_OFFERS ?? 200);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const DIST = process.env.API_DIST ?? 'dist';
const PG = 'postgres://postgres@127.0.0.1:5432';
const HZ = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());
const base = `http://127.0.0.1:${PORT}`;
const owner = { email: 'bench-owner@example.test', password: 'bench-owner-password-1' };
const T0 = Date.parse('2026-10-09T12:00:00.000Z');

const psql = (db, sql) =>
  execFileSync('psql', ['-qAt', `${PG}/${db}`, '-c', sql])
    .toString()
    .trim();
const ticks = (pid) => {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(f[11]) + Number(f[12]); // utime + stime (fields 14 and 15)
  } catch {
    return 0;
  }
};
const backends = (db) => psql('postgres', `SELECT pid FROM pg_stat_activity WHERE datname = '${db}'`).split('\n').filter(Boolean);
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

async function call(method, path, body, token) {
  const res = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

function startApi(db) {
  psql('postgres', `DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
  psql('postgres', `CREATE DATABASE ${db}`);
  return spawn('node', [`${DIST}/apps/api/src/main.js`], {
    env: {
      ...process.env,
      DATABASE_URL: `${PG}/${db}`,
      REDIS_URL: 'redis://127.0.0.1:6379',
      JOBS_PREFIX: PREFIX,
      PORT: String(PORT),
      LOG_LEVEL: 'warn',
      API_PROCESSES: '1',
      BOOTSTRAP_OWNER_EMAIL: owner.email,
      BOOTSTRAP_OWNER_PASSWORD: owner.password,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

async function ready(api) {
  let out = '';
  api.stdout.on('data', (d) => (out += d));
  for (let i = 0; i < 120 && !out.includes('hostboard is running'); i++) await sleep(500);
  if (!out.includes('hostboard is running')) throw new Error(`the api did not start: ${out}`);
  return (await call('POST', '/v1/auth/sessions', owner)).token;
}

async function stop(api) {
  api.kill('SIGTERM');
  await new Promise((r) => api.once('exit', r));
}

let serial = 0;
/** A sandbox table venue (UTC, a window all day) with `n` live offers made at T0: due at T0 + 5 min. */
async function venueWithOffers(token, n) {
  const venue = await call(
    'POST',
    '/v1/venues',
    {
      slug: `sweep-${process.pid}-${serial++}`,
      name: 'Sweep',
      timeZone: 'UTC',
      preset: 'restaurant',
      sandbox: true,
      clock: new Date(T0).toISOString(),
    },
    token,
  );
  await call(
    'POST',
    `/v1/venues/${venue.id}/service-windows`,
    { days: [1, 2, 3, 4, 5, 6, 7], start: '00:00', end: '23:59', turnMinutes: 60 },
    token,
  );
  for (let i = 0; i < n; i++) {
    const table = await call('POST', `/v1/venues/${venue.id}/tables`, { label: `T${i}`, capacity: 4 }, token);
    const { entry } = await call(
      'POST',
      `/v1/venues/${venue.id}/queue`,
      { name: `Party ${i}`, partySize: 2, email: `p${serial++}@b.test` },
      token,
    );
    await call(
      'POST',
      `/v1/venues/${venue.id}/offers`,
      { entryId: entry.id, entryVersion: entry.version, tableIds: [table.id] },
      token,
    );
  }
  return venue.id;
}

/** Moves the clock past the deadlines: the sweep expires every offer; answers how many. */
async function expireAll(token, venueId) {
  const { expired } = await call('POST', `/v1/venues/${venueId}/clock`, { now: new Date(T0 + 5 * 60_000).toISOString() }, token);
  return expired.length;
}

/** The statements this database logged while `fn` ran. */
async function logged(db, fn) {
  const file = process.env.PG_LOG ?? '/var/log/postgresql/postgresql-15-main.log';
  await sleep(300);
  const from = statSync(file).size;
  await fn();
  await sleep(500);
  const to = statSync(file).size;
  const buf = Buffer.alloc(to - from);
  const fd = openSync(file, 'r');
  readSync(fd, buf, 0, buf.length, from);
  closeSync(fd);
  return buf
    .toString('utf8')
    .split('\n')
    .filter((l) => l.includes(`@${db} `) && /LOG: {2}(statement|execute)/.test(l))
    .map((l) =>
      l
        .replace(/^.*LOG: {2}(statement|execute [^:]*): /, '')
        .replace(/\s+/g, ' ')
        .slice(0, 80),
    );
}

async function countStatements() {
  const db = `${PREFIX}_count`;
  const api = startApi(db);
  psql('postgres', `ALTER DATABASE ${db} SET log_statement = 'all'`);
  try {
    const token = await ready(api);
    await expireAll(token, await venueWithOffers(token, 2)); // warm: connections and prepared statements
    for (const n of SIZES) {
      const venueId = await venueWithOffers(token, n);
      let expired = 0;
      const lines = await logged(db, async () => (expired = await expireAll(token, venueId)));
      console.log(`clock move expiring ${expired} offers: ${lines.length} statements (BEGIN and COMMIT included)`);
      if (process.env.VERBOSE) for (const l of lines) console.log(`  ${l}`);
    }
  } finally {
    await stop(api);
    psql('postgres', `DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
  }
}

async function measureCpu() {
  const db = `${PREFIX}_cpu`;
  const api = startApi(db);
  try {
    const token = await ready(api);
    await expireAll(token, await venueWithOffers(token, 5)); // warm
    let apiTicks = 0;
    let pgTicks = 0;
    let expired = 0;
    let ms = 0;
    const load = [loadavg()];
    for (let r = 0; r < ROUNDS; r++) {
      const venueId = await venueWithOffers(token, CPU_OFFERS);
      const pids = backends(db);
      const a0 = ticks(api.pid);
      const b0 = pids.map(ticks);
      const t0 = performance.now();
      expired += await expireAll(token, venueId);
      ms += performance.now() - t0;
      apiTicks += ticks(api.pid) - a0;
      pgTicks += backends(db).reduce((s, p) => s + ticks(p) - (pids.includes(p) ? b0[pids.indexOf(p)] : 0), 0);
    }
    load.push(loadavg());
    const per = (t) => (((t / HZ) * 1000) / expired).toFixed(2);
    console.log(
      `${ROUNDS} sweeps of ${CPU_OFFERS} due offers (${expired} expired), ${(ms / ROUNDS).toFixed(0)} ms per sweep; ` +
        `CPU per expiry: api ${per(apiTicks)} ms, this database's backends ${per(pgTicks)} ms; load average ${load.join(' -> ')}`,
    );
  } finally {
    await stop(api);
    psql('postgres', `DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
  }
}

if (SIZES.length > 0) await countStatements();
if (ROUNDS > 0) await measureCpu();
