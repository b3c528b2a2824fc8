// Sums a V8 .cpuprofile by owner: each node_modules package (@nestjs/core, typeorm, pg, …), our own
// dist/libs/<lib> and dist/apps/<app>, Node's internals, and V8's own entries (garbage collector, idle,
// program). Native functions (no script: `writev`, a JSON parse) are counted under the owner of the
// nearest caller that has a script, and their share is shown apart.
//
// Usage: node bench/profile-by-package.mjs PROFILE.cpuprofile [PHASES.json [PHASE-SUBSTRING]] [--top=N] [--layers]
// PHASES.json is what `PHASES_FILE=… node bench/request-cpu.mjs` writes; with it only the samples
// inside the phase whose label contains PHASE-SUBSTRING (default "join") are counted. --layers groups
// the packages into the layers a request passes (Nest, Fastify, validation, TypeORM, node-postgres, …).
//
// Three views, each in % of the busy samples (not idle) and in ms per request when PHASES.json is given:
// - self: where the CPU sat (the leaf frame's owner);
// - inclusive: samples with the owner anywhere on the stack (an async continuation's stack starts at
//   the microtask queue, so "inclusive" is per synchronous run, not per await chain);
// - entry: the outermost owner on the stack that is not Node's internals: who the event loop called
//   into (a socket's data for pg-protocol, a resolved promise for whoever awaited).
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const top = Number(process.argv.find((a) => a.startsWith('--top='))?.slice(6) ?? 25);
const [profileFile, phasesFile, phaseName = 'join'] = args;
if (!profileFile) {
  console.error('usage: node bench/profile-by-package.mjs PROFILE.cpuprofile [PHASES.json [PHASE]] [--top=N]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(profileFile, 'utf8'));

let window = null;
let requests = 0;
if (phasesFile) {
  const { windows } = JSON.parse(readFileSync(phasesFile, 'utf8'));
  const w = windows.find((x) => x.label.includes(phaseName));
  if (!w) throw new Error(`no phase matching "${phaseName}" in ${phasesFile}`);
  window = w;
  requests = w.requests ?? 0;
}

const special = new Set(['(garbage collector)', '(idle)', '(program)', '(root)']);
function ownerOfUrl(url) {
  if (!url) return null;
  if (url.startsWith('node:')) return 'node internals';
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const parts = url.slice(nm + 14).split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  const dist = url.match(/\/dist\/((?:libs|apps)\/[^/]+)\//);
  if (dist) return `ours: ${dist[1]}`;
  return `other: ${url.replace(/^file:\/\//, '')}`;
}

// Owners grouped into the layers a request passes (--layers): what is not listed keeps its own name.
const LAYERS = [
  ['Nest (core, common, platform-fastify, rxjs, reflect-metadata)', /^(@nestjs\/|rxjs$|reflect-metadata$)/],
  [
    'Fastify (fastify, find-my-way, middie, light-my-request, avvio)',
    /^(fastify$|find-my-way$|@fastify\/|light-my-request$|avvio$)/,
  ],
  [
    'validation (class-validator, validator, class-transformer, libphonenumber-js)',
    /^(class-validator|validator|class-transformer|libphonenumber-js)$/,
  ],
  ['TypeORM', /^typeorm$/],
  [
    'node-postgres (pg, pg-protocol, pg-pool, pg-types, postgres-*)',
    /^(pg|pg-protocol|pg-pool|pg-types|pg-connection-string|postgres-.*|packet-reader|buffer-writer)$/,
  ],
  [
    'board publish (socket.io*, engine.io, ws, redis adapter, notepack.io, ioredis, redis-parser)',
    /^(socket\.io.*|@socket\.io\/.*|engine\.io.*|ws|notepack\.io|ioredis|redis-parser|redis-errors|denque|cluster-key-slot|standard-as-callback|debug|ms)$/,
  ],
  [
    'logging and metrics (pino, sonic-boom, prom-client)',
    /^(pino.*|sonic-boom|prom-client|thread-stream|quick-format-unescaped|atomic-sleep|on-exit-leak-free|safe-stable-stringify|tdigest|bintrees)$/,
  ],
  ['luxon', /^luxon$/],
  ['ours (dist/libs, dist/apps)', /^ours: /],
];
const layers = process.argv.includes('--layers');
const layerOf = (owner) => (layers ? (LAYERS.find(([, re]) => re.test(owner))?.[0] ?? owner) : owner);

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

// Per node: its self owner, whether native, its stack's owners (set) and its entry owner. Memoised.
const info = new Map();
function describe(id) {
  if (info.has(id)) return info.get(id);
  const n = byId.get(id);
  const cf = n.callFrame;
  const up = parent.has(id) ? describe(parent.get(id)) : null;
  let owner;
  let native = false;
  if (special.has(cf.functionName) && !cf.url) owner = cf.functionName;
  else {
    owner = cf.url ? layerOf(ownerOfUrl(cf.url)) : null;
    if (!owner) {
      native = true;
      owner = up?.scriptOwner ?? '(native, no caller)';
    }
  }
  const scriptOwner = native || special.has(owner) ? (up?.scriptOwner ?? null) : owner;
  const stack = new Set(up?.stack ?? []);
  if (!special.has(owner)) stack.add(owner);
  let entry = up?.entry ?? null;
  if (!entry && !special.has(owner) && owner !== 'node internals' && !native) entry = owner;
  const d = {
    owner,
    native,
    scriptOwner,
    stack,
    entry,
    name: cf.functionName || '(anonymous)',
    url: cf.url,
    line: cf.lineNumber,
  };
  info.set(id, d);
  return d;
}

// Sample times: startTime plus the running sum of timeDeltas (µs, the monotonic clock).
const { samples, timeDeltas } = profile;
let t = profile.startTime;
const counted = [];
for (let i = 0; i < samples.length; i++) {
  t += timeDeltas[i];
  const next = i + 1 < samples.length ? timeDeltas[i + 1] : 0;
  if (window && (t < window.startUs || t > window.endUs)) continue;
  // Each sample stands for the interval up to the next one.
  counted.push({ id: samples[i], us: Math.max(0, next) });
}
// On a busy machine the sampler's interval stretches when the process waits for a core, and one
// sample then stands for a long wait (100 ms was seen at load 10): a sample counts for at most twice
// the median interval, so the shares are of samples, not of preemptions.
const sorted = counted.map((c) => c.us).sort((a, b) => a - b);
const cap = 2 * (sorted[sorted.length >> 1] ?? 0);
const uncapped = sorted.reduce((s, v) => s + v, 0);
for (const c of counted) c.us = Math.min(c.us, cap);

const self = new Map();
const selfNative = new Map();
const incl = new Map();
const entry = new Map();
const fns = new Map();
let total = 0;
let idle = 0;
const add = (m, k, v) => m.set(k, (m.get(k) ?? 0) + v);
for (const { id, us } of counted) {
  const d = describe(id);
  total += us;
  add(self, d.owner, us);
  if (d.owner === '(idle)') {
    idle += us;
    continue;
  }
  if (d.native) add(selfNative, d.owner, us);
  for (const o of d.stack) add(incl, o, us);
  add(entry, special.has(d.owner) ? d.owner : (d.entry ?? 'node internals only'), us);
  add(
    fns,
    `${d.name} ${d.url.replace(/^.*\/(node_modules|dist)\//, '')}:${d.line + 1} [${d.owner}${d.native ? ', native' : ''}]`,
    us,
  );
}
const busy = total - idle;
const pct = (v) => ((100 * v) / busy).toFixed(1);
const perReq = (v) => (requests ? (v / 1000 / requests).toFixed(3) : '');

console.log(
  `${profileFile}${window ? `, phase "${window.label}"` : ''}: ${(total / 1e6).toFixed(2)} s sampled, ` +
    `idle ${((100 * idle) / total).toFixed(1)} %, busy ${(busy / 1e6).toFixed(2)} s` +
    (requests ? ` (${(busy / 1000 / requests).toFixed(3)} ms per request on the main thread)` : ''),
);
console.log(
  `${counted.length} samples; each counted for at most ${cap} µs (${((uncapped - total) / 1e6).toFixed(2)} s of stretched intervals dropped)`,
);
const table = (title, m, extra) => {
  const rows = [...m].filter(([k]) => k !== '(idle)').sort((a, b) => b[1] - a[1]);
  console.log(`\n${title}`);
  console.log(`| owner | % of busy | ms per request${extra ? ` | ${extra.title}` : ''} |`);
  console.log(`| --- | --- | ---${extra ? ' | ---' : ''} |`);
  for (const [k, v] of rows.slice(0, top)) {
    console.log(`| ${k} | ${pct(v)} | ${perReq(v)}${extra ? ` | ${extra.cell(k)}` : ''} |`);
  }
  const rest = rows.slice(top).reduce((s, [, v]) => s + v, 0);
  if (rest) console.log(`| (${rows.length - top} more) | ${pct(rest)} | ${perReq(rest)}${extra ? ' | ' : ''} |`);
};
table('Self time by owner', self, {
  title: 'of it native (% of busy)',
  cell: (k) => (selfNative.has(k) ? pct(selfNative.get(k)) : ''),
});
table('Inclusive: samples with the owner on the stack', incl);
table('Entry: the outermost owner that is not Node internals', entry);
table('Functions by self time', fns);
