import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { StaffAccountService } from '@hostboard/auth';
import { loadConfig } from '@hostboard/core';
import { createApiApp } from '../../api/src/api.factory.js';
import type { LedgerBackend } from './boundaries.js';
import { LedgerClient } from './ledger.client.js';

/**
 * The api, started in this process on a loopback port over its own embedded database in a temporary
 * folder: sample data only, nothing shared, nothing sent. It can be stopped and started again on the
 * same folder (the "save and return" check).
 */
export class LedgerHost implements LedgerBackend {
  private app?: NestExpressApplication;
  readonly dataDir = mkdtempSync(join(tmpdir(), 'hostboard-ledger-'));
  readonly email = `ledger-${randomBytes(4).toString('hex')}@sandbox.local`;
  readonly password = randomBytes(12).toString('base64url');
  baseUrl = '';

  async start(): Promise<void> {
    const config = loadConfig({
      HOSTBOARD_DATA_DIR: this.dataDir,
      LOG_LEVEL: process.env['LOG_LEVEL'] ?? 'fatal',
      NODE_ENV: 'test',
    });
    this.app = await createApiApp(config);
    await this.app.listen(0, '127.0.0.1');
    this.baseUrl = `http://127.0.0.1:${(this.app.getHttpServer().address() as AddressInfo).port}`;
    await this.app
      .get(StaffAccountService)
      .ensureAccount({ email: this.email, password: this.password, name: 'Ledger' }, 'owner-created');
  }

  async client(email = this.email, password = this.password): Promise<LedgerClient> {
    const res = await fetch(`${this.baseUrl}/v1/auth/sessions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    if (res.status !== 201) throw new Error(`ledger sign-in failed: ${res.status}`);
    return new LedgerClient(this.baseUrl, ((await res.json()) as { token: string }).token);
  }

  /** Another staff account, with no venue of ours. */
  async stranger(): Promise<LedgerClient> {
    const email = `stranger-${randomBytes(4).toString('hex')}@sandbox.local`;
    const password = randomBytes(12).toString('base64url');
    await this.app?.get(StaffAccountService).ensureAccount({ email, password, name: 'Stranger' }, 'owner-created');
    return this.client(email, password);
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
  }
}
