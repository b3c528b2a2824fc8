// npm run bench: the join reference of ../shared/bench (pgbench, same SQL work, same concurrency),
// then the api as `npm start` runs it (--cores) with a worker on a fresh database and the bench's
// own Redis, loaded over loopback: desk joins and board reads from wrk, offers and accepts from the
// Node client, then the latency and correctness scenarios. Each load phase reports CPU per request
// (api processes, PostgreSQL backends, worker, Redis, the load generator), statements per request
// and the load average. Writes bench/results/latest.json and latest.md. See bench/README.md.
import { cpus, tmpdir, totalmem } from 'node:os';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { api, closedLoop, login } from './lib/client.mjs';
import { loadavg, pgBackends, withChildren } from './lib/cpu.mjs';
import { statementSource } from './lib/pgstats.mjs';
import { acceptPhase, boardPhase, joinPhase, measured, offerPhase, offerSetup, reference, tableVenues } from './lib/phases.mjs';
import { markdown, targets } from './lib/report.mjs';
import { statementProbe } from './lib/statement-probe.mjs';
import { boardFanout, expiryPunctuality, lastSeatStorm, scaleWithSize } from './lib/scenarios.mjs';
import { DATABASE_URL, DB_NAME, dbUrl, freshDatabase, OWNER, peakRssMb, PORT, PREFIX, psql, startStack } from './lib/stack.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const REF = resolve(ROOT, process.env.REF ?? '../shared/bench');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const SHORT_SECONDS = Number(process.env.BENCH_SHORT_SECONDS ?? 8);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const IDLE_SECONDS = 3;
const WARMUP_TABLES = 30;
const CLIENTS = 8;
const VENUES = 16;
const quick = process.argv.includes('--quick');

function preflight() {
  for (const f of ['join-schema.sql', 'join-tx.sql', 'join-load.lua']) {
    if (!existsSync(join(REF, f)))
      throw new Error(`the join reference is missing ${join(REF, f)}: set REF to the directory of ../shared/bench`);
  }
  for (const tool of ['wrk', 'pgbench', 'psql', 'redis-server']) {
    try {
      execFileSync('which', [tool], { stdio: 'ignore' });
    } catch {
      throw new Error(
        `${tool} is not installed (apt-get install ${tool === 'pgbench' || tool === 'psql' ? 'postgresql-client' : tool})`,
      );
    }
  }
}

const t0 = performance.now();
const step = (what) =>
  process.stderr.write(`[${Math.round((performance.now() - t0) / 1000)} s, load ${loadavg().one}] ${what}\n`);

/** A scenario's figures with the load average at its start and end. */
async function withLoad(run) {
  const start = loadavg().one;
  const out = await run();
  return { ...out, loadAvg: { start, end: loadavg().one } };
}

