import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import type { DataSource } from 'typeorm';
import { IN_MEMORY, migratedMemoryImage, openDataSource } from '@hostboard/persistence';
import type { TestDatabase } from './test-database.js';

const root = new URL('../../', import.meta.url);

/** What the image depends on: the migrations' sources, the PGlite build that wrote it, and the code that makes it. */
function schemaHash(): string {
  const hash = createHash('sha256');
  const migrations = new URL('libs/persistence/src/migrations/', root);
  for (const name of readdirSync(migrations).sort()) {
    hash.update(name).update(readFileSync(new URL(name, migrations)));
  }
  hash.update(readFileSync(new URL('node_modules/@electric-sql/pglite/package.json', root)));
  // How the image is made (migratedMemoryImage).
  hash.update(readFileSync(new URL('libs/persistence/src/data-source.factory.ts', root)));
  return hash.digest('hex').slice(0, 16);
}

let made: Promise<string> | undefined;

/**
 * The file every in-memory test app starts from (HOSTBOARD_MEMORY_IMAGE): a migrated database, made
 * once per schema and kept in the temp folder like Jest's own cache, so an app boots in about a
 * third of the CPU time that initdb and the migrations take. Two workers that both find it missing
 * each make one and the later rename wins; either copy is the same schema.
 */
export function memoryImage(): Promise<string> {
  made ??= (async () => {
    const path = join(tmpdir(), `hostboard-memory-image-${schemaHash()}.tar`);
    if (existsSync(path)) return path;
    const image = await migratedMemoryImage();
    const partial = `${path}.${process.pid}`;
    await writeFile(partial, Buffer.from(await image.arrayBuffer()));
    await rename(partial, path);
    return path;
  })();
  return made;
}

/**
 * A migrated data source on `db` (freshDatabase): on PostgreSQL when DATABASE_URL is set (pg's
 * conversions), else on the embedded database started from the migrated image, as test apps start
 * (initdb and the migrations cost ~9 s of CPU).
 */
export async function migratedDataSource(db: TestDatabase): Promise<DataSource> {
  const { dataSource } = await openDataSource({
    databaseUrl: db.url,
    dataDir: IN_MEMORY,
    memoryImage: db.url === undefined ? await memoryImage() : undefined,
  });
  return dataSource;
}

/**
 * Fills an empty data folder with the migrated image, as the folder of an app that has started
 * once and stopped: an app started on it then opens saved data instead of running initdb and every
 * migration (about 9.5 s of CPU on a folder, against about 3 s for this and that app's open).
 * For test apps that must find their data after a restart; the boot and demo-seed tests start on
 * a truly empty folder of their own.
 */
export async function seedDataDir(dataDir: string): Promise<void> {
  const db = await PGlite.create({
    dataDir,
    extensions: { btree_gist },
    loadDataDir: new Blob([await readFile(await memoryImage())]),
  });
  await db.close();
}
