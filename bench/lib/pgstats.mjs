// Statement counts per request. pg_stat_statements is the exact source, but it only works when the
// server preloads it (shared_preload_libraries), which needs a restart the bench must not do; so the
// bench tries it and otherwise counts with the cumulative statistics every server keeps:
// transactions (pg_stat_database) and, per user table, scans (seq_scan + idx_scan: about one per
// statement reading a table, plus one per foreign-key check) and rows written (n_tup_ins/upd/del).
// The same counters on the pgbench reference (8 statements per transaction) calibrate them.
import { setTimeout as sleep } from 'node:timers/promises';
import { psql } from './stack.mjs';

/** 'pg_stat_statements' when it answers in this database, else 'table-counters'. */
export function statementSource(dbUrl) {
  try {
    psql('CREATE EXTENSION IF NOT EXISTS pg_stat_statements', dbUrl);
    psql('SELECT 1 FROM pg_stat_statements LIMIT 1', dbUrl);
    return 'pg_stat_statements';
  } catch {
    try {
      psql('DROP EXTENSION IF EXISTS pg_stat_statements', dbUrl);
    } catch {
      // not ours to drop, or never created: nothing to undo
    }
    return 'table-counters';
  }
}

export function counters(dbUrl, source) {
  const statements =
    source === 'pg_stat_statements'
      ? `(SELECT coalesce(sum(calls), 0) FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = current_database())`
      : 'NULL';
  const row = psql(
    `SELECT d.xact_commit + d.xact_rollback, t.scans, t.written, ${statements}
       FROM pg_stat_database d,
            (SELECT coalesce(sum(coalesce(seq_scan, 0) + coalesce(idx_scan, 0)), 0) AS scans,
                    coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0) AS written FROM pg_stat_user_tables) t
      WHERE d.datname = current_database()`,
    dbUrl,
  )
    .trim()
    .split('|');
  const [xacts, scans, written, stmts] = row.map((x) => (x === '' ? null : Number(x)));
  return { xacts, scans, written, statements: stmts };
}

/**
 * Backends publish their counters when idle, at most once a second: wait that out before reading,
 * so a phase's own work is in its "after" and not in the next phase's "before".
 */
export async function settledCounters(dbUrl, source) {
  await sleep(1500);
  return counters(dbUrl, source);
}

/** Per request, rounded; the reading query's own transaction is taken off. */
export function perRequest(before, after, requests) {
  if (!requests) return null;
  const d = (k) => (after[k] === null || before[k] === null ? null : Math.round(((after[k] - before[k] - (k === 'xacts' ? 1 : 0)) / requests) * 10) / 10);
  return { xacts: d('xacts'), scans: d('scans'), rowsWritten: d('written'), statements: d('statements') };
}
