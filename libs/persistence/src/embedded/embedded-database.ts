import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';

export const IN_MEMORY = 'memory://';

let image: { path: string; blob: Promise<Blob> } | undefined;

/**
 * The image as a Blob, read once per process: tests open an in-memory database from it many times,
 * and reading the file and copying it into a Blob cost about 140 ms each time. (`fs.openAsBlob`
 * reads it only once too, but leaves a file handle open until the Blob is collected.)
 */
function imageBlob(path: string): Promise<Blob> {
  if (image?.path !== path) image = { path, blob: readFile(path).then((bytes) => new Blob([bytes])) };
  return image.blob;
}

/**
 * Opens the embedded PostgreSQL, with the extensions the schema uses, in a folder or in memory.
 * An in-memory database may start from `memoryImage` (a dump of a migrated one, see
 * `migratedMemoryImage`): loading it skips initdb, the larger part of a fresh database's start.
 */
export async function openEmbeddedDatabase(dataDir: string, memoryImage?: string): Promise<PGlite> {
  const extensions = { btree_gist };
  if (dataDir === IN_MEMORY) {
    if (memoryImage === undefined) return PGlite.create({ extensions });
    return PGlite.create({ extensions, loadDataDir: await imageBlob(memoryImage) });
  }
  const dir = resolve(dataDir);
  mkdirSync(dir, { recursive: true });
  return PGlite.create({ dataDir: dir, extensions });
}
