#!/usr/bin/env node
// Statements and CPU per expiry when many offers of one venue fall due together (issue 18, "expiry
// p99 under 500 ms inside the full bench").
//
// A sandbox table venue gets N tables, N waiting parties and N live offers made at one simulated
// instant; one move of its clock past their deadline runs the sweep (the same `sweepLocked` the
// worker's expiry job runs) and expires all N in one transaction.
//
// 1. Counts: a fresh database with `log_statement = all` (on that database only), the statements of
//    one clock move expiring N offers, for each N of SIZES, read back from the server log.
// 2. CPU: a second fresh database without logging, ROUNDS clock moves of CPU_OFFERS offers each (a new
//    venue per round); CPU ticks of the api process and of this database's PostgreSQL backends from
//    /proc around the moves only (the setup is not counted), per expired offer.
//
// Needs dist/ built, PostgreSQL at 127.0.0.1:5432 (user postgres), Redis at 127.0.0.1:6379, read access
// to /var/log/postgresql. Env: PORT (3700), PREFIX (expiry_sweep), SIZES (1,10,50), CPU_OFFERS (200),
// ROUNDS (3), PG_LOG, API_DIST (dist; a copy built from another commit to compare, inside this checkout).
import { execFileSync } from 'node:child_process';
import { ticks as procTicks, loadavg } from './lib/cpu.mjs';
import { backends, loggedStatements, singleApi } from './lib/single-api.mjs';

const PORT = Number(process.env.PORT ?? 3700);
const PREFIX = process.env.PREFIX ?? 'expiry_sweep';
const SIZES = (process.env.SIZES ?? '1,10,50')
  .split(',')
  .map(Number)
  .filter((n) => n > 0);
const CPU_OFFERS = Number(process.env.CPU_OFFERS ?? 200);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const HZ = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());
const T0 = Date.parse('2026-10-09T12:00:00.000Z');
const { call, start } = singleApi({ port: PORT, prefix: PREFIX });
const ticks = (pid) => procTicks(pid) ?? 0;
const loadText = () => Object.values(loadavg()).join(' ');

let serial = 0;
/** A sandbox table venue (UTC, a window all day) with `n` live offers made at T0: due at T0 + 5 min. */
async function venueWithOffers(token, n) {
  const venue = await call(
    'POST',
    '/v1/venues',
    {
      slug: `sweep-${process.pid}-${serial++}`,
      name: 'Sweep',
      timeZone: 'UTC',
      preset: 'restaurant',
      sandbox: true,
      clock: new Date(T0).toISOString(),
    },
    token,
  );
  await call(
    'POST',
    `/v1/venues/${venue.id}/service-windows`,
    { days: [1, 2, 3, 4, 5, 6, 7], start: '00:00', end: '23:59', turnMinutes: 60 },
    token,
  );
  for (let i = 0; i < n; i++) {
    const table = await call('POST', `/v1/venues/${venue.id}/tables`, { label: `T${i}`, capacity: 4 }, token);
    const { entry } = await call(
      'POST',
      `/v1/venues/${venue.id}/queue`,
      { name: `Party ${i}`, partySize: 2, email: `p${serial++}@b.test` },
      token,
    );
    await call(
      'POST',
      `/v1/venues/${venue.id}/offers`,
      { entryId: entry.id, entryVersion: entry.version, tableIds: [table.id] },
      token,
    );
  }
  return venue.id;
}

/** Moves the clock past the deadlines: the sweep expires every offer; answers how many. */
async function expireAll(token, venueId) {
  const { expired } = await call('POST', `/v1/venues/${venueId}/clock`, { now: new Date(T0 + 5 * 60_000).toISOString() }, token);
  return expired.length;
}

/** The statements this database logged while `fn` ran, whitespace folded. */
async function logged(db, fn) {
  return (await loggedStatements(db, fn)).map((l) => l.replace(/\s+/g, ' ').slice(0, 80));
}

async function countStatements() {
  const db = `${PREFIX}_count`;
  const api = await start(db, { logStatements: true });
  const { token } = api;
  try {
    await expireAll(token, await venueWithOffers(token, 2)); // warm: connections and prepared statements
    for (const n of SIZES) {
      const venueId = await venueWithOffers(token, n);
      let expired = 0;
      const lines = await logged(db, async () => (expired = await expireAll(token, venueId)));
      console.log(`clock move expiring ${expired} offers: ${lines.length} statements (BEGIN and COMMIT included)`);
      if (process.env.VERBOSE) for (const l of lines) console.log(`  ${l}`);
    }
  } finally {
    await api.stop();
  }
}

async function measureCpu() {
  const db = `${PREFIX}_cpu`;
  const api = await start(db);
  const { token } = api;
  try {
    await expireAll(token, await venueWithOffers(token, 5)); // warm
    let apiTicks = 0;
    let pgTicks = 0;
    let expired = 0;
    let ms = 0;
    const load = [loadText()];
    for (let r = 0; r < ROUNDS; r++) {
      const venueId = await venueWithOffers(token, CPU_OFFERS);
      const pids = backends(db);
      const a0 = ticks(api.pid);
      const b0 = pids.map((p) => ticks(p));
      const t0 = performance.now();
      expired += await expireAll(token, venueId);
      ms += performance.now() - t0;
      apiTicks += ticks(api.pid) - a0;
      pgTicks += backends(db).reduce((s, p) => s + ticks(p) - (pids.includes(p) ? b0[pids.indexOf(p)] : 0), 0);
    }
    load.push(loadText());
    const per = (t) => (((t / HZ) * 1000) / expired).toFixed(2);
    console.log(
      `${ROUNDS} sweeps of ${CPU_OFFERS} due offers (${expired} expired), ${(ms / ROUNDS).toFixed(0)} ms per sweep; ` +
        `CPU per expiry: api ${per(apiTicks)} ms, this database's backends ${per(pgTicks)} ms; load average ${load.join(' -> ')}`,
    );
  } finally {
    await api.stop();
  }
}

if (SIZES.length > 0) await countStatements();
if (ROUNDS > 0) await measureCpu();
