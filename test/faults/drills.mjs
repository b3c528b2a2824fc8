// Fault drills, each against its own PostgreSQL (initdb into a temporary folder, port 5544) and its
// own redis-server (port 6391), never the machine's shared services. Loopback only; bounded in time.
//   node test/faults/drills.mjs      (after `npm run build`)
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { io } from 'socket.io-client';
import { Proc, redisServer, waitReady } from '../../bench/lib/stack.mjs';
import { api, login } from '../../bench/lib/client.mjs';

const PG_BIN = `/usr/lib/postgresql/${execFileSync('ls', ['/usr/lib/postgresql'], { encoding: 'utf8' }).trim().split('\n')[0]}/bin`;
const PG_PORT = 5544;
const REDIS_PORT = 6391;
const DATABASE_URL = `postgres://postgres@127.0.0.1:${PG_PORT}/postgres`;
const REDIS_URL = `redis://127.0.0.1:${REDIS_PORT}`;
const OWNER = { email: 'drill@drill.local', password: 'drill-password-1' };
const asPostgres = (cmd, args) => execFileSync('runuser', ['-u', 'postgres', '--', cmd, ...args], { stdio: 'pipe', encoding: 'utf8' });

const dir = mkdtempSync(join(tmpdir(), 'hb-drill-'));
chmodSync(dir, 0o777);
const pgData = join(dir, 'pg');
let stopRedisServer = async () => {};
const results = [];

function startPostgres() {
  asPostgres(`${PG_BIN}/pg_ctl`, ['-D', pgData, '-o', `-p ${PG_PORT} -k ${dir} -c listen_addresses=127.0.0.1`, '-l', join(dir, 'pg.log'), '-w', 'start']);
}
function stopPostgres() {
  asPostgres(`${PG_BIN}/pg_ctl`, ['-D', pgData, '-m', 'fast', '-w', 'stop']);
}
async function startRedis() {
  stopRedisServer = await redisServer(REDIS_PORT);
}
async function stopRedis() {
  await stopRedisServer();
}

const env = { DATABASE_URL, REDIS_URL, JOBS_PREFIX: 'drill', BOOTSTRAP_OWNER_EMAIL: OWNER.email, BOOTSTRAP_OWNER_PASSWORD: OWNER.password, AUTH_RATE_LIMIT: '100000' };
const apiProc = (n, port) => new Proc(`api-${n}`, 'dist/apps/api/src/main.js', { ...env, PORT: String(port), HOST: '127.0.0.1' });
const workerProc = () => new Proc('worker', 'dist/apps/worker/src/main.js', env);

async function sql(q, params = []) {
  const c = new pg.Client({ connectionString: DATABASE_URL });
  await c.connect();
  try {
    return (await c.query(q, params)).rows;
  } finally {
    await c.end();
  }
}

/** The invariants that faults could break: pool counters, live offers, expiry exactly once. */
async function invariantViolations() {
  const found = [];
  const checks = {
    'pool counters equal held and confirmed people': `SELECT v.id FROM venues v LEFT JOIN LATERAL (SELECT COALESCE(SUM(party_size) FILTER (WHERE state IN ('CONFIRMED','SEATED')),0) c, COALESCE(SUM(party_size) FILTER (WHERE state='HELD'),0) h FROM reservations r WHERE r.venue_id=v.id AND r.kind='pool') s ON true WHERE v.pool_confirmed<>s.c OR v.pool_held<>s.h`,
    'a live offer holds a HELD reservation for an offered entry': `SELECT o.id FROM offers o JOIN reservations r ON r.id=o.reservation_id JOIN queue_entries e ON e.id=o.entry_id WHERE o.state='live' AND (r.state<>'HELD' OR e.status<>'offered')`,
    'an offer expired at most once': `SELECT subject_id FROM history WHERE subject_type='offer' AND to_state='expired' GROUP BY subject_id HAVING COUNT(*)>1`,
    'board versions have no gaps': `SELECT v.id FROM venues v LEFT JOIN LATERAL (SELECT COUNT(*) n FROM board_events b WHERE b.venue_id=v.id) b ON true WHERE b.n<>v.version`,
  };
  for (const [name, q] of Object.entries(checks)) if ((await sql(q)).length > 0) found.push(name);
  return found;
}

