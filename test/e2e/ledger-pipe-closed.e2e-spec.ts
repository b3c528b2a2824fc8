import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describeWithStack, privatePostgres, query } from '../support/built-stack.js';

/** The built ledger CLI (`npm run ledger` runs it). */
const LEDGER_MAIN = resolve('dist/apps/ledger/src/main.js');
const WORKSHEET = resolve('examples/maple-room.worksheet.json');

/**
 * `npm run ledger -- sheet | head`: head exits after its lines and the ledger's next write to stdout
 * fails with EPIPE. The run crashed on that write before its clean-up, and its temporary database
 * stayed on the server until the next run. It now stops, and removes its database and folder.
 */
describeWithStack('a ledger run whose reader goes away (piped into head)', () => {
  let server: Awaited<ReturnType<typeof privatePostgres>>;
  let tmp: string;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'hb-pipe-ledger-'));
    server = await privatePostgres();
  });
  afterAll(() => {
    server?.remove();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('removes its temporary database and folder when stdout is closed early', async () => {
    // A real pipeline, as a shell runs it: the ledger's stdout is head's stdin.
    const proc = spawn('sh', ['-c', `"${process.execPath}" "${LEDGER_MAIN}" "${WORKSHEET}" | head -n 1`], {
      env: { PATH: process.env['PATH'] ?? '', DATABASE_URL: server.url, TMPDIR: tmp, LOG_LEVEL: 'fatal' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
    proc.stderr.on('data', (d: Buffer) => (err += d.toString()));
    await new Promise((r) => proc.once('exit', r));
    expect(out.split('\n').filter(Boolean)).toHaveLength(1);
    expect(out).toContain('ledger replay in a fresh sandbox venue');
    const left = await query<{ datname: string }>(
      server.url,
      `SELECT datname FROM pg_database WHERE datname LIKE 'hostboard\\_ledger\\_%'`,
    );
    expect({ databases: left.map((r) => r.datname), stderr: err }).toEqual({
      databases: [],
      stderr: expect.stringContaining(
        'ledger: its output was closed (EPIPE): stopping, and removing its temporary database and folder',
      ) as string,
    });
    expect(readdirSync(tmp).filter((n) => n.startsWith('hostboard-ledger-'))).toEqual([]);
  }, 240_000);
});
