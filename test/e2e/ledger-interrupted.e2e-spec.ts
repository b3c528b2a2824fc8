import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { describeWithStack, privatePostgres, query, sleep } from '../support/built-stack.js';

/** The built ledger CLI (`npm run ledger` runs it): spawned, then signalled. */
const LEDGER_MAIN = resolve('dist/apps/ledger/src/main.js');
const WORKSHEET = resolve('examples/maple-room.worksheet.json');

interface Run {
  proc: ChildProcess;
  out: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * A ledger run killed mid-way. On SIGINT or SIGTERM it stops and removes its temporary database and
 * folder (and its second api process); SIGKILL cannot be caught, so the next run removes what a dead
 * run left, and only that: never a database or folder without a run's mark, of a live run or another
 * machine, or a database someone is connected to. On a PostgreSQL server of the test's own.
 */
describeWithStack('a ledger run killed mid-way leaves no temporary database behind', () => {
  let server: Awaited<ReturnType<typeof privatePostgres>>;
  let tmp: string;

  beforeAll(async () => {
    // The folder first: a server that fails to start throws, and afterAll still has a folder to remove
    // (it threw on an undefined one, hiding the server's error under a TypeError).
    tmp = mkdtempSync(join(tmpdir(), 'hb-leftovers-ledger-'));
    // On a free port: a fixed one (4142) failed the second of two runs at once, its server refused.
    server = await privatePostgres();
  });
  afterAll(() => {
    server?.remove();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  const ledgerDatabases = async (): Promise<string[]> =>
    (
      await query<{ datname: string }>(
        server.url,
        `SELECT datname FROM pg_database WHERE datname LIKE 'hostboard\\_ledger\\_%' ORDER BY datname`,
      )
    ).map((r) => r.datname);
  const ledgerFolders = (): string[] => readdirSync(tmp).filter((n) => n.startsWith('hostboard-ledger-'));

  function ledger(...args: string[]): Run {
    const proc = spawn(process.execPath, [LEDGER_MAIN, WORKSHEET, ...args], {
      env: { PATH: process.env['PATH'] ?? '', DATABASE_URL: server.url, TMPDIR: tmp, LOG_LEVEL: 'fatal' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    proc.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    proc.stderr?.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
      proc.once('exit', (code, signal) => r({ code, signal })),
    );
    return { proc, out: () => out, exited };
  }

  async function until(what: string, ok: () => boolean | Promise<boolean>, ms = 180_000): Promise<void> {
    const end = Date.now() + ms;
    while (!(await ok())) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await sleep(100);
    }
  }

  /** The processes this one started (the ledger's second api process). */
  const childrenOf = (pid: number): number[] =>
    readdirSync('/proc')
      .filter((n) => /^\d+$/.test(n))
      .filter((n) => {
        try {
          return readFileSync(`/proc/${n}/stat`, 'utf8').split(') ')[1]?.split(' ')[1] === String(pid);
        } catch {
          return false;
        }
      })
      .map(Number);
  const alive = (pid: number): boolean => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };

  it('SIGINT while the rows replay: it exits 130 and its database and folder are gone', async () => {
    const run = ledger('--boundaries');
    await until('the replay to start', () => run.out().includes('Each row:'));
    expect(await ledgerDatabases()).toHaveLength(1);
    expect(ledgerFolders()).toHaveLength(1);
    run.proc.kill('SIGINT');
    expect(await run.exited).toEqual({ code: 130, signal: null });
    expect(run.out()).toContain('ledger: SIGINT: stopping, and removing its temporary database and folder');
    expect(await ledgerDatabases()).toEqual([]);
    expect(ledgerFolders()).toEqual([]);
  });

  it('SIGTERM while its second api process runs (the last-seat case): that process stops too, and nothing is left', async () => {
    const run = ledger('--boundaries');
    const pid = run.proc.pid ?? 0;
    let second: number[] = [];
    await until('the second api process', () => (second = childrenOf(pid)).length > 0);
    run.proc.kill('SIGTERM');
    expect(await run.exited).toEqual({ code: 143, signal: null });
    await until('the second api process to stop', () => second.every((p) => !alive(p)), 15_000);
    expect(await ledgerDatabases()).toEqual([]);
    expect(ledgerFolders()).toEqual([]);
  });

  it('SIGKILL leaves them; the next run removes them, and only a dead run’s that nobody uses', async () => {
    const killed = ledger('--boundaries');
    await until('the replay to start', () => killed.out().includes('Each row:'));
    const [left] = await ledgerDatabases();
    killed.proc.kill('SIGKILL');
    expect((await killed.exited).signal).toBe('SIGKILL');
    expect(await ledgerDatabases()).toEqual([left]);
    expect(ledgerFolders()).toHaveLength(1);

    // A process id that is surely dead: a process that has exited.
    const gone = spawn(process.execPath, ['-e', '']);
    await new Promise((r) => gone.once('exit', r));
    const mark = (pid: number, host = hostname()): string =>
      `'hostboard ledger run ${JSON.stringify({ pid, host }).replace(/'/g, "''")}'`;
    const decoys: Array<[string, string | null]> = [
      ['hostboard_ledger_0000000a', mark(process.pid)], // a live run (this test's process)
      ['hostboard_ledger_0000000b', null], // no mark: not a ledger run's, as far as anyone can tell
      ['hostboard_ledger_0000000c', mark(gone.pid ?? 0)], // a dead run's, but someone is connected to it
      ['hostboard_ledger_0000000d', mark(gone.pid ?? 0, 'another-machine')], // a run of another machine
    ];
    for (const [name, comment] of decoys) {
      await query(server.url, `CREATE DATABASE ${name}`);
      if (comment) await query(server.url, `COMMENT ON DATABASE ${name} IS ${comment}`);
    }
    const url = new URL(server.url);
    url.pathname = '/hostboard_ledger_0000000c';
    const reader = new pg.Client({ connectionString: url.toString() });
    await reader.connect();
    for (const [name, text] of [
      ['hostboard-ledger-unmarked', null],
      ['hostboard-ledger-live', JSON.stringify({ pid: process.pid, host: hostname() })],
    ] as const) {
      mkdirSync(join(tmp, name));
      if (text) writeFileSync(join(tmp, name, 'ledger-run.json'), text);
    }

    try {
      const next = ledger();
      expect(await next.exited).toEqual({ code: 0, signal: null });
      expect(next.out()).toContain(
        `ledger: removed the temporary database(s) of ledger runs that ended without cleaning up: ${left}`,
      );
      expect(next.out()).toContain(
        'ledger: kept the temporary database(s) of ended ledger runs that are still in use: hostboard_ledger_0000000c',
      );
      expect(next.out()).toContain('ledger: removed 1 temporary folder(s) of ledger runs that ended without cleaning up');
      expect(next.out()).toContain('12 passed, 0 failed');
      expect(await ledgerDatabases()).toEqual(decoys.map(([name]) => name));
      expect(ledgerFolders().sort()).toEqual(['hostboard-ledger-live', 'hostboard-ledger-unmarked']);
    } finally {
      await reader.end();
    }
  });
});
