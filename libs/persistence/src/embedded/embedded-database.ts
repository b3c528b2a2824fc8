import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { lockDataFolder } from './data-folder-lock.js';

export const IN_MEMORY = 'memory://';

/** `WebAssembly` as Node has it (the project's type libraries leave the DOM's declarations out). */
const wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<object> } }).WebAssembly;

type Runtime = Pick<PGliteOptions, 'pgliteWasmModule' | 'fsBundle'>;

interface RuntimeCache {
  files?: Promise<{ code: Uint8Array; bundle: Blob }>;
  image?: { path: string; blob: Promise<Blob> };
}

/**
 * Where PGlite's files and the image are kept: on the global object under a registered symbol rather
 * than in this module, so that a host which evaluates this module many times in one process (Jest
 * evaluates it once per test file, and Node 20 never frees those module graphs) can hand every copy
 * the same cache. In the app, the module is evaluated once and this is simply once per process.
 */
export const EMBEDDED_RUNTIME_CACHE = Symbol.for('hostboard.embedded-runtime');

function cache(): RuntimeCache {
  const holder = globalThis as unknown as Record<symbol, RuntimeCache | undefined>;
  return (holder[EMBEDDED_RUNTIME_CACHE] ??= {});
}

/**
 * The image as a Blob, read once per process: tests open an in-memory database from it many times,
 * and reading the file and copying it into a Blob cost about 140 ms each time. (`fs.openAsBlob`
 * reads it only once too, but leaves a file handle open until the Blob is collected.)
 */
function imageBlob(path: string): Promise<Blob> {
  const kept = cache();
  if (kept.image?.path !== path) kept.image = { path, blob: readFile(path).then((bytes) => new Blob([bytes])) };
  return kept.image.blob;
}

let runtime: Promise<Runtime> | undefined;

/**
 * PGlite's compiled WebAssembly and its file bundle, made once: PGlite otherwise reads and compiles
 * its 9 MB module and reads its 6 MB bundle for every database it opens. The files are read once per
 * process; the compiled module is kept by this module, because PGlite checks it with `instanceof`
 * against the `WebAssembly.Module` of the realm that runs it.
 */
function pgliteRuntime(): Promise<Runtime> {
  const kept = cache();
  kept.files ??= (async () => {
    const dist = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    const [code, bundle] = await Promise.all([readFile(join(dist, 'pglite.wasm')), readFile(join(dist, 'pglite.data'))]);
    return { code, bundle: new Blob([bundle]) };
  })();
  const files = kept.files;
  runtime ??= (async () => {
    const { code, bundle } = await files;
    // PGlite types the module as WebAssembly.Module, a name the project's type libraries lack.
    // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment
    return { pgliteWasmModule: (await wasm.compile(code)) as Runtime['pgliteWasmModule'], fsBundle: bundle };
  })();
  return runtime;
}

/**
 * An in-memory database keeps its files in memory already, so a page PostgreSQL does not hold in its
 * buffers costs a copy, not a read: 16 MB of buffers, not initdb's 128 MB. PostgreSQL's shared
 * memory is zero-filled by WebAssembly code when the database starts, and 128 MB of it was most of an
 * open (0.8–1.1 s of CPU and 0.7–0.9 s of wall time here, against 0.46 s and 0.35 s with 16 MB).
 * A database in a folder keeps the default.
 */
const IN_MEMORY_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

/**
 * Opens the embedded PostgreSQL, with the extensions the schema uses, in a folder or in memory.
 * An in-memory database may start from `memoryImage` (a dump of a migrated one, see
 * `migratedMemoryImage`): loading it skips initdb, the larger part of a fresh database's start.
 * A folder is locked for this process until the database closes (or the process exits): a second
 * opener, in this process or another, gets DataFolderInUseError (`data-folder-lock.ts`).
 */
export async function openEmbeddedDatabase(dataDir: string, memoryImage?: string): Promise<PGlite> {
  const options = { extensions: { btree_gist }, ...(await pgliteRuntime()) };
  if (dataDir === IN_MEMORY) {
    const inMemory = { ...options, startParams: IN_MEMORY_START_PARAMS };
    if (memoryImage === undefined) return PGlite.create(inMemory);
    return PGlite.create({ ...inMemory, loadDataDir: await imageBlob(memoryImage) });
  }
  const dir = resolve(dataDir);
  mkdirSync(dir, { recursive: true });
  const release = lockDataFolder(dir);
  let db: PGlite;
  try {
    db = await PGlite.create({ ...options, dataDir: dir });
  } catch (err) {
    release();
    throw err;
  }
  const close = db.close.bind(db);
  db.close = async () => {
    try {
      await close();
    } finally {
      release();
    }
  };
  return db;
}
