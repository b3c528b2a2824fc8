// The load phases whose cost per request the bench reports: the pgbench reference, desk joins
// (wrk), offers and accepts (the Node client: each step needs the previous answer, which wrk cannot
// easily carry), and board reads (wrk). Each phase is measured the same way: CPU ticks of every
// process group around it, statement counters before and after, the load average at both ends.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { join } from 'node:path';
import { CpuMeter, loadavg } from './cpu.mjs';
import { stats } from './client.mjs';
import { pgbench, wrk } from './loadgen.mjs';
import { perRequest, settledCounters } from './pgstats.mjs';
import { DATABASE_URL, psql } from './stack.mjs';

const BOARD_LUA = fileURLToPath(new URL('../board-load.lua', import.meta.url));
const round2 = (x) => Math.round(x * 100) / 100;

/**
 * Runs `load()` (which answers at least `requests`, and `loadGeneratorCpuMs` when the load comes
 * from a child process) between two readings of CPU and statement counters.
 * ctx: { groups: {name: () => pids}, dbUrl, source }.
 */
export async function measured(ctx, load) {
  const before = await settledCounters(ctx.dbUrl, ctx.source);
  const load0 = loadavg();
  const self0 = process.cpuUsage();
  const meter = new CpuMeter(ctx.groups).start();
  const out = await load();
  const cpu = meter.stop();
  const self = process.cpuUsage(self0);
  const load1 = loadavg();
  const after = await settledCounters(ctx.dbUrl, ctx.source);
  const generatorMs = out.loadGeneratorCpuMs ?? Math.round((self.user + self.system) / 1000);
  const n = out.requests || null;
  const perReq = Object.fromEntries(Object.entries(cpu.cpuMs).map(([g, v]) => [g, n ? round2(v / n) : null]));
  perReq.loadGenerator = n ? round2(generatorMs / n) : null;
  return {
    ...out,
    wallMs: cpu.wallMs,
    cpuMs: { ...cpu.cpuMs, loadGenerator: generatorMs },
    cpuMsPerRequest: perReq,
    // Percent of one core over the phase's wall time.
    loadGeneratorCorePct: Math.round((generatorMs / cpu.wallMs) * 100),
    machineBusyPct: cpu.machineBusyPct,
    perRequest: perRequest(before, after, n),
    loadAvg: { start: load0.one, end: load1.one, fiveMin: load1.five },
  };
}

