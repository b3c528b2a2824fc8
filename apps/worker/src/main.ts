import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import cluster from 'node:cluster';
// As the api's main.ts: node:cluster's primary loads only what it needs; the app is imported by the
// processes that run it.
import { ConfigError, loadConfig } from '@hostboard/core/config/app-config.js';
import { reportListening, runPrimary, workerProcessCount } from '@hostboard/core/process/cluster-primary.js';
import { installProcessGuards, STOP_SIGNALS } from '@hostboard/core/process/process-guards.js';
import { databaseStartupFailure } from '@hostboard/core/process/startup-failure.js';
import { redisStartupRefusal } from '@hostboard/core/redis/redis-startup-check.js';
import { createLogger, PinoNestLogger } from '@hostboard/core/logging/logger.js';
import { serveMetrics } from '@hostboard/core/health/metrics-server.js';

async function main(): Promise<void> {
  const config = loadConfig();
  if (!config.REDIS_URL) {
    throw new ConfigError('the worker consumes BullMQ jobs: set REDIS_URL (without Redis, `npm start` runs jobs in-process)');
  }
  if (config.REDIS_URL) {
    // A Redis that answers and refuses the URL (a database it does not have, a wrong password).
    const refusal = await redisStartupRefusal(config.REDIS_URL);
    if (refusal) throw new ConfigError(refusal);
  }
  installProcessGuards('worker');
  const processes = workerProcessCount(config, process.argv);
  if (processes > 1 && cluster.isPrimary) {
    runPrimary(processes, (line) => process.stdout.write(line), {
      label: 'worker',
      summary: (n) => `  worker processes: ${n} (node:cluster, one per core unless WORKER_PROCESSES says otherwise)\n`,
    });
    if (config.WORKER_METRICS_PORT !== undefined && config.METRICS_TOKEN !== undefined) {
      // The primary serves the scrape, with every worker process's figures summed.
      const { AggregatorRegistry } = await import('prom-client');
      const all = new AggregatorRegistry();
      await serveMetrics(config.WORKER_METRICS_PORT, config.HOST, config.METRICS_TOKEN, () => all.clusterMetrics());
    }
    return;
  }
  const [{ NestFactory }, { WorkerModule, Metrics, SweepHealth }] = await Promise.all([
    import('@nestjs/core'),
    import('./worker.module.js'),
  ]);
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config), {
    logger: new PinoNestLogger(createLogger(config.LOG_LEVEL)),
    // A failed start (a data folder in use) reaches the catch below, which prints it as one line.
    abortOnError: false,
  });
  // SIGTERM and SIGINT only (Nest's default is every signal it knows, SIGHUP and SIGUSR2 among them).
  app.enableShutdownHooks([...STOP_SIGNALS]);
  await app.init();
  if (config.WORKER_METRICS_PORT !== undefined && config.METRICS_TOKEN !== undefined && !cluster.isWorker) {
    const metrics = app.get(Metrics);
    await serveMetrics(config.WORKER_METRICS_PORT, config.HOST, config.METRICS_TOKEN, () => metrics.text());
  }
  const heartbeat = config.WORKER_HEARTBEAT_FILE;
  if (heartbeat) {
    // A health check reads the file's age. It is touched only while the worker is healthy: its event
    // loop turns and its safety sweep (every 15 s) reaches the database; a worker that cannot do its
    // work stops touching it, and reads as unhealthy once the file is older than a minute.
    const health = app.get(SweepHealth);
    const touch = (): void => {
      if (!health.healthy()) return;
      try {
        writeFileSync(heartbeat, '');
      } catch (err) {
        process.stderr.write(`worker heartbeat not written to ${heartbeat}: ${(err as Error).message}\n`);
      }
    };
    touch();
    setInterval(touch, 5000).unref();
  }
  // After the first touch: a supervisor (or a test) that reads the banner finds the heartbeat there.
  const banner = 'hostboard worker is consuming jobs\n';
  if (!reportListening(banner)) process.stdout.write(banner);
}

main().catch((err: unknown) => {
  const line = err instanceof ConfigError ? err.message : databaseStartupFailure(err, process.env['DATABASE_URL']);
  process.stderr.write(line ? `${line}\n` : `hostboard worker failed to start: ${(err as Error)?.stack ?? String(err)}\n`);
  process.exit(1);
});
