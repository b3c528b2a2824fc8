import { randomBytes } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { createApiApp } from '../../apps/api/src/api.factory.js';
import { Clock, loadConfig, ManualClock, SystemClock, type AppConfig } from '@hostboard/core';
import { IN_MEMORY } from '@hostboard/persistence';
import { memoryImage } from './memory-image.js';
import { freshDatabase, type TestDatabase } from './test-database.js';

/** This test file's (a module is loaded once per test file). */
const FILE_PREFIX = `t${process.pid}-${randomBytes(3).toString('hex')}`;

export interface TestApp {
  app: NestFastifyApplication;
  config: AppConfig;
  baseUrl: string;
  http: () => request.Agent;
  db: TestDatabase;
  close(): Promise<void>;
}

export interface StartOptions {
  env?: Record<string, string>;
  clock?: Clock;
  /** Reuse a database (a second boot, a second process); default: a fresh one. */
  db?: TestDatabase;
  keepDatabase?: boolean;
  /** Listen on this port (a restart that clients reconnect to); default: any free one. */
  port?: number;
}

/**
 * Boots the real api on a real port over this file's own database: PostgreSQL when DATABASE_URL
 * is set (and Redis when REDIS_URL is), else embedded PGlite in memory with in-process jobs.
 */
export async function startApp(options: StartOptions = {}): Promise<TestApp> {
  const db = options.db ?? (await freshDatabase());
  const env: Record<string, string | undefined> = {
    NODE_ENV: 'test',
    LOG_LEVEL: process.env['TEST_LOG_LEVEL'] ?? 'fatal',
    HOSTBOARD_DATA_DIR: IN_MEMORY,
    // Unused on PostgreSQL, and by a test that sets a data folder of its own.
    HOSTBOARD_MEMORY_IMAGE: db.url === undefined ? await memoryImage() : undefined,
    DATABASE_URL: db.url,
    REDIS_URL: process.env['REDIS_URL'],
    // Each test file's own job queue and rate-limit counters on the shared Redis (one prefix per
    // worker process let one file's failed logins from 127.0.0.1 count against another file's).
    JOBS_PREFIX: FILE_PREFIX,
    // Tests stand for many callers behind a proxy on this host: each sends X-Forwarded-For with an
    // address of its own. Production trusts no proxy unless TRUST_PROXY says so (the limits tests
    // pass TRUST_PROXY: '' to check that).
    TRUST_PROXY: 'loopback',
    // Suites join many parties from one place; the join limits have tests of their own.
    JOIN_RATE_PER_ADDRESS: '1000000',
    JOIN_RATE_PER_VENUE: '1000000',
    // Suites create and sign in hundreds of accounts (access-matrix alone ~500 hashes): argon2id at
    // 1 MiB and one pass instead of 19 MiB and two (~30 ms of CPU each). A unit spec covers both.
    // (Not for a test that runs the app as development or production: the config refuses it there.)
    PASSWORD_HASH_COST: (options.env?.['NODE_ENV'] ?? 'test') === 'test' ? 'test' : undefined,
    ...options.env,
  };
  const config = loadConfig(env);
  const app = await createApiApp(config, { clock: options.clock ?? new SystemClock() });
  await app.listen(options.port ?? 0, '127.0.0.1');
  const port = (app.getHttpServer().address() as AddressInfo).port;
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    app,
    config,
    baseUrl,
    http: () => request.agent(baseUrl),
    db,
    close: async () => {
      await app.close();
      if (!options.keepDatabase && !options.db) await db.drop();
    },
  };
}

export { ManualClock };