/** The shared reference: its schema and 16 venues in a fresh database, then pgbench on it. */
export async function reference(ctx, { ref, dbUrl, clients, seconds, venues }) {
  execFileSync('psql', [dbUrl, '-v', 'ON_ERROR_STOP=1', '-q', '-f', join(ref, 'join-schema.sql')], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  psql(`INSERT INTO venue SELECT g, 0 FROM generate_series(1, ${venues}) g`, dbUrl);
  return measured(ctx, async () => {
    const r = await pgbench({ dbUrl, script: join(ref, 'join-tx.sql'), clients, seconds, venues });
    return { ...r, requests: r.transactions };
  });
}

/** Table venues as the reference describes them: restaurant, a window running all day, one table. */
export async function tableVenues(call, n) {
  const ids = [];
  for (let i = 0; i < n; i++) {
    const v = await call('POST', '/v1/venues', {
      slug: `wrk-${i}-${Math.random().toString(36).slice(2, 8)}`,
      name: `Bench ${i}`,
      timeZone: 'UTC',
      preset: 'restaurant',
    });
    if (v.status !== 201) throw new Error(`venue ${v.status} ${JSON.stringify(v.body)}`);
    await call('POST', `/v1/venues/${v.body.id}/service-windows`, {
      days: [1, 2, 3, 4, 5, 6, 7],
      start: '00:00',
      end: '23:59',
      turnMinutes: 60,
    });
    await call('POST', `/v1/venues/${v.body.id}/tables`, { label: 'T1', capacity: 4 });
    ids.push(v.body.id);
  }
  return ids;
}

const withoutRaw = ({ raw: _raw, ...rest }) => rest;

/** Desk joins from wrk with the reference's script: fresh email and Idempotency-Key each. */
export function joinPhase(ctx, { ref, url, token, venueIds, clients, seconds }) {
  return measured(ctx, async () => {
    const r = await wrk({
      url,
      script: join(ref, 'join-load.lua'),
      clients,
      seconds,
      env: { VENUES: venueIds.join(','), TOKEN: token },
    });
    return withoutRaw({ ...r, requests: r.ok });
  });
}

/** GET /v1/venues/:id/board from wrk, rotating over the venues. */
export function boardPhase(ctx, { url, token, venueIds, clients, seconds }) {
  return measured(ctx, async () => {
    const r = await wrk({ url, script: BOARD_LUA, clients, seconds, env: { VENUES: venueIds.join(','), TOKEN: token } });
    return withoutRaw({ ...r, requests: r.ok });
  });
}

/**
 * Gives each of `clients` venues (taken from the join phase, so their queues are already long)
 * `tables` more tables, and answers per venue its waiting entries (oldest first) and free tables.
 */
export async function offerSetup(call, venueIds, clients, tables) {
  const venues = venueIds.slice(0, clients);
  return Promise.all(
    venues.map(async (id) => {
      const tableIds = [];
      for (let t = 0; t < tables; t++) {
        const r = await call('POST', `/v1/venues/${id}/tables`, { label: `O${t}`, capacity: 4 });
        if (r.status !== 201) throw new Error(`table ${r.status} ${JSON.stringify(r.body)}`);
        tableIds.push(r.body.id);
      }
      const entries = psql(
        `SELECT id, version FROM queue_entries WHERE venue_id = '${id}' AND status = 'waiting' ORDER BY received_at, queue_sequence`,
        DATABASE_URL,
      )
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((line) => ({ id: line.split('|')[0], version: Number(line.split('|')[1]) }));
      return { id, tables: tableIds, entries, offers: [] };
    }),
  );
}

/**
 * One loop per venue for `seconds` (or until `more(v)` says the venue has nothing left), each round
 * one request from `step(v)`: its time counts when `ok(answer)`, else it counts as failed.
 */
function venueLoops(ctx, { venues, seconds }, more, step, ok) {
  return measured(ctx, async () => {
    const ms = [];
    let failed = 0;
    const until = performance.now() + seconds * 1000;
    const t0 = performance.now();
    await Promise.all(
      venues.map(async (v) => {
        while (performance.now() < until && more(v)) {
          const answer = await step(v);
          if (ok(answer, v)) ms.push(answer.ms);
          else failed++;
        }
      }),
    );
    const elapsed = (performance.now() - t0) / 1000;
    return { requests: ms.length, failed, perSecond: Math.round(ms.length / elapsed), latencyMs: stats(ms) };
  });
}

/**
 * One loop per venue for `seconds` (or until the venue runs out of entries or tables), each making
 * a table offer to the oldest waiting entry; a 409 for a stale version or a table taken counts as failed.
 */
export function offerPhase(ctx, { call, venues, seconds }) {
  return venueLoops(
    ctx,
    { venues, seconds },
    (v) => v.entries.length > 0 && v.tables.length > 0,
    (v) => {
      const e = v.entries.shift();
      return call('POST', `/v1/venues/${v.id}/offers`, { entryId: e.id, entryVersion: e.version, tableIds: [v.tables.shift()] });
    },
    (o, v) => o.status === 201 && v.offers.push(o.body.offer.id) > 0,
  );
}

/** Accepts, on the parties' behalf, every offer the offer phase made: one loop per venue. */
export function acceptPhase(ctx, { call, venues, seconds }) {
  return venueLoops(
    ctx,
    { venues, seconds },
    (v) => v.offers.length > 0,
    (v) => call('POST', `/v1/venues/${v.id}/offers/${v.offers.shift()}/accept`, {}),
    (a) => a.status === 200,
  );
}
