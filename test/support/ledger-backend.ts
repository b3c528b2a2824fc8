import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { LedgerBackend, SecondApi } from '../../apps/ledger/src/boundaries.js';
import { LedgerClient } from '../../apps/ledger/src/ledger.client.js';
import { startApp, type TestApp } from './test-app.js';
import { freshDatabase, type TestDatabase } from './test-database.js';
import { seedDataDir } from './memory-image.js';
import { signIn, signUp, type Staff } from './staff.js';

/**
 * The ledger's backend over a test app: this file's own database (PostgreSQL, or PGlite in a
 * temporary folder, seeded with the migrated image, so that a restart finds the saved data), restartable.
 */
export class TestLedgerBackend implements LedgerBackend {
  app!: TestApp;
  private db!: TestDatabase;
  private readonly dataDir = mkdtempSync(join(tmpdir(), 'hb-ledger-test-'));
  private owner!: Staff;

  get baseUrl(): string {
    return this.app.baseUrl;
  }

  get dataSource(): DataSource {
    return this.app.app.get<DataSource>(getDataSourceToken());
  }

  async start(): Promise<void> {
    this.db = await freshDatabase();
    // The embedded default: the folder starts as a migrated database (the api's migrations then find
    // nothing to apply), not as an empty one that initdb and the migrations must fill.
    if (this.db.url === undefined) await seedDataDir(this.dataDir);
    this.app = await startApp({ db: this.db, env: { HOSTBOARD_DATA_DIR: this.dataDir } });
    this.owner = await signUp(this.app, 'organizer');
  }

  async client(): Promise<LedgerClient> {
    const s = await signIn(this.app, this.owner.email, this.owner.password);
    return new LedgerClient(this.app.baseUrl, s.token);
  }

  async stranger(): Promise<LedgerClient> {
    return new LedgerClient(this.app.baseUrl, (await signUp(this.app, 'stranger')).token);
  }

  /** With DATABASE_URL, a second api instance (its own connection pool) on this file's database. */
  async secondApi(): Promise<SecondApi | null> {
    if (!this.db.url) return null;
    const other = await startApp({ db: this.db, env: { HOSTBOARD_DATA_DIR: this.dataDir } });
    const s = await signIn(other, this.owner.email, this.owner.password);
    return {
      client: new LedgerClient(other.baseUrl, s.token),
      label: 'a second api instance with its own connection pool',
      close: () => other.app.close(),
    };
  }

  async restart(): Promise<void> {
    await this.app.app.close();
    this.app = await startApp({ db: this.db, env: { HOSTBOARD_DATA_DIR: this.dataDir } });
  }

  async stop(): Promise<void> {
    await this.app.app.close();
    await this.db.drop();
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}
