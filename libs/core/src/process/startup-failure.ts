import { existsSync, statfsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** PostgreSQL's own refusals at connect: no such database, no such role, wrong password. Retrying changes none. */
export const DATABASE_REFUSALS = ['3D000', '28000', '28P01'];

/**
 * One line for a start-up that failed because the database in DATABASE_URL cannot be used: the
 * server is not there (refused, no such host, timed out), the database does not exist, or the role
 * or password is refused. These are configuration mistakes an operator fixes in one place, so the
 * line names the variable and where it points (never its password), instead of a stack trace after
 * the retries. Anything else answers null: the caller prints the full error.
 */
export function databaseStartupFailure(err: unknown, databaseUrl: string | undefined): string | null {
  if (!databaseUrl) return null;
  const e = err as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  const unreachable = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ECONNRESET'].includes(code);
  const refused = DATABASE_REFUSALS.includes(code);
  if (!unreachable && !refused) return null;
  let where = 'the URL given';
  try {
    const u = new URL(databaseUrl);
    where = `${u.hostname}:${u.port || '5432'}${u.pathname}`;
  } catch {
    // Validated at start already; keep the generic words.
  }
  const why = typeof e?.message === 'string' ? e.message : code;
  return unreachable
    ? `Cannot reach PostgreSQL at DATABASE_URL (${where}): ${why}. Check the URL and that the server is running.`
    : `PostgreSQL refused DATABASE_URL (${where}): ${why}. Check the database name, user and password in the URL.`;
}

/** Below this much free space on its disk, a failed start of the embedded database is put down to it. */
const EMBEDDED_MIN_FREE_BYTES = 64 * 1024 * 1024;

/**
 * One line for a start on the embedded database that failed while the data folder's disk is (nearly)
 * full, or null. PGlite, unable to write there, aborts inside its WebAssembly with
 * "RuntimeError: Aborted()" and a stack of wasm frames, which says nothing an operator can act on.
 */
export function embeddedStartupFailure(dataDir: string | undefined, databaseUrl: string | undefined): string | null {
  if (databaseUrl || !dataDir || dataDir.startsWith('memory://')) return null;
  let dir = resolve(dataDir);
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
  let free: number;
  try {
    const fs = statfsSync(dir);
    free = fs.bavail * fs.bsize;
  } catch {
    return null;
  }
  if (free >= EMBEDDED_MIN_FREE_BYTES) return null;
  const mb = (free / (1024 * 1024)).toFixed(1);
  return `The embedded database in ${dataDir} could not start: its disk has ${mb} MB free. Free some space there (or set HOSTBOARD_DATA_DIR to a folder on a disk with room) and start again.`;
}
