import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hasPostgresBinaries, privatePostgres, query } from '../support/built-stack.js';

const d = hasPostgresBinaries
  ? describe
  : (((name: string, fn: () => void) =>
      describe.skip(`${name} [skipped: needs PostgreSQL's binaries (initdb, pg_ctl) and runuser]`, fn)) as jest.Describe);

/**
 * test/support's private PostgreSQL (the fault and spawned tests' own server): a start that failed
 * left its /tmp/hb-pg-* folder behind and threw pg_ctl's bare "Command failed". Each case makes its
 * server's folder in a folder of its own, so what it leaves is told apart from other runs' folders.
 */
d('a private PostgreSQL of the test’s own', () => {
  let parent: string;
  let held: Server | undefined;

  beforeEach(() => {
    parent = mkdtempSync(join(tmpdir(), 'hb-private-pg-spec-'));
    // initdb and the server run as the postgres user: it must reach its folder inside this one.
    chmodSync(parent, 0o755);
  });
  afterEach(async () => {
    await new Promise<void>((r) => (held ? held.close(() => r()) : r()));
    held = undefined;
    rmSync(parent, { recursive: true, force: true });
  });

  it('whose port is already held fails to start with an error naming the port and the cause, and leaves no folder', async () => {
    held = createServer();
    const server = held;
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };

    const failed = await privatePostgres({ port, under: parent }).then(
      (s) => (s.remove(), undefined),
      (err: unknown) => err as Error,
    );
    expect(readdirSync(parent)).toEqual([]);
    expect(failed?.message).toContain(`private PostgreSQL did not start on 127.0.0.1:${port}`);
    // The server's own words, from its log (pg_ctl says only "could not start server").
    expect(failed?.message).toMatch(/could not bind IPv4 address "127\.0\.0\.1": Address already in use/);
  }, 60_000);

  it('that starts answers queries, and remove() stops it and removes its folder', async () => {
    const server = await privatePostgres({ under: parent });
    try {
      expect(readdirSync(parent).filter((n) => n.startsWith('hb-pg-'))).toHaveLength(1);
      expect(await query<{ one: number }>(server.url, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      server.remove();
    }
    expect(readdirSync(parent)).toEqual([]);
  }, 60_000);
});
