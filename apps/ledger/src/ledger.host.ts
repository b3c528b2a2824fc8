import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { StaffAccountService } from '@hostboard/auth';
import { Clock, loadConfig } from '@hostboard/core';
import { createApiApp } from '../../api/src/api.factory.js';
import type { LedgerBackend, SecondApi } from './boundary-cases.js';
import { LedgerClient } from './ledger.client.js';
import {
  markDatabaseSql,
  markFolder,
  removeDeadRunDatabases,
  removeDeadRunFolders,
  runMark,
  type RunMark,
} from './ledger.leftovers.js';

/**
 * The api, started in this process on a loopback port: sample data only, nothing shared, nothing sent.
 * On the embedded default it runs over its own embedded database in a temporary folder; with
 * DATABASE_URL, over a temporary database of its own on that server (dropped at the end), where the
 * last-seat case starts a second api process on the same database. It can be stopped and started
 * again on the same data (the "save and return" check).
 */
export class LedgerHost implements LedgerBackend {
  private app?: NestFastifyApplication;
  private readonly mark: RunMark = runMark();
  readonly dataDir = LedgerHost.folder(this.mark);
  /** The second api processes started, stopped with the run (a signal to this process alone reaches none of them). */
  private readonly children = new Set<ChildProcess>();
  private disposed?: Promise<void>;
  private creating?: Promise<string>;
  readonly email = `ledger-${randomBytes(4).toString('hex')}@sandbox.local`;
  readonly password = randomBytes(12).toString('base64url');
  baseUrl = '';
  /** The temporary database on the server, when DATABASE_URL is set. */
  private databaseUrl?: string;
  private readonly server = process.env['DATABASE_URL'] || undefined;
  private readonly dbName = `hostboard_ledger_${randomBytes(4).toString('hex')}`;

  /** Where the replay's data lives, for the report. */
  get where(): string {
    return this.server ? `a temporary database ${this.dbName} on DATABASE_URL's server` : 'a temporary embedded database';
  }

  private env(): Record<string, string> {
    return {
      HOSTBOARD_DATA_DIR: this.dataDir,
      LOG_LEVEL: process.env['LOG_LEVEL'] ?? 'fatal',
      NODE_ENV: 'test',
      ...(this.databaseUrl && { DATABASE_URL: this.databaseUrl }),
    };
  }

  /** The run's temporary folder, marked with the run at once (ledger.leftovers.ts). */
  private static folder(mark: RunMark): string {
    const dir = mkdtempSync(join(tmpdir(), 'hostboard-ledger-'));
    markFolder(dir, mark);
    return dir;
  }

  /**
   * Removes what dead ledger runs left behind (a run killed before it cleaned up): their temporary
   * folders, and their databases on DATABASE_URL's server that nobody is connected to. Answers a line
   * for each kind it removed or kept.
   */
  async removeLeftovers(): Promise<string[]> {
    const said: string[] = [];
    const folders = removeDeadRunFolders();
    if (folders.length > 0)
      said.push(`removed ${folders.length} temporary folder(s) of ledger runs that ended without cleaning up`);
    if (this.server) {
      const dbs = await removeDeadRunDatabases(this.server);
      if (dbs.removed.length > 0)
        said.push(`removed the temporary database(s) of ledger runs that ended without cleaning up: ${dbs.removed.join(', ')}`);
      if (dbs.inUse.length > 0)
        said.push(`kept the temporary database(s) of ended ledger runs that are still in use: ${dbs.inUse.join(', ')}`);
    }
    return said;
  }

