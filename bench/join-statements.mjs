#!/usr/bin/env node
// Statements and CPU per desk join, one client, sequential (issue 18 "less SQL per decision").
//
// 1. Counts: a fresh database with `log_statement = all` (set on that database only, so the shared
//    server is untouched), COUNT joins, and the statements the api sent for them read back from the
//    server log (lines of this database between two offsets of the log file).
// 2. CPU: a second fresh database without logging, JOINS sequential desk joins (fresh email and
//    Idempotency-Key each), CPU ticks of the api process and of this database's PostgreSQL backends
//    (and of every postgres process, which other sessions' work makes noisy) from /proc around the load.
//
// Needs dist/ built, PostgreSQL at 127.0.0.1:5432 (user postgres) and Redis at 127.0.0.1:6379, read
// access to /var/log/postgresql. Env: PORT (3620), PREFIX (joinsql), JOINS (1000), COUNT (50), PG_LOG (the server's log file),
// API_DIST (dist).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { ticks as procTicks } from './lib/cpu.mjs';
import { backends, loggedStatements, psql, singleApi } from './lib/single-api.mjs';

const PORT = Number(process.env.PORT ?? 3620);
const PREFIX = process.env.PREFIX ?? 'joinsql';
const JOINS = Number(process.env.JOINS ?? 1000);
const COUNT = Number(process.env.COUNT ?? 50);
const HZ = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());
const { call, start } = singleApi({ port: PORT, prefix: PREFIX });
const ticks = (pid) => procTicks(pid) ?? 0;
const postgresPids = () =>
  readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        return readFileSync(`/proc/${p}/comm`, 'utf8').trim() === 'postgres';
      } catch {
        return false;
      }
    });

/** The api on a fresh database, with an all-day venue of three tables. */
async function ready(db, options) {
  const api = await start(db, options);
  const venue = await venueRunningAllDay(api.token, 'bench', 'Bench');
  for (const [label, capacity] of [
    ['T1', 2],
    ['T2', 4],
    ['T3', 6],
  ])
    await call('POST', `/v1/venues/${venue.id}/tables`, { label, capacity }, api.token);
  return { api, token: api.token, venueId: venue.id };
}

let serial = 0;
async function joins(n, { token, venueId }) {
  for (let i = 0; i < n; i++) {
    const id = `${process.pid}-${Date.now()}-${serial++}`;
    await call('POST', `/v1/venues/${venueId}/queue`, { name: 'Bench', partySize: 2, email: `j${id}@b.test` }, token, {
      'idempotency-key': `k${id}`,
    });
  }
}

/** The statements this database logged while `fn` ran, by kind (parameters and numbers masked). */
async function logged(db, fn) {
  const lines = await loggedStatements(db, fn);
  const kinds = new Map();
  for (const l of lines) {
    const text = l.replace(/\$\d+|'[^']*'|\d+/g, '?').slice(0, 90);
    kinds.set(text, (kinds.get(text) ?? 0) + 1);
  }
  const beginCommit = lines.filter((l) => /^(BEGIN|COMMIT|START TRANSACTION)/.test(l)).length;
  return { lines: lines.length, beginCommit, kinds: [...kinds].sort((a, b) => b[1] - a[1]) };
}

function report(what, n, r) {
  console.log(`statements per ${what}: ${r.lines / n} (without BEGIN/COMMIT: ${(r.lines - r.beginCommit) / n})`);
  for (const [text, k] of r.kinds) console.log(`  ${(k / n).toFixed(2)}  ${text}`);
}

/** Statements per join, per table offer and per acceptance, read from the server log. */
async function countStatements() {
  const db = `${PREFIX}_count`;
  const ctx = await ready(db, { logStatements: true });
  try {
    await joins(5, ctx); // warm: the first joins open connections and prepare
    report('desk join', COUNT, await logged(db, () => joins(COUNT, ctx)));
    // Offer → accept on a venue with a table per cycle (an accepted table stays planned for the turn).
    const { token } = ctx;
    const venue = await venueRunningAllDay(token, 'cycle', 'Cycle');
    const tables = [];
    for (let i = 0; i < COUNT + 2; i++)
      tables.push((await call('POST', `/v1/venues/${venue.id}/tables`, { label: `T${i}`, capacity: 4 }, token)).id);
    const entries = [];
    for (let i = 0; i < COUNT + 2; i++) {
      const id = `${process.pid}-${Date.now()}-${serial++}`;
      entries.push(
        (await call('POST', `/v1/venues/${venue.id}/queue`, { name: 'Cycle', partySize: 2, email: `c${id}@b.test` }, token))
          .entry,
      );
    }
    const offer = (i) =>
      call(
        'POST',
        `/v1/venues/${venue.id}/offers`,
        { entryId: entries[i].id, entryVersion: entries[i].version, tableIds: [tables[i]] },
        token,
      );
    const offers = [(await offer(0)).offer.id, (await offer(1)).offer.id]; // warm
    const accept = (id) => call('POST', `/v1/venues/${venue.id}/offers/${id}/accept`, {}, token);
    for (const id of offers) await accept(id);
    offers.length = 0;
    report(
      'table offer',
      COUNT,
      await logged(db, async () => {
        for (let i = 2; i < COUNT + 2; i++) offers.push((await offer(i)).offer.id);
      }),
    );
    report(
      'acceptance',
      COUNT,
      await logged(db, async () => {
        for (const id of offers) await accept(id);
      }),
    );
  } finally {
    await ctx.api.stop();
  }
}

