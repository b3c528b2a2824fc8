import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { StaffAccountService } from '@hostboard/auth';
import { loadConfig } from '@hostboard/core';
import { IN_MEMORY } from '@hostboard/persistence';
import { createApiApp } from '../../api/src/api.factory.js';

/** An answer of the API: status and parsed body. */
export interface Answer<T> {
  status: number;
  body: T;
}

/** A signed-in client of the hostboard API: the replay goes through the same routes as a host's tablet. */
export class ReplayClient {
  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
  ) {}

  async must<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${this.token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
    return (text ? JSON.parse(text) : null) as T;
  }
}

/**
 * The api, started in this process on a loopback port over an in-memory embedded database: sample
 * data only, nothing kept, nothing sent, whatever DATABASE_URL says.
 */
export class ReplayHost {
  private app?: NestFastifyApplication;
  private baseUrl = '';
  private readonly email = `replay-${randomBytes(4).toString('hex')}@sandbox.local`;
  private readonly password = randomBytes(12).toString('base64url');

  async start(): Promise<void> {
    const config = loadConfig({
      HOSTBOARD_DATA_DIR: IN_MEMORY,
      LOG_LEVEL: process.env['LOG_LEVEL'] ?? 'fatal',
      NODE_ENV: 'test',
    });
    this.app = await createApiApp(config);
    await this.app.listen(0, '127.0.0.1');
    this.baseUrl = `http://127.0.0.1:${(this.app.getHttpServer().address() as AddressInfo).port}`;
    await this.app
      .get(StaffAccountService)
      .ensureAccount({ email: this.email, password: this.password, name: 'Replay' }, 'owner-created');
  }

  async client(): Promise<ReplayClient> {
    const res = await fetch(`${this.baseUrl}/v1/auth/sessions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: this.email, password: this.password }),
    });
    if (res.status !== 201) throw new Error(`replay sign-in failed: ${res.status}`);
    return new ReplayClient(this.baseUrl, ((await res.json()) as { token: string }).token);
  }

  async stop(): Promise<void> {
    await this.app?.close();
    this.app = undefined;
  }
}
