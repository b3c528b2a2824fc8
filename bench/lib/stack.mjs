// Starts what a benchmark needs on loopback: a fresh PostgreSQL database on the machine's server,
// two api processes in production mode and a BullMQ worker, all on that database and Redis.
import { spawn, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

export const PG_ADMIN = process.env.BENCH_PG_ADMIN ?? 'postgres://postgres@127.0.0.1:5432/postgres';
// The bench runs its own redis-server (as the drills do) with `hz 100`: BullMQ's delayed jobs are
// promoted on Redis's timer, and the default `hz 10` alone adds up to ~100 ms to an expiry (see
// docs/operations.md). BENCH_REDIS_URL points it at another Redis instead.
// BENCH_REDIS_PORT, BENCH_DB_NAME and BENCH_API_PORT let a second bench run beside this one.
export const BENCH_REDIS_PORT = Number(process.env.BENCH_REDIS_PORT ?? 6393);
export const REDIS_URL = process.env.BENCH_REDIS_URL ?? `redis://127.0.0.1:${BENCH_REDIS_PORT}`;
export const DB_NAME = process.env.BENCH_DB_NAME ?? 'hostboard_bench';
export const DATABASE_URL = PG_ADMIN.replace(/\/[^/]*$/, `/${DB_NAME}`);
export const OWNER = { email: 'bench-owner@bench.local', password: 'bench-password-123' };

export function psql(sql, url = PG_ADMIN) {
  return execFileSync('psql', [url, '-v', 'ON_ERROR_STOP=1', '-qAtc', sql], { encoding: 'utf8' });
}

export function freshDatabase() {
  psql(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  psql(`CREATE DATABASE ${DB_NAME}`);
}

/** One started process, its output kept for the report on failure. */
export class Proc {
  constructor(name, script, env) {
    this.name = name;
    this.log = '';
    this.child = spawn(process.execPath, [script], {
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
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${this.pid}/status`, 'utf8'));
      return m ? Math.round(Number(m[1]) / 1024) : null;
    } catch {
      return null;
    }
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

/** A redis-server of our own on loopback (nothing on disk), answering once it pings; answers a stop function. */
export async function redisServer(port, extraArgs = []) {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...extraArgs], {
    stdio: 'ignore',
  });
  for (let i = 0; i < 50; i++) {
    try {
      if (execFileSync('redis-cli', ['-p', String(port), 'ping'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() === 'PONG') break;
    } catch {
      // not up yet
    }
    await sleep(100);
  }
  return async () => {
    child.kill('SIGKILL');
    await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
  };
}

/** The bench's own Redis, unless BENCH_REDIS_URL names one. */
export async function startRedis() {
  if (process.env.BENCH_REDIS_URL) return async () => {};
  return redisServer(BENCH_REDIS_PORT, ['--hz', '100']);
}

export async function startStack({ apis = 2, worker = true, prefix = 'bench' } = {}) {
  const stopRedis = await startRedis();
  const env = {
    DATABASE_URL,
    REDIS_URL,
    JOBS_PREFIX: prefix,
    BOOTSTRAP_OWNER_EMAIL: OWNER.email,
    BOOTSTRAP_OWNER_PASSWORD: OWNER.password,
    AUTH_RATE_LIMIT: '100000',
  };
  const procs = [];
  const ports = [];
  for (let i = 0; i < apis; i++) {
    const port = Number(process.env.BENCH_API_PORT ?? 3301) + i;
    const p = new Proc(`api-${i + 1}`, 'dist/apps/api/src/main.js', { ...env, PORT: String(port), HOST: '127.0.0.1' });
    procs.push(p);
    ports.push(port);
    // The first api applies the migrations; the others wait on its advisory lock.
    await waitReady(port, p);
  }
  if (worker) procs.push(new Proc('worker', 'dist/apps/worker/src/main.js', env));
  await sleep(500);
  return { procs, urls: ports.map((p) => `http://127.0.0.1:${p}`), stopRedis };
}