/** CPU per join of the api process and of PostgreSQL. */
async function measureCpu() {
  const db = `${PREFIX}_bench`;
  const ctx = await ready(db);
  const { api } = ctx;
  try {
    await joins(50, ctx); // warm
    const pids = backends(db);
    const all = postgresPids();
    const a0 = ticks(api.pid);
    const b0 = pids.map((p) => ticks(p));
    const p0 = all.map((p) => ticks(p));
    const statements = statementStats(db);
    statements.reset();
    const t0 = performance.now();
    await joins(JOINS, ctx);
    const ms = performance.now() - t0;
    const a1 = ticks(api.pid);
    const after = backends(db);
    const b1 = after.map((p) => ticks(p) - (pids.includes(p) ? b0[pids.indexOf(p)] : 0));
    const p1 = all.map((p) => ticks(p));
    const perJoin = (t) => ((t / HZ) * 1000) / JOINS;
    return {
      joins: JOINS,
      joinsPerSecond: Math.round((JOINS / ms) * 1000),
      apiMs: perJoin(a1 - a0),
      backendsMs: perJoin(b1.reduce((s, x) => s + x, 0)),
      allPostgresMs: perJoin(p1.reduce((s, x, i) => s + x - p0[i], 0)),
      loadavg: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
      statements: statements.read(),
    };
  } finally {
    await ctx.api.stop();
  }
}

if (COUNT > 0) await countStatements();
if (JOINS > 0) {
  const cpu = await measureCpu();
  console.log(
    `${cpu.joins} sequential joins, ${cpu.joinsPerSecond}/s; CPU per join: api ${cpu.apiMs.toFixed(2)} ms, ` +
      `this database's backends ${cpu.backendsMs.toFixed(2)} ms, every postgres process ${cpu.allPostgresMs.toFixed(2)} ms; ` +
      `load average ${cpu.loadavg}`,
  );
  if (cpu.statements) {
    console.log('pg_stat_statements per join (calls · planning ms · running ms):');
    for (const [calls, plan, exec, text] of cpu.statements)
      console.log(
        `  ${(calls / cpu.joins).toFixed(2)} · ${(plan / cpu.joins).toFixed(3)} · ${(exec / cpu.joins).toFixed(3)}  ${text}`,
      );
  }
}

/**
 * This database's statements from pg_stat_statements, where the server loads it (a private server
 * started with shared_preload_libraries = pg_stat_statements, given as BENCH_PG): reset, then read
 * back as [calls, total planning ms, total running ms, text]. Elsewhere both do nothing.
 */
function statementStats(db) {
  const has = () => {
    try {
      return psql('postgres', "SELECT count(*) FROM pg_extension WHERE extname = 'pg_stat_statements'") === '1';
    } catch {
      return false;
    }
  };
  const there = has();
  return {
    reset: () => there && psql('postgres', 'SELECT pg_stat_statements_reset()'),
    read: () =>
      there
        ? psql(
            'postgres',
            `SELECT calls || '|' || round(total_plan_time::numeric, 1) || '|' || round(total_exec_time::numeric, 1) || '|' ||
                    regexp_replace(left(query, 100), '\\s+', ' ', 'g')
               FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = '${db}')
              ORDER BY total_plan_time + total_exec_time DESC LIMIT 15`,
          )
            .split('\n')
            .filter(Boolean)
            .map((l) => {
              const [calls, plan, exec, ...text] = l.split('|');
              return [Number(calls), Number(plan), Number(exec), text.join('|')];
            })
        : null,
  };
}

/** A restaurant venue (UTC) with a service window running all day, every day. */
async function venueRunningAllDay(token, slug, name) {
  const venue = await call(
    'POST',
    '/v1/venues',
    { slug: `${slug}-${Date.now()}`, name, timeZone: 'UTC', preset: 'restaurant' },
    token,
  );
  await call(
    'POST',
    `/v1/venues/${venue.id}/service-windows`,
    { days: [1, 2, 3, 4, 5, 6, 7], start: '00:00', end: '23:59', turnMinutes: 60 },
    token,
  );
  return venue;
}
