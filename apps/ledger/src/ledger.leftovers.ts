import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { processAlive } from '@hostboard/core';

/**
 * What a ledger run leaves behind when it is killed before it cleans up (SIGKILL, a power cut): its
 * temporary database on DATABASE_URL's server and its temporary folder. Each is marked with its run
 * (process id and machine) as soon as it exists: the database by its comment, the folder by
 * a file in it. The next run removes those of runs that are dead, and nothing else: not a database
 * or folder of another program (no mark), not one of a run still alive or on another machine (its
 * process cannot be checked from here), and not a database anyone is connected to (`DROP DATABASE`
 * without FORCE refuses one that is in use, so a session that connects meanwhile wins).
 */
export interface RunMark {
  pid: number;
  host: string;
}

/** The prefix of a database comment that marks a ledger run's database. */
export const RUN_MARK_PREFIX = 'hostboard ledger run ';
/** The mark in a run's temporary folder. */
export const RUN_MARK_FILE = 'ledger-run.json';
/** Only names a ledger run gives are looked at. */
export const RUN_DATABASE = /^hostboard_ledger_[0-9a-f]{8}$/;
export const RUN_FOLDER = /^hostboard-ledger-/;

export const runMark = (): RunMark => ({ pid: process.pid, host: hostname() });

function parseMark(text: string | null | undefined): RunMark | null {
  if (!text) return null;
  try {
    const m = JSON.parse(text) as Partial<RunMark>;
    return typeof m.pid === 'number' && Number.isSafeInteger(m.pid) && m.pid > 0 && typeof m.host === 'string'
      ? { pid: m.pid, host: m.host }
      : null;
  } catch {
    return null;
  }
}

/** A run of this machine whose process is gone (our own process id is never a dead run's). */
export const deadRun = (m: RunMark | null): m is RunMark =>
  m !== null && m.host === hostname() && m.pid !== process.pid && !processAlive(m.pid);

export function markFolder(dir: string, mark: RunMark): void {
  writeFileSync(join(dir, RUN_MARK_FILE), JSON.stringify(mark));
}

/** The SQL that marks a run's database (the name is one of ours: RUN_DATABASE). */
export function markDatabaseSql(name: string, mark: RunMark): string {
  if (!RUN_DATABASE.test(name)) throw new Error(`not a ledger database name: ${name}`);
  return `COMMENT ON DATABASE ${name} IS '${(RUN_MARK_PREFIX + JSON.stringify(mark)).replace(/'/g, "''")}'`;
}

export interface Leftovers {
  removed: string[];
  /** Dead runs' databases someone is connected to: left alone. */
  inUse: string[];
}

/** Removes the databases of dead ledger runs on the server. */
export async function removeDeadRunDatabases(server: string): Promise<Leftovers> {
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  const out: Leftovers = { removed: [], inUse: [] };
  try {
    const rows = (
      await admin.query<{ datname: string; mark: string | null; sessions: string }>(
        `SELECT d.datname, shobj_description(d.oid, 'pg_database') AS mark,
                (SELECT count(*) FROM pg_stat_activity a WHERE a.datname = d.datname) AS sessions
           FROM pg_database d
          WHERE d.datname LIKE 'hostboard\\_ledger\\_%'`,
      )
    ).rows;
    for (const r of rows) {
      if (!RUN_DATABASE.test(r.datname) || !r.mark?.startsWith(RUN_MARK_PREFIX)) continue;
      if (!deadRun(parseMark(r.mark.slice(RUN_MARK_PREFIX.length)))) continue;
      if (Number(r.sessions) > 0) {
        out.inUse.push(r.datname);
        continue;
      }
      try {
        // No FORCE: a database someone connected to since the read above is refused, and kept.
        await admin.query(`DROP DATABASE ${r.datname}`);
        out.removed.push(r.datname);
      } catch {
        out.inUse.push(r.datname);
      }
    }
  } finally {
    await admin.end();
  }
  return out;
}

/** Removes the temporary folders of dead ledger runs (their embedded databases). */
export function removeDeadRunFolders(parent = tmpdir()): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(parent).filter((n) => RUN_FOLDER.test(n));
  } catch {
    return removed;
  }
  for (const name of names) {
    const dir = join(parent, name);
    // No mark: not ours to judge (another program's, or a run still creating it).
    if (!deadRun(readMark(join(dir, RUN_MARK_FILE)))) continue;
    rmSync(dir, { recursive: true, force: true });
    removed.push(dir);
  }
  return removed;
}

function readMark(file: string): RunMark | null {
  try {
    return parseMark(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}
