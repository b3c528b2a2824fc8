// Starts what a benchmark needs on loopback: a fresh PostgreSQL database on the machine's server,
// the api as `npm start` runs it (`--cores`: node:cluster, one process per core unless
// API_PROCESSES says otherwise) in production mode and a BullMQ worker, on that database and Redis.
import { spawn, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

export const PG_ADMIN = process.env.BENCH_PG_ADMIN ?? 'postgres://postgres@127.0.0.1:5432/postgres';
// The bench runs its own redis-server (as the drills do) with `hz 100`: BullMQ's delayed jobs are
// promoted on Redis's timer, and the default `hz 10` alone adds up to ~100 ms to an expiry (see
// docs/operations.md). BENCH_REDIS_URL points it at another Redis instead. The api listens on PORT
// and the bench's Redis on PORT + 9 (BENCH_REDIS_PORT), so one range of ports holds a whole run.
export const PORT = Number(process.env.PORT ?? 3301);
export const BENCH_REDIS_PORT = Number(process.env.BENCH_REDIS_PORT ?? PORT + 9);
export const REDIS_URL = process.env.BENCH_REDIS_URL ?? `redis://127.0.0.1:${BENCH_REDIS_PORT}`;
/** Databases and Redis keys are named after this prefix (two benches on one server stay apart). */
export const PREFIX = process.env.JOBS_PREFIX ?? 'bench';
export const DB_NAME = `${PREFIX}_hostboard`;
export const dbUrl = (name) => PG_ADMIN.replace(/\/[^/]*$/, `/${name}`);
export const DATABASE_URL = dbUrl(DB_NAME);
export const OWNER = { email: 'bench-owner@bench.local', password: 'bench-password-123' };
/** The build to run: another commit's copy of dist/ (inside this checkout, for node_modules) to compare with. */
export const DIST = process.env.API_DIST ?? 'dist';

/** One psql command; NOTICEs (a DROP … IF EXISTS that found nothing) stay quiet, errors throw with psql's message. */
export function psql(sql, url = PG_ADMIN) {
  return execFileSync('psql', [url, '-v', 'ON_ERROR_STOP=1', '-qAtc', sql], {
    encoding: 'utf8',
    env: { ...process.env, PGOPTIONS: '-c client_min_messages=warning' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export function freshDatabase(name = DB_NAME) {
  psql(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  psql(`CREATE DATABASE ${name}`);
}

/** Peak resident memory (VmHWM) of a process in MB, from /proc; null once it is gone. */
export function peakRssMb(pid) {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/** One started process, its output kept for the report on failure. */
export class Proc {
  constructor(name, script, env, args = [], nodeArgs = []) {
    this.name = name;
    this.log = '';
    this.child = spawn(process.execPath, [...nodeArgs, script, ...args], {
      env: { PATH: process.env.PATH, NODE_ENV: 'production', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout.on('data', (d) => (this.log += d));
    this.child.stderr.on('data', (d) => (this.log += d));
  }

  get pid() {
    return this.child.pid;
  }

  /** Peak resident memory (VmHWM) in MB, from /proc. */
  peakRssMb() {
    return peakRssMb(this.pid);
  }

  /** Ended, by exit or by a signal (a process killed by a signal keeps exitCode null). */
  get ended() {
    return this.child.exitCode !== null || this.child.signalCode !== null;
  }

  async stop(signal = 'SIGTERM') {
    if (this.ended) return;
    this.child.kill(signal);
    for (let i = 0; i < 50 && !this.ended; i++) await sleep(100);
    if (!this.ended) this.child.kill('SIGKILL');
  }
}

export async function waitReady(port, proc) {
  for (let i = 0; i < 300; i++) {
    try {
      const r = await fetch(`http://127.0.0.1:${port}/ready`);
      if (r.ok) return;
    } catch {
      // not listening yet
    }
    if (proc.ended) throw new Error(`${proc.name} exited: ${proc.log}`);
    await sleep(100);
  }
  throw new Error(`${proc.name} not ready: ${proc.log}`);
}

/** A redis-server of our own on loopback (nothing on disk), answering once it pings; answers a stop function (with its `pid`). */
export async function redisServer(port, extraArgs = []) {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...extraArgs],
    {
      stdio: 'ignore',
    },
  );
  for (let i = 0; i < 50; i++) {
    try {
      if (
        execFileSync('redis-cli', ['-p', String(port), 'ping'], {
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'ignore'],
        }).trim() === 'PONG'
      )
        break;
    } catch {
      // not up yet
    }
    await sleep(100);
  }
  const stop = async () => {
    child.kill('SIGKILL');
    await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
  };
  stop.pid = child.pid;
  return stop;
}

/** The bench's own Redis, unless BENCH_REDIS_URL names one. */
export async function startRedis() {
  if (process.env.BENCH_REDIS_URL) return async () => {};
  return redisServer(BENCH_REDIS_PORT, ['--hz', '100']);
}

/** What every process of the bench's stack runs with. */
export function stackEnv() {
  return {
    DATABASE_URL,
    REDIS_URL,
    JOBS_PREFIX: PREFIX,
    BOOTSTRAP_OWNER_EMAIL: OWNER.email,
    BOOTSTRAP_OWNER_PASSWORD: OWNER.password,
    AUTH_RATE_LIMIT: '100000',
    // To compare pool settings (docs/benchmarks.md, ninth round); absent, the app's defaults.
    ...Object.fromEntries(
      ['DATABASE_POOL_SIZE', 'DATABASE_POOL_WARM', 'EXPIRY_SWEEPS_AT_ONCE'].filter((k) => process.env[k]).map((k) => [k, process.env[k]]),
    ),
  };
}

/**
 * The api as `npm start` runs it, a worker and the bench's Redis. Answers the processes (the api's
 * and worker Procs are node:cluster's primaries; cpu.mjs's `withChildren(pid)` adds their processes), the base
 * URL and Redis's stop function.
 */
export async function startStack({ worker = true } = {}) {
  const stopRedis = await startRedis();
  const env = { ...stackEnv(), ...(process.env.API_PROCESSES && { API_PROCESSES: process.env.API_PROCESSES }) };
  // API_NODE_ARGS (say "--perf-basic-prof" for `perf record`) goes to the api's node, and through node:cluster to its processes.
  const apiNodeArgs = (process.env.API_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const api = new Proc(
    'api',
    `${DIST}/apps/api/src/main.js`,
    { ...env, PORT: String(PORT), HOST: '127.0.0.1' },
    ['--cores'],
    apiNodeArgs,
  );
  const procs = [api];
  // The primary starts one api process (it applies the migrations), then the rest once it listens;
  // the banner line comes once every one of them listens.
  // Three minutes: on a loaded machine (load average 15 on two cores) starting Nest takes a minute per process.
  for (let i = 0; !/hostboard is running/.test(api.log); i++) {
    if (api.ended) throw new Error(`api exited: ${api.log}`);
    if (i === 1800) throw new Error(`api not listening after 180 s: ${api.log}`);
    await sleep(100);
  }
  await waitReady(PORT, api);
  // WORKER_NODE_ARGS (say "--cpu-prof --cpu-prof-dir=/tmp/prof") goes to the worker's node: a profile of the same run.
  const workerNodeArgs = (process.env.WORKER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  // As `npm run start:worker` runs it: one worker process unless WORKER_PROCESSES says otherwise (a
  // second one on these two cores made expiry slower: docs/benchmarks.md, "Worker processes").
  const workerEnv = { ...env, ...(process.env.WORKER_PROCESSES && { WORKER_PROCESSES: process.env.WORKER_PROCESSES }) };
  if (worker) procs.push(new Proc('worker', `${DIST}/apps/worker/src/main.js`, workerEnv, [], workerNodeArgs));
  await sleep(500);
  return { procs, api, worker: procs[1], url: `http://127.0.0.1:${PORT}`, stopRedis };
}
