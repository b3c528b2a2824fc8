import { DataSource, type DataSourceOptions } from 'typeorm';
import type { PostgresDataSourceOptions } from 'typeorm/driver/postgres/PostgresDataSourceOptions.js';
import { openEmbeddedDatabase } from './embedded/embedded-database.js';
import { SerialPglitePool } from './embedded/serial-pglite-pool.js';
import { ENTITIES } from './entities.js';
import { MIGRATIONS } from './migrations/index.js';

export interface DatabaseTarget {
  /** A PostgreSQL server; absent: the embedded PGlite database in `dataDir`. */
  databaseUrl?: string;
  dataDir: string;
  poolSize?: number;
}

const common = {
  type: 'postgres',
  entities: ENTITIES,
  migrations: MIGRATIONS,
  migrationsTableName: 'schema_migrations',
  // Migrations run at start-up, explicitly, so one log line says what was applied.
  migrationsRun: false,
  synchronize: false,
  // gen_random_uuid() is built in since PostgreSQL 13; no uuid-ossp (PGlite lacks it).
  uuidExtension: 'pgcrypto',
  installExtensions: false,
} as const;

/** Options for a PostgreSQL server, or for the embedded database behind a pool of one session. */
export async function dataSourceOptions(target: DatabaseTarget): Promise<DataSourceOptions> {
  if (target.databaseUrl) {
    return {
      ...common,
      url: target.databaseUrl,
      poolSize: target.poolSize ?? 20,
      extra: { connectionTimeoutMillis: 5000 },
    } satisfies PostgresDataSourceOptions;
  }
  const db = await openEmbeddedDatabase(target.dataDir);
  class EmbeddedPool extends SerialPglitePool {
    constructor() {
      super(db);
    }
  }
  return {
    ...common,
    driver: { Pool: EmbeddedPool },
    database: 'postgres',
    poolSize: 1,
  } satisfies PostgresDataSourceOptions;
}

/** Connects and brings the schema up to date; returns the names of the migrations it applied. */
export async function openDataSource(target: DatabaseTarget): Promise<{ dataSource: DataSource; applied: string[] }> {
  const dataSource = new DataSource(await dataSourceOptions(target));
  await dataSource.initialize();
  const applied = await dataSource.runMigrations({ transaction: 'each' });
  return { dataSource, applied: applied.map((m) => m.name) };
}

/** SQL the entities would still need on top of the migrations: empty when they agree. */
export async function schemaDrift(dataSource: DataSource): Promise<{ up: string[]; down: string[] }> {
  const log = await dataSource.driver.createSchemaBuilder().log();
  return { up: log.upQueries.map((q) => q.query), down: log.downQueries.map((q) => q.query) };
}