async function liveOffers(call, count, holdSeconds) {
  const v = await call('POST', '/v1/venues', { slug: `d-${Math.random().toString(36).slice(2, 9)}`, name: 'Drill', timeZone: 'America/Chicago', preset: 'workshop', poolCapacity: count });
  await call('PATCH', `/v1/venues/${v.body.id}`, { policy: { holdSeconds } });
  for (let i = 0; i < count; i++) await call('POST', `/v1/venues/${v.body.id}/queue`, { name: `P${i}`, partySize: 1 });
  const ids = [];
  for (let i = 0; i < count; i++) ids.push((await call('POST', `/v1/venues/${v.body.id}/promotions`, {})).body.offer.id);
  return { venueId: v.body.id, offerIds: ids };
}

async function waitAllExpired(offerIds, ms) {
  const until = Date.now() + ms;
  for (;;) {
    const rows = await sql(`SELECT count(*)::int AS n FROM offers WHERE id = ANY($1::uuid[]) AND state = 'expired'`, [offerIds]);
    if (rows[0].n === offerIds.length) return true;
    if (Date.now() > until) return false;
    await sleep(250);
  }
}

async function expiredOnce(offerIds) {
  const rows = await sql(`SELECT subject_id, count(*)::int AS n FROM history WHERE subject_type = 'offer' AND to_state = 'expired' AND subject_id = ANY($1::uuid[]) GROUP BY subject_id`, [offerIds]);
  return rows.length === offerIds.length && rows.every((r) => r.n === 1);
}

async function drill(name, fn) {
  const t0 = Date.now();
  try {
    const detail = await fn();
    const broken = await invariantViolations();
    const ok = detail.ok && broken.length === 0;
    results.push({ name, ok, detail: `${detail.text}${broken.length ? `; invariants broken: ${broken.join(', ')}` : '; invariants hold'}`, seconds: Math.round((Date.now() - t0) / 1000) });
  } catch (err) {
    results.push({ name, ok: false, detail: `crashed: ${err.message}`, seconds: Math.round((Date.now() - t0) / 1000) });
  }
}

