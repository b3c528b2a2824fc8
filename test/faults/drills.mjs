// Fault drills, each against its own PostgreSQL (initdb into a temporary folder, port 5544) and its
// own redis-server (port 6391), never the machine's shared services. Loopback only; bounded in time
// (about a minute and a half in all). Two api processes and a worker run throughout, in production mode.
// Every drill asserts that no process died and nothing was lost or doubled, then prints what it measured.
//   node test/faults/drills.mjs      (after `npm run build`; DRILL_ONLY=<part of a name> runs fewer)
import { rmSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { waitReady } from '../../bench/lib/stack.mjs';
import {
  OWNER,
  PORTS,
  URLS,
  JOIN_BOUND_MS,
  READY_DOWN_BOUND_MS,
  READY_BACK_BOUND_S,
  seconds,
  dir,
  initPostgres,
  startPostgres,
  stopPostgres,
  startRedis,
  stopRedis,
  redisCli,
  apiProc,
  workerProc,
  procs,
  running,
  died,
  sql,
  req,
  codeOf,
  linesSince,
  readyOf,
  degradedFor,
  session,
  login,
  call,
  newVenue,
  liveOffers,
  waitAllExpired,
  expiredOnce,
  invariantViolations,
  joinTraffic,
  joinFigures,
  lostOrDoubled,
  readyPoller,
  readyAgain,
  openBoard,
  contiguous,
  resubscribe,
  versionOf,
  fanOutSeconds,
  jobsWorkAgain,
} from './drill-kit.mjs';

/** How long the long Redis outage lasts (the issue asks for 30 s; its Done-when figures for 25 s). */
const REDIS_OUTAGE_S = Number(process.env.DRILL_REDIS_OUTAGE_S ?? 30);
const results = [];

/** DRILL_ONLY=<part of a name> runs only the drills whose name contains it (a quick local check). */
const ONLY = process.env.DRILL_ONLY;
const DRILL_COUNT = 6;

async function drill(name, fn) {
  if (ONLY && !name.includes(ONLY)) return;
  const t0 = performance.now();
  try {
    const { checks, figures } = await fn();
    const dead = died();
    const broken = await invariantViolations();
    const failed = Object.entries(checks)
      .filter(([, ok]) => !ok)
      .map(([k]) => k);
    if (dead.length) failed.push(`process died: ${dead.join(', ')}`);
    if (broken.length) failed.push(`invariants broken: ${broken.join(', ')}`);
    results.push({ name, ok: failed.length === 0, figures, failed, seconds: seconds(performance.now() - t0) });
  } catch (err) {
    results.push({ name, ok: false, figures: [], failed: [`crashed: ${err.stack}`], seconds: seconds(performance.now() - t0) });
  }
  const r = results.at(-1);
  process.stdout.write(`${r.ok ? 'PASS' : 'FAIL'}  ${name} (${r.seconds} s)${r.failed.length ? `: ${r.failed.join('; ')}` : ''}\n`);
}

/** Redis away for REDIS_OUTAGE_S while one join a second arrives: the Done-when figures of issue 12. */
async function redisOutage() {
  const venueId = await newVenue();
  const offers = await liveOffers(4, Math.round(REDIS_OUTAGE_S / 2)); // due in the middle of the outage
  const board = await openBoard(URLS[0], venueId);
  await stopRedis();
  const downAt = performance.now();
  const traffic = joinTraffic(venueId, 1000, 'outage');
  const ready = readyPoller(2000);
  // Logins and a wrong password on both processes while Redis is away: never 500.
  const logins = [];
  await sleep(3000);
  for (const u of URLS) {
    logins.push(codeOf(await req(u, 'POST', '/v1/auth/sessions', { body: OWNER, timeoutMs: JOIN_BOUND_MS })));
    logins.push(codeOf(await req(u, 'POST', '/v1/auth/sessions', { body: { ...OWNER, password: 'not-the-password-1' }, timeoutMs: JOIN_BOUND_MS })));
  }
  // An offer made during the outage: its expiry job cannot be queued; the sweep must expire it.
  const during = await liveOffers(2, 3);
  await sleep(Math.max(0, REDIS_OUTAGE_S * 1000 - (performance.now() - downAt)));
  const downReady = await ready.stop();
  await startRedis();
  const upAt = performance.now();
  const answers = await traffic.stop();
  const backS = await readyAgain(upAt, READY_BACK_BOUND_S);
  // The board on api-1 missed what api-2 committed (no fan-out without Redis); it resubscribes.
  const since = contiguous(board, board.base);
  const replay = await resubscribe(board, venueId, since);
  const current = await versionOf(venueId);
  const got = (replay.events ?? []).map((e) => e.version);
  const want = Array.from({ length: current - since }, (_, k) => since + k + 1);
  const fanOut = await fanOutSeconds(board, venueId, 10);
  board.socket.close();
  const jobs = await jobsWorkAgain();
  const allExpired = await waitAllExpired([...offers.offerIds, ...during.offerIds], 20_000);
  const once = await expiredOnce([...offers.offerIds, ...during.offerIds]);
  const j = joinFigures(answers);
  const integrity = await lostOrDoubled(venueId, answers);
  const readyMs = downReady.filter((r) => r.t >= downAt + 500).map((r) => r);
  const readyWorst = Math.max(0, ...readyMs.map((r) => r.ms));
  const readyDegraded = readyMs.every((r) => degradedFor(r));
  return {
    checks: {
      'every join answered 201 within 5 s': answers.length >= REDIS_OUTAGE_S - 2 && answers.every((a) => a.status === 201 && a.ms <= JOIN_BOUND_MS),
      'no join lost or doubled': integrity.lost.length + integrity.doubled.length + integrity.unanswered.length === 0,
      // Redis down hurts no command: a 503 would take every api process out of the balancer at once.
      '/ready 200 degraded naming redis within 1 s during the outage': readyMs.length > 0 && readyDegraded && readyWorst <= READY_DOWN_BOUND_MS,
      [`/ready 200 ready within ${READY_BACK_BOUND_S} s after`]: backS !== null && backS <= READY_BACK_BOUND_S,
      'logins 201 and wrong passwords 401 (never 500)': logins.join() === '201,401 UNAUTHENTICATED,201,401 UNAUTHENTICATED',
      'the resubscribed board got every event of the outage': replay.events !== undefined && JSON.stringify(got) === JSON.stringify(want),
      'cross-process pushes resumed': fanOut !== null,
      'BullMQ resumed (job queued and run, schedulers back)': jobs.ok,
      'offers made during the outage answered within 1 s': during.slowestMs <= 1000,
      'offers due during the outage expired once each': allExpired && once,
    },
    figures: [
      `Redis down ${REDIS_OUTAGE_S} s; ${j.text}`,
      `/ready during: ${readyMs.length} answers, ${[...new Set(readyMs.map(readyOf))].join('/')}, slowest ${Math.round(readyWorst)} ms; 200 ready again ${backS ?? 'never'} s after Redis returned`,
      `logins during: ${logins.join(', ')}`,
      `board resubscribed since v${since}: ${got.length} events v${got[0] ?? '-'}..v${got.at(-1) ?? '-'} (wanted ${want.length}, ${JSON.stringify(got) === JSON.stringify(want) ? 'all, in order' : 'MISMATCH'})`,
      `cross-process push live again ${fanOut ?? 'never'} s after ready; job queued ${jobs.queued}, run ${jobs.completed}, schedulers ${jobs.schedulers ? 'back' : 'missing'}`,
      `2 offers made during the outage (their expiry jobs refused at once) answered in ≤ ${Math.round(during.slowestMs)} ms; ${offers.offerIds.length + during.offerIds.length} offers due during it: ${allExpired ? 'all expired' : 'NOT all expired'}, ${once ? 'each once' : 'NOT once each'}`,
    ],
  };
}

/** Redis killed and started again twice within a minute, under two joins a second. */
async function redisTwice() {
  const venueId = await newVenue();
  const offers = await liveOffers(10, 6);
  const traffic = joinTraffic(venueId, 500, 'twice');
  const marks = [];
  for (let k = 0; k < 2; k++) {
    await sleep(4000);
    await stopRedis();
    await sleep(1000);
    await startRedis();
    marks.push(performance.now());
  }
  const backS = await readyAgain(marks[1], READY_BACK_BOUND_S);
  await sleep(Math.max(0, 4000 - (performance.now() - marks[1])));
  const answers = await traffic.stop();
  const board = await openBoard(URLS[0], venueId);
  const fanOut = await fanOutSeconds(board, venueId, 10);
  board.socket.close();
  const jobs = await jobsWorkAgain();
  const allExpired = await waitAllExpired(offers.offerIds, 20_000);
  const once = await expiredOnce(offers.offerIds);
  const j = joinFigures(answers);
  const integrity = await lostOrDoubled(venueId, answers);
  return {
    checks: {
      'every join answered 201 within 5 s': answers.every((a) => a.status === 201 && a.ms <= JOIN_BOUND_MS),
      'no join lost or doubled': integrity.lost.length + integrity.doubled.length + integrity.unanswered.length === 0,
      [`/ready 200 ready within ${READY_BACK_BOUND_S} s`]: backS !== null && backS <= READY_BACK_BOUND_S,
      'cross-process pushes resumed': fanOut !== null,
      'BullMQ resumed (job queued and run, schedulers back)': jobs.ok,
      'every offer expired once (jobs lost with Redis: the sweep)': allExpired && once,
    },
    figures: [
      `two Redis restarts ${seconds(marks[1] - marks[0])} s apart; ${j.text}`,
      `/ready 200 ready ${backS ?? 'never'} s after the second; cross-process push live ${fanOut ?? 'never'} s later; job queued ${jobs.queued}, run ${jobs.completed}`,
      `10 offers: ${allExpired ? 'all expired' : 'NOT all expired'}, ${once ? 'each once' : 'NOT once each'}`,
    ],
  };
}

/** Redis frozen (SIGSTOP) for 10 s: connections stay open and commands hang, so only timeouts help. */
async function redisFrozen() {
  const venueId = await newVenue();
  const pid = Number(/process_id:(\d+)/.exec(redisCli('INFO', 'server'))[1]);
  process.kill(pid, 'SIGSTOP');
  const frozenAt = performance.now();
  let during;
  let answers;
  let readyDuring;
  const logins = [];
  try {
    const traffic = joinTraffic(venueId, 1000, 'frozen');
    const ready = readyPoller(2000);
    await sleep(1500);
    for (const u of URLS) logins.push(await req(u, 'POST', '/v1/auth/sessions', { body: OWNER, timeoutMs: JOIN_BOUND_MS }));
    during = await liveOffers(2, 600);
    await sleep(Math.max(0, 10_000 - (performance.now() - frozenAt)));
    readyDuring = (await ready.stop()).filter((r) => r.t >= frozenAt + 200);
    answers = await traffic.stop();
  } finally {
    process.kill(pid, 'SIGCONT');
  }
  const thawedAt = performance.now();
  const backS = await readyAgain(thawedAt, READY_BACK_BOUND_S);
  const j = joinFigures(answers);
  const integrity = await lostOrDoubled(venueId, answers);
  const readyWorst = Math.max(0, ...readyDuring.map((r) => r.ms));
  const loginWorst = Math.max(...logins.map((l) => l.ms));
  return {
    checks: {
      'every join answered 201 within 5 s': answers.length >= 8 && answers.every((a) => a.status === 201 && a.ms <= JOIN_BOUND_MS),
      'no join lost or doubled': integrity.lost.length + integrity.doubled.length + integrity.unanswered.length === 0,
      'offers answered within 1 s': during.slowestMs <= 1000,
      'logins 201 within 1 s': logins.every((l) => l.status === 201 && l.ms <= 1000),
      '/ready 200 degraded naming redis within 1 s': readyDuring.length > 0 && readyDuring.every((r) => degradedFor(r)) && readyWorst <= READY_DOWN_BOUND_MS,
      [`/ready 200 ready within ${READY_BACK_BOUND_S} s after`]: backS !== null && backS <= READY_BACK_BOUND_S,
    },
    figures: [
      `Redis frozen 10 s; ${j.text}; offers answered in ≤ ${Math.round(during.slowestMs)} ms; logins in ≤ ${Math.round(loginWorst)} ms`,
      `/ready during: ${readyDuring.length} answers, ${[...new Set(readyDuring.map(readyOf))].join('/')}, slowest ${Math.round(readyWorst)} ms; 200 ready again ${backS ?? 'never'} s after it resumed`,
    ],
  };
}

/** PostgreSQL stopped for 5 s under two joins a second: 503 UNAVAILABLE, nothing partial, resumption. */
async function postgresRestart() {
  const logFrom = running().map((p) => p.log.length);
  const venueId = await newVenue();
  const offers = await liveOffers(4, 4);
  const traffic = joinTraffic(venueId, 500, 'pg');
  await sleep(2000);
  stopPostgres();
  const downAt = performance.now();
  const ready = readyPoller(1000);
  await sleep(5000);
  const downReady = await ready.stop();
  startPostgres();
  const upAt = performance.now();
  const backS = await readyAgain(upAt, READY_BACK_BOUND_S);
  await sleep(Math.max(0, 4000 - (performance.now() - upAt)));
  const answers = await traffic.stop();
  const bad = answers.filter((a) => !(a.status === 201 || (a.status === 503 && a.body?.error?.code === 'UNAVAILABLE')) || a.ms > JOIN_BOUND_MS);
  const allExpired = await waitAllExpired(offers.offerIds, 25_000);
  const once = await expiredOnce(offers.offerIds);
  const integrity = await lostOrDoubled(venueId, answers);
  const readyDuring = downReady.filter((r) => r.t >= downAt + 200);
  const readyWorst = Math.max(0, ...readyDuring.map((r) => r.ms));
  const after = answers.filter((a) => a.status === 201).length;
  const j = joinFigures(answers);
  // Each process says once that it lost the database and once that it is back, not a line per retry.
  const dbLines = running().map((p, i) => ({
    name: p.name,
    lost: linesSince(p, logFrom[i], 'database unreachable ('),
    back: linesSince(p, logFrom[i], 'database reachable again'),
  }));
  return {
    checks: {
      'every process logged "database unreachable" once and "database reachable again" once': dbLines.every((l) => l.lost === 1 && l.back === 1),
      'every join 201 or 503 UNAVAILABLE within 5 s': bad.length === 0 && answers.some((a) => a.status === 201),
      'no join lost, doubled or half-written': integrity.lost.length + integrity.doubled.length + integrity.unanswered.length === 0,
      '/ready 503 not-ready naming the database within 1 s': readyDuring.length > 0 && readyDuring.every((r) => r.status === 503 && r.body?.status === 'not-ready' && r.body?.checks?.database === 'unreachable') && readyWorst <= READY_DOWN_BOUND_MS,
      [`/ready 200 ready within ${READY_BACK_BOUND_S} s after`]: backS !== null && backS <= READY_BACK_BOUND_S,
      'offers due while it was down expired once each': allExpired && once,
    },
    figures: [
      `PostgreSQL down ${seconds(upAt - downAt)} s; ${j.text}; ${after} committed, all found`,
      `/ready during: ${readyDuring.length} answers, ${[...new Set(readyDuring.map(readyOf))].join('/')}, slowest ${Math.round(readyWorst)} ms; 200 again ${backS ?? 'never'} s after start`,
      `4 offers due while down: ${allExpired ? 'all expired' : 'NOT all expired'}, ${once ? 'each once' : 'NOT once each'}`,
      `log lines "unreachable"/"reachable again": ${dbLines.map((l) => `${l.name} ${l.lost}/${l.back}`).join(', ')}`,
    ],
  };
}

/** The worker killed with -9 while 20 offers fall due; a new one starts 3 s later. */
async function workerKill() {
  const { offerIds } = await liveOffers(20, 2);
  await procs.worker.stop('SIGKILL');
  await sleep(3000); // every offer is now due, and nothing is consuming
  const stillLive = (await sql(`SELECT count(*)::int AS n FROM offers WHERE id = ANY($1::uuid[]) AND state = 'live'`, [offerIds]))[0].n;
  const restartAt = performance.now();
  procs.worker = workerProc();
  const all = await waitAllExpired(offerIds, 20_000);
  const tookS = seconds(performance.now() - restartAt);
  const once = await expiredOnce(offerIds);
  return {
    checks: { 'all 20 expired within 20 s of the restart': all, 'each exactly once': once },
    figures: [`${stillLive} of 20 due offers still live while no worker ran; all expired ${all ? `${tookS} s after the restart` : 'NOT within 20 s'}, ${once ? 'each once' : 'NOT once each'}`],
  };
}

/** api-1 killed with -9 under a connected board: the board moves to api-2 and resyncs by version. */
async function apiKill() {
  const venueId = await newVenue();
  const board = await openBoard(URLS[0], venueId);
  await call(URLS[1], 'POST', `/v1/venues/${venueId}/queue`, { name: 'before', partySize: 1 });
  await sleep(300);
  const last = contiguous(board, board.base);
  const killedAt = performance.now();
  const moved = new Promise((r) => board.socket.once('disconnect', () => r(performance.now())));
  await procs.apis[0].stop('SIGKILL');
  const noticedS = seconds((await moved) - killedAt);
  const answers = [];
  for (let i = 0; i < 3; i++) answers.push(await call(URLS[1], 'POST', `/v1/venues/${venueId}/queue`, { name: `after-${i}`, partySize: 1 }));
  // What the board page does on a disconnect: the next address, then subscribe since its last version.
  const moved2 = await openBoard(URLS[1], venueId, last);
  const resyncS = seconds(performance.now() - killedAt);
  const got = (moved2.ack.events ?? []).map((e) => e.version);
  const current = await versionOf(venueId);
  const want = Array.from({ length: current - last }, (_, k) => last + k + 1);
  moved2.socket.close();
  board.socket.close();
  procs.apis[0] = apiProc(0);
  await waitReady(PORTS[0], procs.apis[0]);
  return {
    checks: {
      'joins on the other process 201': answers.every((a) => a.status === 201),
      'the board resynced every missed event': JSON.stringify(got) === JSON.stringify(want) && want.length === 3,
    },
    figures: [`board moved to api-2 and resynced v${got[0] ?? '-'}..v${got.at(-1) ?? '-'} (${got.length} of ${want.length}): disconnect seen ${noticedS} s, resynced ${resyncS} s after the kill; api-1 restarted`],
  };
}

async function main() {
  const started = performance.now();
  initPostgres();
  startPostgres();
  await startRedis();
  procs.apis.push(apiProc(0));
  await waitReady(PORTS[0], procs.apis[0]);
  procs.apis.push(apiProc(1));
  await waitReady(PORTS[1], procs.apis[1]);
  procs.worker = workerProc();
  await sleep(1500);
  session.token = await login();
  try {
    await drill(`Redis down ${REDIS_OUTAGE_S} s under one join a second`, redisOutage);
    await drill('Redis restarted twice in a minute under traffic', redisTwice);
    await drill('Redis frozen (SIGSTOP) 10 s under traffic', redisFrozen);
    await drill('PostgreSQL restarted under traffic', postgresRestart);
    await drill('kill -9 the worker while offers are due', workerKill);
    await drill('kill -9 an api process with boards connected', apiKill);
  } finally {
    const logs = running().map((p) => `--- ${p.name}\n${p.log.split('\n').filter((l) => !l.includes('"msg":"request completed"')).slice(-15).join('\n')}`);
    for (const p of running()) await p.stop().catch(() => null);
    await sleep(300);
    try {
      stopPostgres();
    } catch {
      // already stopped
    }
    await stopRedis().catch(() => null);
    rmSync(dir, { recursive: true, force: true });
    if (results.some((r) => !r.ok)) process.stdout.write(`\nlast log lines of each process:\n${logs.join('\n')}\n`);
  }
  process.stdout.write('\n| drill | result | seconds | what it measured |\n|---|---|---|---|\n');
  for (const r of results) {
    const what = [...r.figures, ...r.failed.map((f) => `FAILED: ${f}`)].join('<br>');
    process.stdout.write(`| ${r.name} | ${r.ok ? 'PASS' : 'FAIL'} | ${r.seconds} | ${what} |\n`);
  }
  const passed = results.filter((r) => r.ok).length;
  process.stdout.write(`\n${passed} passed, ${results.length - passed} failed (${seconds(performance.now() - started)} s in all)\n`);
  process.exit(passed === results.length && results.length === (ONLY ? results.length : DRILL_COUNT) && results.length > 0 ? 0 : 1);
}

main().catch((err) => {
  process.stderr.write(`${err.stack}\n`);
  process.exit(1);
});
