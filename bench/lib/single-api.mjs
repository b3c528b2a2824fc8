// One api process (a built dist/, API_DIST for another build) on a fresh database of the machine's
// PostgreSQL and its Redis, for the small one-client scripts (join-statements, expiry-sweep): start it
// signed in as the bootstrap owner, call it, stop it, and read back the statements the database logged
// around one step (`log_statement = all` set on that database only, so the shared server is untouched).
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

const PG = process.env.BENCH_PG ?? 'postgres://postgres@127.0.0.1:5432';
const DIST = process.env.API_DIST ?? 'dist';
const OWNER = { email: 'bench-owner@example.test', password: 'bench-owner-password-1' };

export const psql = (db, sql) =>
  execFileSync('psql', ['-qAt', `${PG}/${db}`, '-c', sql])
    .toString()
    .trim();

/** This database's PostgreSQL backends, by pid. */
export const backends = (db) =>
  psql('postgres', `SELECT pid FROM pg_stat_activity WHERE datname = '${db}'`).split('\n').filter(Boolean).map(Number);

export function singleApi({ port, prefix }) {
  const base = `http://127.0.0.1:${port}`;

  async function call(method, path, body, token, extra = {}) {
    const res = await fetch(base + path, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...extra },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : null;
  }

  /** A fresh database `db` (logging every statement when asked) and the api on it, signed in. */
  async function start(db, { logStatements = false } = {}) {
    psql('postgres', `DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
    psql('postgres', `CREATE DATABASE ${db}`);
    if (logStatements) psql('postgres', `ALTER DATABASE ${db} SET log_statement = 'all'`);
    const api = spawn('node', [`${DIST}/apps/api/src/main.js`], {
      env: {
        ...process.env,
        DATABASE_URL: `${PG}/${db}`,
        REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
        JOBS_PREFIX: prefix,
        PORT: String(port),
        LOG_LEVEL: 'warn',
        API_PROCESSES: '1',
        BOOTSTRAP_OWNER_EMAIL: OWNER.email,
        BOOTSTRAP_OWNER_PASSWORD: OWNER.password,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const stop = async () => {
      if (api.exitCode === null) {
        const exited = new Promise((r) => api.once('exit', r));
        api.kill('SIGTERM');
        await exited;
      }
      psql('postgres', `DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
    };
    let out = '';
    api.stdout.on('data', (d) => (out += d));
    for (let i = 0; i < 120 && !out.includes('hostboard is running'); i++) await sleep(500);
    if (!out.includes('hostboard is running')) {
      await stop();
      throw new Error(`the api did not start: ${out}`);
    }
    const { token } = await call('POST', '/v1/auth/sessions', OWNER);
    return { pid: api.pid, token, stop };
  }

  return { call, start };
}

/**
 * The statements database `db` logged while `fn` ran (it must have been started with
 * `logStatements`), each as its text without the log line's prefix.
 */
export async function loggedStatements(db, fn) {
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
    .map((l) => l.replace(/^.*LOG: {2}(statement|execute [^:]*): /, ''));
}
