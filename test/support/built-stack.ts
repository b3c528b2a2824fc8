import pg from 'pg';
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { waitFor } from './board-client.js';

/**
 * The built api and worker as production runs them (dist/, NODE_ENV=production, log lines on
 * stdout), on a Redis and a PostgreSQL of the test's own that it can fill, stop and start: for
 * tests that count what an operator would read in the log during an outage.
 */

export const API_MAIN = resolve('dist/apps/api/src/main.js');
export const WORKER_MAIN = resolve('dist/apps/worker/src/main.js');
export const OWNER = { email: 'outage-owner@tests.local', password: 'quiet-lantern-5821' };

export const hasRedisServer = spawnSync('redis-server', ['--version']).status === 0;
const PG_VERSIONS = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql') : [];
const PG_BIN = PG_VERSIONS[0] ? `/usr/lib/postgresql/${PG_VERSIONS[0]}/bin` : undefined;
/** initdb and pg_ctl run as the postgres user (they refuse root): needs both, and runuser. */
export const hasPostgresBinaries =
  PG_BIN !== undefined && existsSync(`${PG_BIN}/initdb`) && spawnSync('runuser', ['--help']).status === 0;

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A loopback port free now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/**
 * A redis-server of the test's own (nothing on disk), answering PING before this resolves. `stop`
 * kills it (-9); `start` runs a new one on the same port, empty, as a restarted Redis here is.
 */
export async function privateRedis(
  extra: string[] = [],
): Promise<{ port: number; url: string; cli(...args: string[]): string; stop(): void; start(): Promise<void> }> {
  const port = await freePort();
  const cli = (...args: string[]): string =>
    execFileSync('redis-cli', ['-p', String(port), ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  let child: ChildProcess | undefined;
  const start = async (): Promise<void> => {
    // A killed server may still hold the port for a moment.
    const last = child;
    if (last && last.exitCode === null && last.signalCode === null) await new Promise((r) => last.once('exit', r));
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...extra], {
      stdio: 'ignore',
    });
    for (let i = 0; i < 100; i++) {
      try {
        if (cli('ping') === 'PONG') break;
      } catch {
        // not up yet
      }
      await sleep(50);
    }
  };
  await start();
  return { port, url: `redis://127.0.0.1:${port}`, cli, stop: () => void child?.kill('SIGKILL'), start };
}

/**
 * A PostgreSQL cluster of the test's own (initdb into a temporary folder) on a free port, stopped
 * and started at will, its folder in the system's temporary folder. `port` and `under` (the folder to
 * make its own in) only for a test that needs them: one that sees a start fail. A cluster that fails to set up or start leaves no folder behind (it left
 * /tmp/hb-pg-* before) and throws an error naming the port and the server's own words from its log.
 */
