#!/usr/bin/env node
// Writes (write/writev system calls) per desk join, one client, sequential (issue 18, twenty-first
// round): the api's system calls counted by `strace -f -yy -e trace=write,writev` attached to the
// running api while JOINS joins go one after another (fresh email and Idempotency-Key each), split by
// the socket they went to: PostgreSQL (port 5432, each write one round trip's request), and the rest
// (HTTP answers, Redis, logs). Needs dist/ built (API_DIST for another build), strace, PostgreSQL at
// 127.0.0.1:5432 and Redis. Env: PORT (3630), PREFIX (joinwrites), DB (hb_join_writes), JOINS (300).
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { singleApi } from './lib/single-api.mjs';

const PORT = Number(process.env.PORT ?? 3630);
const DB = process.env.DB ?? 'hb_join_writes';
const JOINS = Number(process.env.JOINS ?? 300);
const { call, start } = singleApi({ port: PORT, prefix: process.env.PREFIX ?? 'joinwrites' });

const api = await start(DB);
try {
  const { token } = api;
  const venue = await call('POST', '/v1/venues', { slug: `w-${Date.now()}`, name: 'W', timeZone: 'UTC', preset: 'restaurant' }, token);
  await call(
    'POST',
    `/v1/venues/${venue.id}/service-windows`,
    { days: [1, 2, 3, 4, 5, 6, 7], start: '00:00', end: '23:59', turnMinutes: 60 },
    token,
  );
  await call('POST', `/v1/venues/${venue.id}/tables`, { label: 'T1', capacity: 4 }, token);
  let serial = 0;
  const joins = async (n) => {
    for (let i = 0; i < n; i++) {
      const id = `${process.pid}-${Date.now()}-${serial++}`;
      await call('POST', `/v1/venues/${venue.id}/queue`, { name: 'Bench', partySize: 2, email: `j${id}@b.test` }, token, {
        'idempotency-key': `k${id}`,
      });
    }
  };
  await joins(50); // warm-up: every statement prepared on the pool's connections
  const out = `/tmp/join-writes-${process.pid}.txt`;
  const strace = spawn('strace', ['-f', '-yy', '-e', 'trace=write,writev', '-s', '0', '-o', out, '-p', String(api.pid)], {
    stdio: 'ignore',
  });
  await sleep(1500); // attached to every thread
  await sleep(200);
  await joins(JOINS);
  await sleep(300);
  strace.kill('SIGINT');
  await new Promise((r) => strace.once('exit', r));
  const lines = readFileSync(out, 'utf8').split('\n').filter((l) => /\bwritev?\(/.test(l));
  rmSync(out, { force: true });
  const pg = lines.filter((l) => l.includes(':5432]')).length;
  const redis = lines.filter((l) => l.includes(':6379]')).length;
  const per = (n) => +(n / JOINS).toFixed(2);
  const loadavg = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  console.table([
    { writes: 'all', total: lines.length, perJoin: per(lines.length) },
    { writes: 'to PostgreSQL', total: pg, perJoin: per(pg) },
    { writes: 'to Redis', total: redis, perJoin: per(redis) },
    { writes: 'other (HTTP, logs)', total: lines.length - pg - redis, perJoin: per(lines.length - pg - redis) },
  ]);
  console.log(`joins: ${JOINS}; load average after: ${loadavg}`);
} finally {
  await api.stop();
}
