// npm run bench: starts the stack (two api processes in production mode, a worker, PostgreSQL and
// Redis on loopback), loads it from this separate process, and writes bench/results/latest.json and
// latest.md. Every project figure is paired with its reference from the same run.
import { cpus, totalmem } from 'node:os';
import { mkdirSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { api, login } from './lib/client.mjs';
import { boardFanout, createVenues, expiryPunctuality, joins, lastSeatStorm, offerAccept, scaleWithSize } from './lib/scenarios.mjs';
import { freshDatabase, OWNER, startStack } from './lib/stack.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const quick = process.argv.includes('--quick');

async function main() {
  freshDatabase();
  const { procs, urls, stopRedis } = await startStack({ apis: 2, worker: true, prefix: `bench${process.pid}` });
  const results = { startedAt: new Date().toISOString(), machine: machine(), seconds: SECONDS };
  try {
    const token = await login(urls[0], OWNER.email, OWNER.password);
    const calls = urls.map((u) => api(u, token));
    const call = calls[0];
    const venueIds = await createVenues(call, 64, {});
    results.join = [];
    for (const clients of quick ? [8] : [8, 32]) results.join.push(await joins(calls, venueIds, clients, SECONDS));
    results.offerAccept = await offerAccept(calls, call, 8, SECONDS);
    results.lastSeatStorm = await lastSeatStorm(calls, call, quick ? 1 : 3);
    // The target's figure: every offer made before the first falls due (hold 12 s); then the same
    // with the expiries landing in the middle of the promotion burst (hold 3 s).
    results.expiry = await expiryPunctuality(call, token, urls[1], quick ? 100 : 500, 25, 12);
    results.expiryUnderLoad = await expiryPunctuality(call, token, urls[1], quick ? 100 : 500, 25, 3);
    results.boardFanout = await boardFanout(calls, token, urls, call, quick ? 50 : 200, quick ? 10 : 30);
    results.scale = await scaleWithSize(call, quick ? [10, 1000] : [10, 1000, 10000]);
    results.peakRssMb = Object.fromEntries(procs.map((p) => [p.name, p.peakRssMb()]));
  } catch (err) {
    for (const p of procs) if (p.child.exitCode !== null) process.stderr.write(`${p.name} exited ${p.child.exitCode}:\n${p.log.slice(-3000)}\n`);
    throw err;
  } finally {
    for (const p of procs) await p.stop();
    await stopRedis();
  }
  results.targets = targets(results);
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/latest.json', `${JSON.stringify(results, null, 2)}\n`);
  const md = markdown(results);
  writeFileSync('bench/results/latest.md', md);
  process.stdout.write(md);
}

function machine() {
  let pg = '';
  try {
    pg = execFileSync('psql', ['--version'], { encoding: 'utf8' }).trim();
  } catch {
    pg = 'unknown';
  }
  return { cpus: cpus().length, cpuModel: cpus()[0]?.model, memoryGb: Math.round(totalmem() / 2 ** 30), node: process.version, postgres: pg };
}

function targets(r) {
  const j8 = r.join?.find((j) => j.clients === 8);
  const ok = (b) => (b ? 'met' : 'missed');
  const rss = Object.entries(r.peakRssMb ?? {}).filter(([n]) => n.startsWith('api'));
  return {
    'join throughput ≥ 0.5 × pgbench (8 clients)': { value: j8?.ratio, status: ok((j8?.ratio ?? 0) >= 0.5) },
    'offer p99 < 25 ms (8 clients)': { value: r.offerAccept?.offerMs.p99, status: ok((r.offerAccept?.offerMs.p99 ?? 1e9) < 25) },
    'accept p99 < 25 ms (8 clients)': { value: r.offerAccept?.acceptMs.p99, status: ok((r.offerAccept?.acceptMs.p99 ?? 1e9) < 25) },
    'last seat: exactly one hold per storm': { value: r.lastSeatStorm?.rounds.map((x) => x.holds).join('/'), status: ok(r.lastSeatStorm?.rounds.every((x) => x.holds === 1 && x.other === 0)) },
    'expiry p99 < 500 ms, never early': {
      value: r.expiry?.delayMs.p99,
      status: ok((r.expiry?.delayMs.p99 ?? 1e9) < 500 && r.expiry?.early === 0 && (r.expiryUnderLoad?.early ?? 0) === 0),
    },
    'expiry p99 < 500 ms during the promotion burst': { value: r.expiryUnderLoad?.delayMs.p99, status: ok((r.expiryUnderLoad?.delayMs.p99 ?? 1e9) < 500) },
    'board delivery p99 < 100 ms': { value: r.boardFanout?.delayMs.p99, status: ok((r.boardFanout?.delayMs.p99 ?? 1e9) < 100) },
    'api RSS < 300 MB': { value: rss.map(([n, v]) => `${n} ${v}`).join(', '), status: ok(rss.every(([, v]) => (v ?? 1e9) < 300)) },
  };
}

function markdown(r) {
  const lines = [`# hostboard benchmark`, '', `Run ${r.startedAt} on ${r.machine.cpus} × ${r.machine.cpuModel}, ${r.machine.memoryGb} GB, Node ${r.machine.node}, ${r.machine.postgres}; ${r.seconds} s per load figure.`, ''];
  lines.push('| figure | project | reference | ratio |', '| --- | --- | --- | --- |');
  for (const j of r.join ?? []) {
    lines.push(`| desk joins/s, ${j.clients} clients (p50/p99 ms) | ${j.project.perSecond}/s (${j.project.latencyMs.p50}/${j.project.latencyMs.p99}) | pgbench same SQL: ${j.pgbench.perSecond}/s (avg ${j.pgbench.latencyAvgMs} ms) | ${j.ratio} |`);
  }
  const oa = r.offerAccept;
  if (oa) lines.push(`| offer → accept cycles/s on table venues, ${oa.clients} clients | ${oa.cyclesPerSecond}/s (${oa.errors} failed); offer p50/p99 ${oa.offerMs.p50}/${oa.offerMs.p99} ms; accept ${oa.acceptMs.p50}/${oa.acceptMs.p99} ms | | |`);
  for (const [i, s] of (r.lastSeatStorm?.rounds ?? []).entries()) {
    lines.push(`| last-seat storm ${i + 1}: 200 promotions, 2 api processes | ${s.holds} hold, ${s.cleanRefusals} clean refusals, ${s.other} other; p99 ${s.latencyMs.p99} ms | exactly 1 hold | |`);
  }
  for (const [e, how] of [
    [r.expiry, 'all offers made before the first falls due'],
    [r.expiryUnderLoad, 'falling due during the 20-venue promotion burst'],
  ]) {
    if (e)
      lines.push(
        `| expiry: expiresAt → board event (${e.offers} offers due over ${(e.spanMs / 1000).toFixed(1)} s, ${how}; BullMQ worker) | p50 ${e.delayMs.p50} / p99 ${e.delayMs.p99} / max ${e.delayMs.max} ms; ${e.early} early; ${e.expiredSeen} seen | < 500 ms p99 | |`,
      );
  }
  const f = r.boardFanout;
  if (f) lines.push(`| board fan-out: ${f.boards} boards on 2 api processes | p50 ${f.delayMs.p50} / p99 ${f.delayMs.p99} ms (${f.deliveries} deliveries) | < 100 ms p99 | |`);
  for (const s of r.scale ?? []) {
    lines.push(`| ${s.activeEntries} active entries: join p50/p99, GET /board p50/p99 | join ${s.joinMs.p50}/${s.joinMs.p99} ms; board ${s.boardMs.p50}/${s.boardMs.p99} ms | plan: ${s.activeQueuePlan} | |`);
  }
  lines.push(`| peak RSS (MB) | ${Object.entries(r.peakRssMb ?? {}).map(([n, v]) => `${n} ${v}`).join(', ')} | < 300 MB (api) | |`);
  lines.push('', '## Targets', '', '| target | value | status |', '| --- | --- | --- |');
  for (const [k, v] of Object.entries(r.targets)) lines.push(`| ${k} | ${v.value} | ${v.status} |`);
  return `${lines.join('\n')}\n`;
}

main().catch((err) => {
  process.stderr.write(`${err.stack ?? err}\n`);
  process.exit(1);
});