  async start(): Promise<void> {
    if (this.server && !this.databaseUrl) {
      // Known at once, so a signal from here on drops it; marked with the run, so a later run can tell it.
      this.creating = adminQuery(this.server, `CREATE DATABASE ${this.dbName}`, this.dbName);
      this.databaseUrl = await this.creating;
      await adminQuery(this.server, markDatabaseSql(this.dbName, this.mark), this.dbName);
    }
    // The run handles SIGINT/SIGTERM itself (main.ts): it removes its database before it exits.
    this.app = await createApiApp(loadConfig(this.env()), { signalHooks: false });
    await this.app.listen(0, '127.0.0.1');
    this.baseUrl = `http://127.0.0.1:${(this.app.getHttpServer().address() as AddressInfo).port}`;
    await this.app
      .get(StaffAccountService)
      .ensureAccount({ email: this.email, password: this.password, name: 'Ledger' }, 'owner-created');
  }

  async client(email = this.email, password = this.password, baseUrl = this.baseUrl): Promise<LedgerClient> {
    const res = await fetch(`${baseUrl}/v1/auth/sessions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    if (res.status !== 201) throw new Error(`ledger sign-in failed: ${res.status}`);
    return new LedgerClient(baseUrl, ((await res.json()) as { token: string }).token);
  }

  /** The api's wall clock (not a sandbox clock): when the checks were observed. */
  now(): Date {
    if (!this.app) throw new Error('the ledger api is not running');
    return this.app.get(Clock).now();
  }

  /** Another staff account, with no venue of ours. */
  async stranger(): Promise<LedgerClient> {
    const email = `stranger-${randomBytes(4).toString('hex')}@sandbox.local`;
    const password = randomBytes(12).toString('base64url');
    await this.app?.get(StaffAccountService).ensureAccount({ email, password, name: 'Stranger' }, 'owner-created');
    return this.client(email, password);
  }

  /** A second api process on the same database; none on the embedded default (its folder belongs to one process). */
  async secondApi(): Promise<SecondApi | null> {
    if (!this.databaseUrl) return null;
    const main = join(dirname(fileURLToPath(import.meta.url)), '../../api/src/main.js');
    const child = spawn(process.execPath, [main], {
      env: { PATH: process.env['PATH'] ?? '', ...this.env(), PORT: '0', HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.children.add(child);
    child.once('exit', () => this.children.delete(child));
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error('the second api process did not start in 60 s')), 60_000);
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /running at (http:\/\/\S+)/.exec(out);
        if (m?.[1]) {
          clearTimeout(timer);
          resolve(m[1].replace('localhost', '127.0.0.1'));
        }
      });
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      child.on('exit', (c) => {
        clearTimeout(timer);
        reject(new Error(`the second api process exited (${c}): ${out.slice(-300)}`));
      });
    });
    const client = await this.client(this.email, this.password, url);
    return {
      client,
      label: `this process and a second api process (pid ${child.pid})`,
      close: async () => {
        child.removeAllListeners('exit');
        const gone = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await gone;
      },
    };
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  async stop(): Promise<void> {
    await this.app?.close();
    this.app = undefined;
  }

  /**
   * Stops the api and removes the run's folder and database, once (the end of the run and a signal
   * may both ask). `interrupted`: a signal ended the run mid-way, so the api is given a few seconds to
   * close (requests of the run may still be open) and the database is dropped whatever still holds it.
   */
  dispose(interrupted = false): Promise<void> {
    this.disposed ??= this.cleanUp(interrupted);
    return this.disposed;
  }

  private async cleanUp(interrupted: boolean): Promise<void> {
    for (const child of this.children) child.kill('SIGTERM');
    const stopped = this.stop();
    if (interrupted) await Promise.race([stopped.catch(() => undefined), new Promise((r) => setTimeout(r, 5_000).unref())]);
    else await stopped;
    rmSync(this.dataDir, { recursive: true, force: true });
    // A database being created when the signal came is dropped once it exists.
    const created = this.databaseUrl ?? (await this.creating?.catch(() => undefined));
    if (this.server && created) await adminQuery(this.server, `DROP DATABASE IF EXISTS ${this.dbName} WITH (FORCE)`, this.dbName);
  }
}

/** Runs one statement on the server's admin database; returns the URL of database `name` there. */
async function adminQuery(server: string, sql: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.toString();
}
