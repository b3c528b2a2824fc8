// bench/results/latest.md from the results: the load phases with their cost per request, the join
// ratio, the latency and correctness scenarios, and the targets; the load average by every figure.

const ok = (b) => (b ? 'met' : 'missed');
const times = (a, b, unit = '') => (a && b ? `${a} / ${b}${unit} = ${Math.round((a / b) * 10) / 10}×` : '–');
const load = (l) => (l ? `${l.start} → ${l.end}` : '');

export function targets(r) {
  const rss = Object.entries(r.peakRssMb ?? {}).filter(([n]) => n.startsWith('api') && n !== 'api-primary');
  const t = {
    'join throughput ≥ 0.25 × pgbench, 8 clients (0.5 is the goal)': { value: r.joinRatio, status: ok((r.joinRatio ?? 0) >= 0.25), loadAvg: r.join?.loadAvg },
    'offer p99 < 60 ms (8 clients)': { value: r.offer?.latencyMs.p99, status: ok((r.offer?.latencyMs.p99 ?? 1e9) < 60), loadAvg: r.offer?.loadAvg },
    'accept p99 < 60 ms (8 clients)': { value: r.accept?.latencyMs.p99, status: ok((r.accept?.latencyMs.p99 ?? 1e9) < 60), loadAvg: r.accept?.loadAvg },
    'expiry p99 < 500 ms, never early, every expiry on the board': {
      value: `${r.expiry?.delayMs.p99} ms, ${r.expiry?.early} early, ${r.expiry?.expiredSeen}/${r.expiry?.offers} seen`,
      status: ok(
        (r.expiry?.delayMs.p99 ?? 1e9) < 500 && r.expiry?.early === 0 && (r.expiryUnderLoad?.early ?? 0) === 0 && r.expiry?.expiredSeen === r.expiry?.offers,
      ),
      loadAvg: r.expiry?.loadAvg,
    },
  };
  if (r.expiryUnderLoad) {
    const u = r.expiryUnderLoad;
    t['expiry p99 < 500 ms during the promotion burst'] = { value: `${u.delayMs.p99} ms, ${u.expiredSeen}/${u.offers} seen`, status: ok((u.delayMs.p99 ?? 1e9) < 500 && u.expiredSeen === u.offers), loadAvg: u.loadAvg };
  }
  t['last seat: exactly one hold per storm'] = {
    value: r.lastSeatStorm?.rounds.map((x) => x.holds).join('/'),
    status: ok(r.lastSeatStorm?.rounds.every((x) => x.holds === 1 && x.other === 0)),
    loadAvg: r.lastSeatStorm?.loadAvg,
  };
  t['board delivery p99 < 100 ms, every board every event'] = {
    value: `${r.boardFanout?.delayMs.p99} ms, ${r.boardFanout?.missing} missing`,
    status: ok((r.boardFanout?.delayMs.p99 ?? 1e9) < 100 && r.boardFanout?.missing === 0),
    loadAvg: r.boardFanout?.loadAvg,
  };
  t['api RSS < 300 MB (each api process)'] = { value: rss.map(([n, v]) => `${n} ${v}`).join(', '), status: ok(rss.length > 0 && rss.every(([, v]) => (v ?? 1e9) < 300)) };
  return t;
}

const cell = (v) => (v === undefined || v === null ? '–' : v);
const wireCell = (w) => (w ? `**${w.median}** (${w.min}–${w.max})` : '–');

function phaseRow(name, generator, p, wire) {
  const c = p.cpuMsPerRequest;
  const s = p.perRequest ?? {};
  const pss = s.statements !== null && s.statements !== undefined ? ` (pg_stat_statements ${s.statements})` : '';
  const failed = `${p.failed ?? 0}${p.socketErrors ? ` (socket errors: ${p.socketErrors.trim()})` : ''}`;
  return `| ${name} | ${generator} | ${p.requests} / ${failed} | ${p.perSecond} | ${p.latencyMs ? `${p.latencyMs.p50} / ${p.latencyMs.p99}` : `avg ${p.latencyAvgMs}`} | ${cell(c.api)} · ${cell(c.postgres)} · ${cell(c.worker)} · ${cell(c.redis)} · ${cell(c.loadGenerator)} (${p.loadGeneratorCorePct}% of a core) | ${wireCell(wire)}${pss} · ${cell(s.xacts)} · ${cell(s.scans)} · ${cell(s.rowsWritten)} | ${p.machineBusyPct}% | ${load(p.loadAvg)} |`;
}

/** The stack with no load: CPU ms per second of wall time, not per request. */
function idleRow(p) {
  if (!p) return '';
  const perS = (g) => Math.round((p.cpuMs[g] / p.wallMs) * 1000 * 10) / 10;
  return `| idle, no load (${(p.wallMs / 1000).toFixed(1)} s) | – | – | – | – | per second, not per request: ${perS('api')} · ${perS('postgres')} · ${perS('worker')} · ${perS('redis')} · – | – | ${p.machineBusyPct}% | ${load(p.loadAvg)} |`;
}