export async function privatePostgres(
  options: { port?: number; under?: string } = {},
): Promise<{ url: string; start(): void; stop(): void; remove(): void }> {
  if (!PG_BIN) throw new Error('no PostgreSQL binaries');
  const port = options.port ?? (await freePort());
  const dir = mkdtempSync(join(options.under ?? tmpdir(), 'hb-pg-'));
  const data = join(dir, 'data');
  const log = join(dir, 'pg.log');
  const asPostgres = (cmd: string, args: string[]): void =>
    void execFileSync('runuser', ['-u', 'postgres', '--', `${PG_BIN}/${cmd}`, ...args], { stdio: 'pipe' });
  const start = (): void =>
    asPostgres('pg_ctl', ['-D', data, '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`, '-l', log, '-w', 'start']);
  const stop = (): void => asPostgres('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
  const remove = (): void => {
    try {
      stop();
    } catch {
      // already stopped, or never started
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    chmodSync(dir, 0o777);
    asPostgres('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8']);
    start();
  } catch (err) {
    const said = (err as { stderr?: Buffer }).stderr?.toString().trim();
    const logged = existsSync(log) ? readFileSync(log, 'utf8').trim() : '';
    remove();
    throw new Error(
      `private PostgreSQL did not start on 127.0.0.1:${port} (its folder ${dir} is removed): ` +
        `${said || (err as Error).message}${logged ? `\nits log:\n${logged}` : ''}`,
      { cause: err },
    );
  }
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, start, stop, remove };
}

/** One built process, its output kept; counts its log lines by message. */
export class BuiltProcess {
  readonly child: ChildProcess;
  out = '';

  constructor(script: string, env: Record<string, string | undefined>) {
    this.child = spawn(process.execPath, [script], {
      env: {
        PATH: process.env['PATH'],
        NODE_ENV: 'production',
        LOG_LEVEL: 'info',
        BOOTSTRAP_OWNER_EMAIL: OWNER.email,
        BOOTSTRAP_OWNER_PASSWORD: OWNER.password,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout?.on('data', (d: Buffer) => (this.out += d.toString()));
    this.child.stderr?.on('data', (d: Buffer) => (this.out += d.toString()));
  }

  /** A mark to count lines from. */
  get mark(): number {
    return this.out.length;
  }

  /** Lines since `from` whose message starts with `msg`. */
  lines(msg: string, from = 0): string[] {
    return this.out
      .slice(from)
      .split('\n')
      .filter((l) => l.includes(`"msg":"${msg}`));
  }

  /** Warnings and errors since `from` (pino levels 40 and up). */
  warnings(from = 0): string[] {
    return this.out
      .slice(from)
      .split('\n')
      .filter((l) => /"level":(40|50|60)\b/.test(l));
  }

  get ended(): boolean {
    return this.child.exitCode !== null || this.child.signalCode !== null;
  }

  async started(banner: string | RegExp, ms = 90_000): Promise<void> {
    const seen = (): boolean => (typeof banner === 'string' ? this.out.includes(banner) : banner.test(this.out));
    await waitFor(() => seen() || this.ended, ms, `the process to start:\n${this.out.slice(-3000)}`);
    if (!seen()) throw new Error(`the process ended before it started:\n${this.out.slice(-3000)}`);
  }

  async stop(): Promise<void> {
    if (this.ended) return;
    this.child.kill('SIGTERM');
    for (let i = 0; i < 100 && !this.ended; i++) await sleep(100);
    if (!this.ended) this.child.kill('SIGKILL');
  }
}

/** The built api on a port of its own, once it answers. */
export async function builtApi(env: Record<string, string | undefined>): Promise<{ proc: BuiltProcess; base: string }> {
  const port = await freePort();
  const proc = new BuiltProcess(API_MAIN, { PORT: String(port), HOST: '127.0.0.1', ...env });
  await proc.started(/running at http/);
  return { proc, base: `http://127.0.0.1:${port}` };
}

/** The built worker, once it consumes jobs. */
export async function builtWorker(env: Record<string, string | undefined>): Promise<BuiltProcess> {
  const proc = new BuiltProcess(WORKER_MAIN, env);
  await proc.started('consuming jobs');
  return proc;
}

/** One JSON call; status 0 when nothing answered. */
export async function call(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
): Promise<{ status: number; body: Record<string, unknown> & { error?: { code?: string } } }> {
  try {
    const r = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await r.text();
    return { status: r.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  } catch {
    return { status: 0, body: {} };
  }
}

/** The bootstrap owner's session, and a workshop venue of theirs with `holdSeconds`. */
export async function ownerVenue(base: string, holdSeconds: number, capacity = 50): Promise<{ token: string; venueId: string }> {
  const login = await call(base, 'POST', '/v1/auth/sessions', OWNER);
  if (login.status !== 201) throw new Error(`login ${login.status}`);
  const token = login.body['token'] as string;
  const slug = `o-${Math.random().toString(36).slice(2, 9)}`;
  const v = await call(
    base,
    'POST',
    '/v1/venues',
    { slug, name: 'Outage', timeZone: 'America/Chicago', preset: 'workshop', poolCapacity: capacity },
    token,
  );
  if (v.status !== 201) throw new Error(`venue ${v.status}`);
  const venueId = v.body['id'] as string;
  const p = await call(base, 'PATCH', `/v1/venues/${venueId}`, { policy: { holdSeconds } }, token);
  if (p.status !== 200) throw new Error(`policy ${p.status}`);
  return { token, venueId };
}

/** A describe that runs only where the built stack can start its own PostgreSQL and redis-server, else skips with the reason. */
export const describeWithStack =
  hasPostgresBinaries && hasRedisServer
    ? describe
    : (((name: string, fn: () => void) =>
        describe.skip(
          `${name} [skipped: needs PostgreSQL's binaries (initdb, pg_ctl), runuser and redis-server]`,
          fn,
        )) as jest.Describe);

/** One query on a connection of its own (the test reads the stack's database beside the processes). */
export async function query<T>(url: string, text: string, params: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(text, params)).rows as T[];
  } finally {
    await c.end();
  }
}
