import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { DATA_FOLDER_LOCK, openEmbeddedDatabase } from '@hostboard/persistence';
import { seedDataDir } from '../support/memory-image.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp } from '../support/staff.js';

const CLI_MAIN = resolve('dist/apps/cli/src/main.js');

/** The embedded database on a folder, whatever DATABASE_URL says: the lock is the folder's. */
const embedded = { url: undefined, drop: async (): Promise<void> => undefined };

const inUse = (dir: string, pid: number): string =>
  `The data folder ${dir} is in use by process ${pid} (another hostboard app or the CLI); stop it first, or give this one its own HOSTBOARD_DATA_DIR.`;

/** The pid of a process that has run and exited: no process has it now (pids are not reused at once). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((done) => child.once('exit', done));
  return child.pid ?? 0;
}

/**
 * Two processes on one data folder each ran a database of their own over the same files, and one's
 * writes were lost at the next start. The folder is locked by the process that opens it.
 */
describe('the embedded data folder belongs to one process', () => {
  let dataDir: string;
  let first: TestApp | undefined;
  const start = (): Promise<TestApp> => startApp({ db: embedded, env: { HOSTBOARD_DATA_DIR: dataDir, REDIS_URL: '' } });
  const lockFile = (): string => join(dataDir, DATA_FOLDER_LOCK);

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'hb-lock-'));
    await seedDataDir(dataDir);
    first = await start();
  });
  afterAll(async () => {
    await first?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses a second app, and a second database, on a folder in use, naming the folder and the process', async () => {
    expect(first?.config.embedded).toBe(true);
    expect(readFileSync(lockFile(), 'utf8').split('\n')[0]).toBe(String(process.pid));
    await expect(start()).rejects.toThrow(inUse(dataDir, process.pid));
    await expect(openEmbeddedDatabase(dataDir)).rejects.toThrow(inUse(dataDir, process.pid));
    // The refused opens took nothing away: the first app still has its lock and serves.
    expect(readFileSync(lockFile(), 'utf8').split('\n')[0]).toBe(String(process.pid));
    await request((first as TestApp).baseUrl)
      .get('/ready')
      .expect(200);
  });

  it('the CLI refuses in one line and exits non-zero against the folder of a running app', async () => {
    const env: NodeJS.ProcessEnv = { PATH: process.env['PATH'], HOSTBOARD_DATA_DIR: dataDir, LOG_LEVEL: 'fatal' };
    const run = await promisify(execFile)(
      process.execPath,
      [CLI_MAIN, 'create-owner', '--email', 'second@example.com', '--password', 'a long password for the cli'],
      { env, encoding: 'utf8', timeout: 60_000 },
    ).then(
      () => ({ code: 0, stderr: '' }),
      (err: { code: number; stderr: string }) => err,
    );
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([inUse(dataDir, process.pid)]);
  });

  it('opens again once the first app has closed, with its data, and releases the lock on close', async () => {
    const owner = await signUp(first as TestApp, 'owner');
    await first?.close();
    first = undefined;
    expect(existsSync(lockFile())).toBe(false);
    const second = await start();
    try {
      await request(second.baseUrl).post('/v1/auth/sessions').send({ email: owner.email, password: owner.password }).expect(201);
    } finally {
      await second.close();
    }
    expect(existsSync(lockFile())).toBe(false);
  });

  it('takes over a lock left by a process that is no longer running (killed with kill -9)', async () => {
    const pid = await deadPid();
    writeFileSync(lockFile(), `${pid}\n`);
    const third = await start();
    try {
      expect(readFileSync(lockFile(), 'utf8').split('\n')[0]).toBe(String(process.pid));
      await request(third.baseUrl).get('/ready').expect(200);
    } finally {
      await third.close();
    }
    expect(existsSync(lockFile())).toBe(false);
  });
});