async function main() {
  preflight();
  const process0 = process.hrtime.bigint();
  const results = {
    startedAt: new Date().toISOString(),
    machine: machine(),
    settings: {
      clients: CLIENTS,
      venues: VENUES,
      seconds: SECONDS,
      shortSeconds: SHORT_SECONDS,
      warmupSeconds: WARMUP_SECONDS,
      warmupTables: WARMUP_TABLES,
      ref: REF,
      quick,
    },
  };

  step('reference: pgbench');
  // The reference first, alone on the machine's share of this run: pgbench on its own database.
  const refDb = `${PREFIX}_joinref`;
  freshDatabase(refDb);
  const refSource = statementSource(dbUrl(refDb));
  results.reference = await reference(
    { groups: { postgres: () => pgBackends(refDb) }, dbUrl: dbUrl(refDb), source: refSource },
    { ref: REF, dbUrl: dbUrl(refDb), clients: CLIENTS, seconds: SECONDS, venues: VENUES },
  );
  psql(`DROP DATABASE IF EXISTS ${refDb} WITH (FORCE)`);

  step('starting the api (--cores), the worker and Redis');
  freshDatabase();
  const { procs, api: apiProc, worker, url, stopRedis } = await startStack({ worker: true });
  try {
    const source = statementSource(DATABASE_URL);
    results.statementSource = source;
    const ctx = {
      dbUrl: DATABASE_URL,
      source,
      groups: {
        api: () => withChildren(apiProc.pid),
        postgres: () => pgBackends(DB_NAME),
        worker: () => withChildren(worker.pid),
        redis: () => (stopRedis.pid ? [stopRedis.pid] : []),
      },
    };
    results.apiProcesses = withChildren(apiProc.pid).length - 1 || 1;
    const token = await login(url, OWNER.email, OWNER.password);
    const call = api(url, token);
    const venueIds = await tableVenues(call, VENUES);

    // What the stack costs with no load at all (timers, pollers), to read the per-request figures against.
    step('idle');
    results.idle = await measured(ctx, async () => {
      await sleep(IDLE_SECONDS * 1000);
      return { requests: 0 };
    });
    step('join warm-up, then joins from wrk');
    // A few seconds of joins first, unmeasured: V8 compiles the hot paths, the pools fill. From the
    // Node client, not wrk: LuaJIT's random numbers are the same in every wrk run, so a second run of
    // join-load.lua would repeat the first one's emails and Idempotency-Keys (replays, not joins).
    await closedLoop(CLIENTS, WARMUP_SECONDS, (i) => {
      const k = `warm-${i}-${process.pid}`;
      return call(
        'POST',
        `/v1/venues/${venueIds[i % VENUES]}/queue`,
        { name: 'Bench', partySize: 2, email: `${k}@b.test` },
        { 'idempotency-key': k },
      ).then((r) => r.status === 201);
    });
    results.join = await joinPhase(ctx, { ref: REF, url, token, venueIds, clients: CLIENTS, seconds: SECONDS });
    results.joinRatio = Math.round((results.join.perSecond / results.reference.perSecond) * 100) / 100;
    step('offer and accept warm-up, then offers, accepts, board reads');
    // Unmeasured, as the join's warm-up: the first offers and acceptances of a fresh process wait on
    // V8 compiling their path, each pool connection preparing its statements and BullMQ loading its
    // scripts (the first wave of 8 took 60-90 ms against a p99 of 49 ms after the first 250 ms). On
    // the other 8 venues, with tables of their own: the measured venues' first offers stay in the figure.
    const warmVenues = await offerSetup(call, venueIds.slice(CLIENTS), CLIENTS, WARMUP_TABLES);
    await offerPhase(ctx, { call, venues: warmVenues, seconds: WARMUP_SECONDS });
    await acceptPhase(ctx, { call, venues: warmVenues, seconds: WARMUP_SECONDS });
    const offerVenues = await offerSetup(call, venueIds, CLIENTS, Number(process.env.BENCH_TABLES ?? 100));
    results.offer = await offerPhase(ctx, { call, venues: offerVenues, seconds: SHORT_SECONDS });
    results.accept = await acceptPhase(ctx, { call, venues: offerVenues, seconds: 30 });
    results.board = await boardPhase(ctx, { url, token, venueIds, clients: CLIENTS, seconds: SHORT_SECONDS });

    step('last-seat storms, expiry, fan-out, scale');
    results.lastSeatStorm = await withLoad(() => lastSeatStorm([call], call, quick ? 1 : 3));
    // The target's figure: every offer made before the first falls due (hold 12 s); then the same
    // with the expiries landing in the middle of the promotion burst (hold 3 s).
    results.expiry = await withLoad(() => expiryPunctuality(call, token, url, quick ? 100 : 500, 25, 12));
    if (!quick) results.expiryUnderLoad = await withLoad(() => expiryPunctuality(call, token, url, 500, 25, 3));
    results.boardFanout = await withLoad(() => boardFanout([call], token, [url], call, quick ? 50 : 200, quick ? 10 : 30));
    results.scale = await withLoad(async () => ({ sizes: await scaleWithSize(call, quick ? [10, 1000] : [10, 1000, 10000]) }));
    step('statement probe');
    results.statementsOnWire = await withLoad(() => statementProbe({ port: PORT + 1, relayPort: PORT + 2 }));
    // node:cluster's primary serves nothing; with API_PROCESSES=1 there is no primary, one api.
    const [primary, ...apis] = withChildren(apiProc.pid);
    results.peakRssMb = Object.fromEntries([
      ...(apis.length
        ? [['api-primary', peakRssMb(primary)], ...apis.map((pid, i) => [`api-${i + 1}`, peakRssMb(pid)])]
        : [['api', peakRssMb(primary)]]),
      ...withChildren(worker.pid).map((pid, i, all) => [
        all.length > 1 ? (i === 0 ? 'worker-primary' : `worker-${i}`) : 'worker',
        peakRssMb(pid),
      ]),
    ]);
  } catch (err) {
    for (const p of procs) if (p.ended) process.stderr.write(`${p.name} exited ${p.child.exitCode}:\n${p.log.slice(-3000)}\n`);
    throw err;
  } finally {
    for (const p of procs) await p.stop();
    await stopRedis();
    // The processes' own lines (warnings and errors only), for a look after a surprising figure.
    for (const p of procs) writeFileSync(join(tmpdir(), `hostboard-bench-${p.name}.log`), p.log);
  }
  results.durationS = Math.round(Number(process.hrtime.bigint() - process0) / 1e9);
  results.targets = targets(results);
  mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench/results/latest.json'), `${JSON.stringify(results, null, 2)}\n`);
  const md = markdown(results);
  writeFileSync(join(ROOT, 'bench/results/latest.md'), md);
  process.stdout.write(md);
}

function machine() {
  let pg = '';
  try {
    pg = execFileSync('psql', ['--version'], { encoding: 'utf8' }).trim();
  } catch {
    pg = 'unknown';
  }
  return {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model,
    memoryGb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    postgres: pg,
  };
}

main().catch((err) => {
  process.stderr.write(`${err.stack ?? err}\n`);
  process.exit(1);
});