export function markdown(r) {
  const m = r.machine;
  const w = r.statementsOnWire;
  const lines = [
    '# hostboard benchmark',
    '',
    `Run ${r.startedAt} on ${m.cpus} × ${m.cpuModel}, ${m.memoryGb} GB, Node ${m.node}, ${m.postgres}; api: \`--cores\`, ${r.apiProcesses} api process(es), a worker, the bench's own Redis; ${r.settings.clients} clients, ${r.settings.venues} venues; ${r.settings.seconds} s for the join and its reference, ${r.settings.shortSeconds} s for offers and board reads; the whole run took ${r.durationS} s. Load average: 1-minute value at the start → end of each figure (the machine has ${m.cpus} cores and is shared).`,
    '',
    '## Join ratio',
    '',
    '| api desk joins/s (wrk) | pgbench join-tx.sql tps, same concurrency | ratio | PostgreSQL CPU per join ÷ per reference transaction | statements per join ÷ per reference transaction | load avg |',
    '| --- | --- | --- | --- | --- | --- |',
    `| ${r.join.perSecond} | ${r.reference.perSecond} | **${r.joinRatio}** | ${times(r.join.cpuMsPerRequest.postgres, r.reference.cpuMsPerRequest.postgres, ' ms')} | ${times(r.statementsOnWire?.join.median, 9)} | ${load(r.join.loadAvg)} (api); ${load(r.reference.loadAvg)} (pgbench) |`,
    '',
    '## Load phases: cost per request',
    '',
    `CPU from /proc/<pid>/stat ticks around each phase (ms per successful request): the api processes (primary + cluster), this database's PostgreSQL backends, the worker, the bench's Redis, and the load generator (wrk, pgbench or this Node process). Per request: the statements the api sends, counted on the wire by a probe api (median of ${r.statementsOnWire?.requestsEach ?? '–'} requests one at a time, min–max; the worker's statements not included; pgbench's are its script's)${
      r.statementSource === 'pg_stat_statements' ? ', pg_stat_statements calls over the phase,' : ' (pg_stat_statements is not preloaded on this server),'
    } then, over the whole phase and every client of the database, transactions (pg_stat_database xact_commit + xact_rollback: a statement outside BEGIN … COMMIT is a transaction of its own) · table scans started (seq_scan + idx_scan over pg_stat_user_tables: one per table a statement reads or a foreign key checks, and one per outer row on a nested loop's inner side) · rows written (n_tup_ins + n_tup_upd + n_tup_del). The pgbench row is the yardstick: its transaction is 9 statements (BEGIN, 7 reads and writes, COMMIT). "machine busy" counts every process on the machine, other sessions included.`,
    '',
    '| phase | load generator | requests ok / failed | per s | p50 / p99 ms | CPU ms/request: api · PostgreSQL · worker · Redis · generator | per request: statements (wire) · transactions · scans · rows written | machine busy | load avg |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    phaseRow('reference: join-tx.sql', 'pgbench -M prepared', r.reference, { median: 9, min: 9, max: 9 }),
    idleRow(r.idle),
    phaseRow('desk join POST /queue', 'wrk join-load.lua', r.join, w?.join),
    phaseRow('offer POST /offers', 'Node client', r.offer, w?.offer),
    phaseRow('accept POST /offers/:id/accept', 'Node client', r.accept, w?.accept),
    phaseRow('board read GET /board', 'wrk board-load.lua', r.board, w?.board),
    '',
    '## Latency and correctness',
    '',
    '| figure | result | target | load avg |',
    '| --- | --- | --- | --- |',
  ];
  for (const [i, s] of (r.lastSeatStorm?.rounds ?? []).entries()) {
    lines.push(`| last-seat storm ${i + 1}: 200 promotions for one seat | ${s.holds} hold, ${s.cleanRefusals} clean refusals, ${s.other} other${s.other ? ` (HTTP ${JSON.stringify(s.otherStatuses)})` : ''}; p99 ${s.latencyMs.p99} ms | exactly 1 hold | ${load(r.lastSeatStorm.loadAvg)} |`);
  }
  for (const [e, how] of [
    [r.expiry, 'all offers made before the first falls due'],
    [r.expiryUnderLoad, 'falling due during the 20-venue promotion burst'],
  ]) {
    if (e)
      lines.push(
        `| expiry: expiresAt → board event (${e.offers} offers due over ${(e.spanMs / 1000).toFixed(1)} s, ${how}; BullMQ worker) | p50 ${e.delayMs.p50} / p99 ${e.delayMs.p99} / max ${e.delayMs.max} ms; ${e.early} early; ${e.expiredSeen} of ${e.offers} seen on the board (${e.expiredInDb} expired in the database; subscribes refused: ${e.refused} (rate-limited and retried: ${e.rateLimitedRetries}); socket disconnects: ${JSON.stringify(e.disconnects ?? {})}) | < 500 ms p99, all seen | ${load(e.loadAvg)} |`,
      );
  }
  const f = r.boardFanout;
  if (f)
    lines.push(
      `| board fan-out: ${f.boards} boards on one venue (10 per staff login), ${f.changes} changes (${f.versions} events) | p50 ${f.delayMs.p50} / p99 ${f.delayMs.p99} ms; ${f.deliveries} deliveries, **${f.missing} missing** (boards that got none: ${f.silent}, some: ${f.partial}; subscribes refused: ${f.refused} (rate-limited and retried: ${f.rateLimitedRetries}); disconnects: ${JSON.stringify(f.disconnects)}) | < 100 ms p99, none missing | ${load(f.loadAvg)} |`,
    );
  for (const s of r.scale?.sizes ?? []) {
    lines.push(`| ${s.activeEntries} active entries: join p50/p99, GET /board p50/p99 | join ${s.joinMs.p50}/${s.joinMs.p99} ms; board ${s.boardMs.p50}/${s.boardMs.p99} ms; plan: ${s.activeQueuePlan} | | ${load(r.scale.loadAvg)} |`);
  }
  lines.push(`| peak RSS (MB) | ${Object.entries(r.peakRssMb ?? {}).map(([n, v]) => `${n} ${v}`).join(', ')} | < 300 MB (api) | |`);
  lines.push('', '## Targets', '', '| target | value | status | load avg |', '| --- | --- | --- | --- |');
  for (const [k, v] of Object.entries(r.targets)) lines.push(`| ${k} | ${v.value} | ${v.status} | ${load(v.loadAvg)} |`);
  return `${lines.join('\n')}\n`;
}
