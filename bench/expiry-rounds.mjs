#!/usr/bin/env node
// The bench's expiry scenario ("all offers made first": 500 offers over 25-offer pool venues, hold
// 12 s) ROUNDS times (3) on one stack, to tell a cold worker from a warm one: per round, the delay
// from deadline to offer.expired on a board, the worker's CPU per expiry (utime + stime from /proc
// over the round) and the load average. Env as for expiry-burst.mjs (PORT, JOBS_PREFIX, API_DIST).
import { readFileSync } from 'node:fs';
import { api, login } from './lib/client.mjs';
import { HZ, ticks } from './lib/cpu.mjs';
import { expiryPunctuality } from './lib/scenarios.mjs';
import { freshDatabase, OWNER, startStack } from './lib/stack.mjs';
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
freshDatabase();
const { procs, worker, url, stopRedis } = await startStack({ worker: true });
try {
  const token = await login(url, OWNER.email, OWNER.password);
  for (let round = 0; round < Number(process.env.ROUNDS ?? 3); round++) {
    const w0 = ticks(worker.pid);
    const r = await expiryPunctuality(api(url, token), token, url, 500, 25, 12);
    console.log(round, JSON.stringify(r.delayMs), 'workerCpuMs/expiry', ((((ticks(worker.pid) - w0) / HZ) * 1000) / r.expiredInDb).toFixed(2), loadavg());
  }
} finally {
  for (const p of procs) await p.stop();
  await stopRedis();
}
