#!/usr/bin/env node
// The bench's expiry scenario alone (issue 18): "all offers made first" (`bench.mjs`'s expiry
// figure: OFFERS offers over 25-offer pool venues, hold 12 s, every offer made before the first falls
// due), on the bench's stack (api --cores, BullMQ worker, its own Redis). Prints the expiry delay
// (deadline → offer.expired on a board) and the worker's CPU per expiry (utime + stime from /proc
// over the scenario, which is the worker's only work then; also less its idle rate, measured for 5 s
// after), with the load average.
//
// Env: PORT and JOBS_PREFIX as for bench.mjs (its Redis on PORT + 9), OFFERS (500), HOLD (12), ROUNDS (1),
// API_DIST (dist; e.g. a copy built from an earlier commit, inside this checkout).
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { api, login } from './lib/client.mjs';
import { HZ, ticks } from './lib/cpu.mjs';
import { expiryPunctuality } from './lib/scenarios.mjs';
import { freshDatabase, OWNER, startStack } from './lib/stack.mjs';

const OFFERS = Number(process.env.OFFERS ?? 500);
const HOLD = Number(process.env.HOLD ?? 12);
const ROUNDS = Number(process.env.ROUNDS ?? 1);
const IDLE_SECONDS = 5;
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

freshDatabase();
const { procs, worker, url, stopRedis } = await startStack({ worker: true });
try {
  const token = await login(url, OWNER.email, OWNER.password);
  // The worker answers no port, so the stack does not wait for its boot: wait here until it is idle
  // (its boot's CPU, about 2 s of it, would otherwise be counted as the first round's).
  for (let i = 0, before = ticks(worker.pid); i < 60; i++) {
    await sleep(500);
    const now = ticks(worker.pid);
    if (now - before <= 1) break;
    before = now;
  }
  console.log(`worker CPU before the first round (its boot): ${Math.round((ticks(worker.pid) / HZ) * 1000)} ms`);
  // ROUNDS > 1 repeats the burst on the same stack: the first round meets a cold worker (its code not
  // yet optimised by V8), the later ones a warm one, as an evening's worker is.
  for (let round = 1; round <= ROUNDS; round++) {
    const load0 = loadavg();
    const w0 = ticks(worker.pid);
    const t0 = performance.now();
    const r = await expiryPunctuality(api(url, token), token, url, OFFERS, 25, HOLD);
    const seconds = (performance.now() - t0) / 1000;
    const workerTicks = ticks(worker.pid) - w0;
    // The worker's own CPU with nothing to do (pollers, timers), measured after the burst (right after
    // the start it is still warming up), to take out of the scenario's.
    await sleep(2000);
    const i0 = ticks(worker.pid);
    await sleep(IDLE_SECONDS * 1000);
    const idlePerSecond = (ticks(worker.pid) - i0) / IDLE_SECONDS;
    const per = (t) => Math.round((((t / HZ) * 1000) / Math.max(1, r.expiredInDb)) * 100) / 100;
    console.log(
      JSON.stringify({
        ...(ROUNDS > 1 && { round }),
        ...r,
        scenarioSeconds: Math.round(seconds),
        workerCpuMsPerExpiry: per(workerTicks),
        workerCpuMsPerExpiryLessIdle: per(workerTicks - idlePerSecond * seconds),
      }),
    );
    console.log(`load average ${load0} -> ${loadavg()}`);
  }
} finally {
  for (const p of procs) await p.stop();
  await stopRedis();
}
