// Expiry after a join load (issue 18, item 5), on its own: a fresh database, two api processes and
// a worker, an 8 s desk-join load with its pgbench reference, then 500 offers due over a few seconds.
// Reports expiresAt → board event, the sweep's own resolved_at − expires_at, the BullMQ job's
// processedOn − (timestamp + delay), and the tables' dead tuples after the load.
//   node bench/expiry-after-load.mjs [--no-load] [--offers 500] [--seconds 8]
// BENCH_DB_NAME, BENCH_API_PORT and BENCH_REDIS_PORT keep it apart from another bench on the machine.
import { readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import { api, login, stats } from './lib/client.mjs';
import { createVenues, expiryPunctuality, joins } from './lib/scenarios.mjs';
import { DATABASE_URL, freshDatabase, OWNER, psql, REDIS_URL, startStack } from './lib/stack.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? dflt : Number(process.argv[i + 1]);
};
const LOAD = !process.argv.includes('--no-load');
const OFFERS = arg('--offers', 500);
const SECONDS = arg('--seconds', 8);
const PREFIX = `expbench${process.pid}`;
/** CPU time (user + system) of a process so far, in ms, from /proc (clock ticks of 10 ms). */
const cpuMs = (pid) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
};
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

function tableStats() {
  const rows = psql(
    `SELECT relname, n_live_tup, n_dead_tup, n_tup_upd, n_tup_hot_upd, pg_relation_size(relid) / 8192, pg_indexes_size(relid) / 8192,
            coalesce(last_autovacuum::text, '-'), coalesce(last_autoanalyze::text, '-')
       FROM pg_stat_user_tables
      WHERE relname IN ('venues', 'offers', 'reservations', 'queue_entries', 'board_events', 'history', 'outbox_messages', 'idempotency_keys')
      ORDER BY relname`,
    DATABASE_URL,
  );
  return rows
    .trim()
    .split('\n')
    .map((l) => {
      const [table, live, dead, upd, hot, pages, indexPages, autovacuum, autoanalyze] = l.split('|');
      return { table, live: +live, dead: +dead, upd: +upd, hot: +hot, pages: +pages, indexPages: +indexPages, autovacuum, autoanalyze };
    });
}

/** From the jobs' own hashes: when the worker took each job up, and how long it ran, against expires_at. */
async function jobTimings(offers) {
  const redis = new Redis(REDIS_URL);
  const taken = [];
  const ran = [];
  try {
    for (const { id, dueMs } of offers) {
      const [processedOn, finishedOn] = await redis.hmget(`${PREFIX}:hostboard:${id}`, 'processedOn', 'finishedOn');
      if (!processedOn) continue;
      taken.push(Number(processedOn) - dueMs);
      if (finishedOn) ran.push(Number(finishedOn) - Number(processedOn));
    }
  } finally {
    redis.disconnect();
  }
  return { processedOnMinusDueMs: stats(taken), finishedOnMinusProcessedOnMs: stats(ran) };
}

async function main() {
  freshDatabase();
  const { procs, urls, stopRedis } = await startStack({ apis: 2, worker: true, prefix: PREFIX });
  const out = { startedAt: new Date().toISOString(), load: LOAD, loadavgStart: loadavg() };
  try {
    const token = await login(urls[0], OWNER.email, OWNER.password);
    const calls = urls.map((u) => api(u, token));
    const call = calls[0];
    if (LOAD) {
      const venueIds = await createVenues(call, 64, {});
      const j = await joins(calls, venueIds, 8, SECONDS);
      out.join = { perSecond: j.project.perSecond, joins: Math.round(j.project.perSecond * SECONDS), pgbenchPerSecond: j.pgbench.perSecond };
    }
    out.afterLoad = tableStats();
    out.loadavgBeforeExpiry = loadavg();
    // The worker does nothing in this scenario but the sweeps (and its idle timers): its CPU per expiry.
    const worker = procs.find((p) => p.name === 'worker');
    const workerCpu0 = cpuMs(worker.pid);
    // Hold 12 s: every offer exists before the first falls due (the bench's target figure).
    const e = await expiryPunctuality(call, token, urls[1], OFFERS, 25, 12);
    out.loadavgAfterExpiry = loadavg();
    out.workerCpuMsPerExpiry = Math.round(((cpuMs(worker.pid) - workerCpu0) / Math.max(1, e.offers)) * 100) / 100;
    out.expiry = { offers: e.offers, spanMs: e.spanMs, burstEndedBeforeFirstDue: e.burstEndedBeforeFirstDue, seen: e.expiredSeen, early: e.early, delayMs: e.delayMs };
    const sweep = psql(
      `SELECT id, round(extract(epoch FROM resolved_at - expires_at) * 1000), round(extract(epoch FROM expires_at) * 1000) FROM offers WHERE state = 'expired'`,
      DATABASE_URL,
    )
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split('|'));
    out.sweepResolvedMinusDueMs = stats(sweep.map(([, ms]) => Number(ms)));
    out.jobs = await jobTimings(sweep.map(([id, , due]) => ({ id, dueMs: Number(due) })));
    out.afterExpiry = tableStats();
  } catch (err) {
    for (const p of procs) if (p.ended) process.stderr.write(`${p.name} exited:\n${p.log.slice(-3000)}\n`);
    throw err;
  } finally {
    for (const p of procs) await p.stop();
    await stopRedis();
  }
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
  if (process.env.KEEP_LOGS) for (const p of procs) process.stdout.write(`--- ${p.name}\n${p.log.slice(-5000)}\n`);
}

main().catch((err) => {
  process.stderr.write(`${err.stack ?? err}\n`);
  process.exit(1);
});
