import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';

export const IN_MEMORY = 'memory://';

/** Opens the embedded PostgreSQL, with the extensions the schema uses, in a folder or in memory. */
export async function openEmbeddedDatabase(dataDir: string): Promise<PGlite> {
  const extensions = { btree_gist };
  if (dataDir === IN_MEMORY) return PGlite.create({ extensions });
  const dir = resolve(dataDir);
  mkdirSync(dir, { recursive: true });
  return PGlite.create({ dataDir: dir, extensions });
}
