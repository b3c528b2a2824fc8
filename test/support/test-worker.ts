import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { loadConfig } from '@hostboard/core';
import { WorkerModule } from '../../apps/worker/src/worker.module.js';
import type { TestApp } from './test-app.js';

/** The real BullMQ worker (the worker app's module), on the test app's database and job queue. */
export async function startWorker(t: TestApp, env: Record<string, string> = {}): Promise<INestApplicationContext> {
  const config = loadConfig({
    DATABASE_URL: t.config.DATABASE_URL,
    REDIS_URL: t.config.REDIS_URL,
    JOBS_PREFIX: t.config.JOBS_PREFIX,
    LOG_LEVEL: 'fatal',
    NODE_ENV: 'test',
    ...env,
  });
  const worker = await NestFactory.createApplicationContext(WorkerModule.forRoot(config), { logger: false });
  await worker.init();
  return worker;
}
