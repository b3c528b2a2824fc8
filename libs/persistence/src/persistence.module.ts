import { Logger, Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { AppConfig, clusterShare, clusterSize, DATABASE_REFUSALS, databaseUnreachable } from '@hostboard/core';
import { capPool, connectionBudget, fittedPoolSize, keepWarm, pgPool, type PoolRole } from './connection-budget.js';
import { DatabaseReadiness } from './database.readiness.js';
import { ClockWatch } from './clock-watch.js';
import { DatabaseWatch, watchPool } from './database-watch.js';
import { dataSourceOptions, migrate, warmPool } from './data-source.factory.js';
import { retryStart } from './start-retry.js';

/** A server not up yet is tried this many times in all, this far apart: 30 s, as Nest's default gave. */
const START_ATTEMPTS = 10;
const START_RETRY_MS = 3000;

/** The data source, migrated at start-up: PostgreSQL when DATABASE_URL is set, else embedded PGlite. */
@Module({})
export class PersistenceModule {
  /** `worker`: its connections give up waiting for a row lock after WORKER_LOCK_TIMEOUT_MS. */
  static forRoot(options: { worker?: boolean } = {}): DynamicModule {
    let server = false;
    let warm = 0;
    let configuredPool = 0;
    const role: PoolRole = options.worker ? 'worker' : 'api';
    const logger = new Logger('Persistence');
    // One line when PostgreSQL is lost and one when it is back, in the api and the worker alike.
    const watch = new DatabaseWatch(new Logger('Database'));
    return {
      module: PersistenceModule,
      global: true,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [AppConfig],
          useFactory: async (config: AppConfig) => {
            server = config.DATABASE_URL !== undefined;
            configuredPool = config.DATABASE_POOL_SIZE;
            // A cluster's processes split the warm connections (AppConfig.DATABASE_POOL_WARM).
            warm = server ? clusterShare(config.DATABASE_POOL_WARM) : 0;
            return {
              ...(await dataSourceOptions({
                databaseUrl: config.DATABASE_URL,
                poolSize: config.DATABASE_POOL_SIZE,
                warm,
                lockTimeoutMs: options.worker ? config.WORKER_LOCK_TIMEOUT_MS : undefined,
                dataDir: config.HOSTBOARD_DATA_DIR,
                memoryImage: config.HOSTBOARD_MEMORY_IMAGE,
              })),
              // The factory retries by itself, in one line per attempt (retryStart): Nest's retry
              // logs the driver's stack at each.
              toRetry: () => false,
            };
          },
          dataSourceFactory: async (options?: DataSourceOptions) => {
            if (!options) throw new Error('no data source options');
            // A server that is not up yet is retried (a restart of everything may start the app
            // before PostgreSQL); a database that does not exist, or a role or password refused,
            // will not change in 30 s: start-up stops at once and says so (databaseStartupFailure).
            // The embedded database has nothing to wait for.
            return retryStart(() => open(options), {
              attempts: START_ATTEMPTS,
              delayMs: START_RETRY_MS,
              retryable: (err) => server && !DATABASE_REFUSALS.includes(String((err as { code?: unknown })?.code)),
              log: (line) => logger.warn(line),
            });
          },
        }),
      ],
      providers: [DatabaseReadiness, ClockWatch],
      exports: [DatabaseReadiness],
    };

    /** One attempt: connected, fitted, migrated and warm, or closed again (a retry opens its own). */
    async function open(options: DataSourceOptions): Promise<DataSource> {
      const dataSource = new DataSource(options);
      try {
        await dataSource.initialize();
        return await prepare(dataSource);
      } catch (err) {
        if (dataSource.isInitialized) await dataSource.destroy().catch(() => undefined);
        throw err;
      }
    }

    async function prepare(dataSource: DataSource): Promise<DataSource> {
      const pool = server ? pgPool(dataSource) : undefined;
      if (pool) watchPool(pool, watch);
      if (pool) {
        // Before migrating, so start-up itself stays inside what the server gives us.
        const budget = await connectionBudget(dataSource);
        const size = fittedPoolSize(configuredPool, budget, role, clusterSize());
        if (size < configuredPool) {
          capPool(pool, size);
          warm = Math.min(warm, size);
          logger.log(
            `the database lets this user open ${budget} connections: this process uses at most ${size} (DATABASE_POOL_SIZE is ${configuredPool})`,
          );
        }
      }
      const applied = await migrate(dataSource, server, (line) => logger.warn(line));
      logger.log(applied.length > 0 ? `applied ${applied.length} migration(s): ${applied.join(', ')}` : 'schema is current');
      const opened = await warmPool(dataSource, warm);
      if (opened < warm) logger.warn(`opened ${opened} of ${warm} warm database connections; the rest open when needed`);
      if (pool && warm > 0) {
        // While the database is away the watch has said so once; a retry every 5 s adds nothing.
        keepWarm(pool, warm, (err) => {
          if (!databaseUnreachable(err)) logger.warn(`could not reopen warm database connections (retrying): ${err.message}`);
        });
      }
      return dataSource;
    }
  }
}
