import { randomUUID } from 'node:crypto';
import { linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, processAlive } from '@hostboard/core';

/** The lock's file, in the data folder (PostgreSQL keeps its own postmaster.pid there the same way). */
export const DATA_FOLDER_LOCK = 'hostboard.lock';

/** A second process (or a second database in this one) asked for a data folder that is open. */
export class DataFolderInUseError extends ConfigError {
  override name = 'DataFolderInUseError';

  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `The data folder ${dataDir} is in use by process ${pid} (another hostboard app or the CLI); stop it first, or give this one its own HOSTBOARD_DATA_DIR.`,
    );
  }
}

/** The locks this process holds, by file, with their release: shared by every copy of this module (Jest loads one per test file). */
interface HeldLocks {
  files: Map<string, () => void>;
}

const HELD = Symbol.for('hostboard.data-folder-locks');

function held(): HeldLocks {
  const holder = globalThis as unknown as Record<symbol, HeldLocks | undefined>;
  let locks = holder[HELD];
  if (!locks) {
    const created: HeldLocks = { files: new Map() };
    locks = created;
    holder[HELD] = created;
    // One listener per process: a process that exits (normally, by process.exit, or by an uncaught
    // error) leaves no lock behind. One killed by a signal it does not handle, or by kill -9, does:
    // its pid is then no longer alive, and the next opener takes the lock over.
    process.on('exit', () => {
      for (const release of [...created.files.values()]) release();
    });
  }
  return locks;
}

function removeIfOurs(file: string, text: string): void {
  try {
    if (readFileSync(file, 'utf8') === text) unlinkSync(file);
  } catch {
    // Already gone, or the folder with it: nothing to release.
  }
}

function readLock(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

const pause = (ms: number): void => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms) as unknown as void;

/**
 * Takes the lock on a data folder for this process, or throws DataFolderInUseError naming the process
 * that has it. Returns the release, which is also done at process exit.
 *
 * Why: PGlite keeps the database in the folder's files and its shared state in the process, so two
 * processes on one folder each run a database of their own over the same files and one's writes
 * are lost when the other's are saved over them.
 *
 * How: the lock is the file `hostboard.lock` holding the holder's pid and a token of its own. It is
 * written beside and hard-linked into place, which fails when the file exists: of two processes that
 * start at once exactly one wins, and nobody ever reads a half-written lock. A lock whose pid is no
 * longer alive (a process killed with kill -9, a machine that lost power) is taken over at once.
 * Replacing it is where two starters could both win (each removing the dead lock, one then removing
 * the other's new one), so the right to replace one particular dead lock is itself claimed with an
 * exclusive create (`hostboard.lock.taken-<its token>`), and the winner renames its lock over it.
 *
 * Not a library: proper-lockfile (and lockfile) judge a lock stale by its age, so after a crash a
 * restart would be refused until the lock aged out, and the holder must keep touching the file; the
 * pid-file packages on npm are unmaintained. A pid names a process on this machine only: the lock is
 * for processes that share one pid namespace (one host or one container), like the data folder.
 */
export function lockDataFolder(dataDir: string): () => void {
  const file = join(dataDir, DATA_FOLDER_LOCK);
  const locks = held();
  const text = `${process.pid}\n${randomUUID()}\n`;
  const mine = `${file}.${process.pid}.${randomUUID()}`;
  let claim: string | undefined;
  writeFileSync(mine, text, { flag: 'wx' });
  try {
    // A takeover another starter claimed and has not finished: wait for it, a few milliseconds at most.
    for (let attempt = 0; attempt < 100; attempt++) {
      try {
        linkSync(mine, file);
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const current = readLock(file);
      if (current === undefined) continue; // released meanwhile: try again
      const pid = Number.parseInt(current, 10);
      // Our own pid in a lock this process does not hold: left by an earlier process that had the
      // same pid (a container's process 1 restarted), so as dead as any other.
      const ours = pid === process.pid && !locks.files.has(file);
      if (Number.isSafeInteger(pid) && pid > 0 && processAlive(pid) && !ours) throw new DataFolderInUseError(dataDir, pid);
      const token = current.split('\n')[1] || String(pid);
      try {
        claim = `${file}.taken-${token.replace(/[^\w-]/g, '_')}`;
        writeFileSync(claim, text, { flag: 'wx' });
      } catch (err) {
        claim = undefined;
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        pause(20);
        continue;
      }
      // Only the claimant of this dead lock replaces it, and nobody else can create the file while it is there.
      renameSync(mine, file);
      break;
    }
  } finally {
    try {
      unlinkSync(mine);
    } catch {
      // Renamed into place.
    }
  }
  if (readLock(file) !== text) {
    throw new Error(
      `could not take the lock ${file}: a takeover of a dead process's lock did not finish; delete the file if no hostboard process uses the folder`,
    );
  }
  const release = (): void => {
    if (locks.files.get(file) !== release) return;
    locks.files.delete(file);
    removeIfOurs(file, text);
    // The claim on the dead lock this one replaced: kept while this lock is, so that a starter still
    // holding the dead lock's text cannot claim it afresh and replace this one.
    if (claim) removeIfOurs(claim, text);
  };
  locks.files.set(file, release);
  return release;
}