async function main() {
  asPostgres(`${PG_BIN}/initdb`, ['-D', pgData, '-U', 'postgres', '--auth=trust', '-E', 'UTF8']);
  startPostgres();
  await startRedis();
  await sleep(300);
  const a1 = apiProc(1, 3411);
  await waitReady(3411, a1);
  const a2 = apiProc(2, 3412);
  await waitReady(3412, a2);
  let worker = workerProc();
  await sleep(1500);
  const token = await login('http://127.0.0.1:3411', OWNER.email, OWNER.password);
  const call = api('http://127.0.0.1:3411', token);
  const call2 = api('http://127.0.0.1:3412', token);
  try {
    await drill('kill -9 the worker while offers are due', async () => {
      const { offerIds } = await liveOffers(call, 20, 2);
      await worker.stop('SIGKILL');
      await sleep(3000); // every offer is now due, and nothing is consuming
      const stillLive = (await sql(`SELECT count(*)::int AS n FROM offers WHERE id = ANY($1::uuid[]) AND state = 'live'`, [offerIds]))[0].n;
      const restartAt = Date.now();
      worker = workerProc();
      const all = await waitAllExpired(offerIds, 20_000);
      return { ok: all && (await expiredOnce(offerIds)), text: `${stillLive} of 20 due offers live while the worker was dead; all expired ${all ? `${Math.round((Date.now() - restartAt) / 100) / 10} s after restart` : 'NOT within 20 s'}, each exactly once` };
    });

    await drill('restart Redis mid-run (it keeps nothing: every delayed job is lost)', async () => {
      const { offerIds } = await liveOffers(call, 20, 4);
      await stopRedis();
      await startRedis();
      const restartAt = Date.now();
      const all = await waitAllExpired(offerIds, 25_000);
      return { ok: all && (await expiredOnce(offerIds)), text: `all 20 offers expired ${all ? `${Math.round((Date.now() - restartAt) / 100) / 10} s after the Redis restart (safety-net sweep)` : 'NOT within 25 s'}, each exactly once` };
    });

    await drill('restart an api process while boards are connected', async () => {
      const { venueId } = await liveOffers(call, 1, 600);
      const board = io('http://127.0.0.1:3411/board', { auth: { token }, transports: ['websocket'], reconnectionDelay: 200, reconnectionDelayMax: 500 });
      await new Promise((r, j) => (board.once('connect', r), board.once('connect_error', j)));
      const first = await board.timeout(5000).emitWithAck('subscribe', { venueId });
      const last = first.version;
      await a1.stop('SIGKILL');
      for (let i = 0; i < 3; i++) await call2('POST', `/v1/venues/${venueId}/queue`, { name: `Q${i}`, partySize: 1 }).catch(() => null);
      const restarted = apiProc(1, 3411);
      await waitReady(3411, restarted);
      await new Promise((r) => (board.connected ? r() : board.once('connect', r)));
      const replay = await board.timeout(5000).emitWithAck('subscribe', { venueId, sinceVersion: last });
      board.close();
      const got = (replay.events ?? []).map((e) => e.version);
      const want = [last + 1, last + 2, last + 3];
      return { ok: JSON.stringify(got) === JSON.stringify(want), text: `board reconnected and resynced versions [${got.join(', ')}] (expected [${want.join(', ')}])` };
    });

    await drill('stop PostgreSQL for a few seconds', async () => {
      const v = await call2('POST', '/v1/venues', { slug: `pgdown-${Date.now()}`, name: 'Down', timeZone: 'America/Chicago', preset: 'workshop', poolCapacity: 5 });
      stopPostgres();
      const during = [];
      for (let i = 0; i < 5; i++) {
        const r = await call2('POST', `/v1/venues/${v.body.id}/reservations`, { name: `D${i}`, partySize: 1 });
        during.push(`${r.status}${r.body?.error ? ` ${r.body.error.code}` : ''}`);
        await sleep(300);
      }
      startPostgres();
      let after = 0;
      for (let i = 0; i < 40 && after !== 201; i++) {
        after = (await call2('POST', `/v1/venues/${v.body.id}/reservations`, { name: 'after', partySize: 1 })).status;
        if (after !== 201) await sleep(250);
      }
      const counts = (await call2('GET', `/v1/venues/${v.body.id}/counts`)).body;
      const clean = during.every((d) => d === '503 UNAVAILABLE');
      return { ok: clean && after === 201 && counts.confirmed === 1, text: `while down: [${during.join(', ')}]; after restart: ${after}; confirmed ${counts.confirmed} (only the registration made after recovery)` };
    });
  } finally {
    for (const p of [a1, a2, worker]) await p.stop().catch(() => null);
    await new Promise((r) => setTimeout(r, 300));
    try {
      stopPostgres();
    } catch {
      // already stopped
    }
    await stopRedis().catch(() => null);
    rmSync(dir, { recursive: true, force: true });
  }
  for (const r of results) process.stdout.write(`${r.ok ? 'PASS' : 'FAIL'}  ${r.name} (${r.seconds} s): ${r.detail}\n`);
  const passed = results.filter((r) => r.ok).length;
  process.stdout.write(`${passed} passed, ${results.length - passed} failed\n`);
  process.exit(passed === results.length && results.length === 4 ? 0 : 1);
}

main().catch((err) => {
  process.stderr.write(`${err.stack}\n`);
  process.exit(1);
});
