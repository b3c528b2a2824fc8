import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { ConfigError, createLogger, loadConfig, PinoNestLogger } from '@hostboard/core';
import { WorkerModule } from './worker.module.js';

async function main(): Promise<void> {
  const config = loadConfig();
  if (!config.REDIS_URL) {
    throw new Error('the worker consumes BullMQ jobs: set REDIS_URL (without Redis, `npm start` runs jobs in-process)');
  }
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config), {
    logger: new PinoNestLogger(createLogger(config.LOG_LEVEL)),
  });
  app.enableShutdownHooks();
  await app.init();
  process.stdout.write('hostboard worker is consuming jobs\n');
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) process.stderr.write(`${err.message}\n`);
  else process.stderr.write(`hostboard worker failed to start: ${(err as Error)?.stack ?? String(err)}\n`);
  process.exit(1);
});
