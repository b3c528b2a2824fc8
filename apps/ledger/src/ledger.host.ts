import { spawn } from 'node:child_process';
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

/**
 * The api, started in this process on a loopback port: sample data only, nothing shared, nothing sent.
 * On the embedded default it runs over its own embedded database in a temporary folder; with
 * DATABASE_URL, over a temporary database of its own on that server (dropped at the end), where the
 * last-seat case starts a second api process on the same database. It can be stopped and started
 * again on the same data (the "save and return" check).
 */
export class LedgerHost implements LedgerBackend {
  private app?: NestFastifyApplication;
  readonly dataDir = mkdtempSync(join(tmpdir(), 'hostboard-ledger-'));
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

  async start(): Promise<void> {
    if (this.server && !this.databaseUrl)
      this.databaseUrl = await adminQuery(this.server, `CREATE DATABASE ${this.dbName}`, this.dbName);
    this.app = await createApiApp(loadConfig(this.env()));
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

  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.dataDir, { recursive: true, force: true });
    if (this.server && this.databaseUrl)
      await adminQuery(this.server, `DROP DATABASE IF EXISTS ${this.dbName} WITH (FORCE)`, this.dbName);
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
