import 'reflect-metadata';
import cluster from 'node:cluster';
// Only what node:cluster's primary needs, by their own paths, and the app itself imported once this
// process is one that serves: the primary only forks and watches, in about a third of the memory
// (62 MB instead of 153 MB with the whole app loaded).
import { assertProductionBootstrap, ConfigError, loadConfig } from '@hostboard/core/config/app-config.js';
import { apiProcessCount, reportListening, runPrimary } from '@hostboard/core/process/cluster-primary.js';
import { installProcessGuards } from '@hostboard/core/process/process-guards.js';
import { databaseStartupFailure, embeddedStartupFailure } from '@hostboard/core/process/startup-failure.js';
import { redisStartupRefusal } from '@hostboard/core/redis/redis-startup-check.js';
import { limitHeapGrowth } from './heap-growth.js';

async function main(): Promise<void> {
  const config = loadConfig();
  assertProductionBootstrap(config);
  if (config.REDIS_URL) {
    // A Redis that answers and refuses the URL (a database it does not have, a wrong password).
    const refusal = await redisStartupRefusal(config.REDIS_URL);
    if (refusal) throw new ConfigError(refusal);
  }
  installProcessGuards('api');
  const processes = apiProcessCount(config, process.argv);
  if (processes > 1 && cluster.isPrimary) {
    runPrimary(processes, (line) => process.stdout.write(line));
    return;
  }
  limitHeapGrowth();
  const { createApiApp } = await import('./api.factory.js');
  const app = await createApiApp(config);
  await app.listen(config.PORT, config.HOST).catch((err: unknown) => {
    throw hostRefusal(err, config.HOST) ?? err;
  });
  const url = await app.getUrl();
  const where = config.embedded ? `embedded database in ${config.HOSTBOARD_DATA_DIR}` : 'PostgreSQL';
  const jobs = config.REDIS_URL ? 'BullMQ on Redis (run the worker too)' : 'in-process jobs';
  const base = url.replace('[::1]', 'localhost').replace('127.0.0.1', 'localhost');
  const banner = `hostboard is running at ${base} (${where}, ${jobs})\n  the floor board: ${base}/board\n  the API docs:    ${base}/docs\n`;
  if (!reportListening(banner)) process.stdout.write(banner);
}

/** A HOST this machine cannot listen on is a configuration mistake: one line naming it, not a stack. */
function hostRefusal(err: unknown, host: string): ConfigError | undefined {
  const code = (err as { code?: unknown })?.code;
  const syscall = (err as { syscall?: unknown })?.syscall;
  if (code !== 'EADDRNOTAVAIL' && !(code === 'ENOTFOUND' && syscall === 'getaddrinfo')) return undefined;
  const what =
    code === 'ENOTFOUND'
      ? `HOST "${host}" is not a name this machine can resolve`
      : `HOST ${host} is not an address of this machine`;
  return new ConfigError(
    `${what} (${code === 'ENOTFOUND' ? 'getaddrinfo' : 'listen'} ${String(code)}): set HOST to one of its addresses, 127.0.0.1 or 0.0.0.0.`,
  );
}

main().catch((err: unknown) => {
  // One clear line for a bad configuration; the full error for anything else.
  if (err instanceof ConfigError) process.stderr.write(`${err.message}\n`);
  else if ((err as { code?: unknown })?.code === 'EADDRINUSE') {
    // A configuration mistake too (another app on the port): one line naming the setting to change.
    const { address, port } = err as { address?: string; port?: number };
    process.stderr.write(
      `Port ${port} on ${address} is already in use by another program: stop it, or set PORT (or HOST) to a free one.\n`,
    );
  } else {
    const line =
      databaseStartupFailure(err, process.env['DATABASE_URL']) ??
      embeddedStartupFailure(process.env['HOSTBOARD_DATA_DIR'] || './.data', process.env['DATABASE_URL']);
    process.stderr.write(line ? `${line}\n` : `hostboard failed to start: ${(err as Error)?.stack ?? String(err)}\n`);
  }
  process.exit(1);
});
