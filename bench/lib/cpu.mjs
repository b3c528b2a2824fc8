// CPU seconds from /proc: per process (utime + stime ticks of /proc/<pid>/stat), per group of
// processes (the api cluster, PostgreSQL's backends of one database, the worker, the load
// generator), the machine as a whole (/proc/stat) and the load average. The machine is shared, so a
// figure per request from ticks says more than a throughput.
import { readdirSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

export const HZ = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** utime + stime of one process in ticks, or null once it is gone. */
export function ticks(pid) {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name sits in parentheses and may hold spaces: count the fields after the last ')'.
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return Number(f[11]) + Number(f[12]);
  } catch {
    return null;
  }
}

function pids() {
  return readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map(Number);
}

function ppid(pid) {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(s.slice(s.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
}

/** The process and its direct children: node:cluster's primary and its api processes. */
export function withChildren(pid) {
  return [pid, ...pids().filter((p) => ppid(p) === pid)];
}

const backendTitle = new Map();
/**
 * PostgreSQL backends serving one database, found by their process title
 * ("postgres: 15/main: <user> <db> 127.0.0.1(port) idle"); a pid's database never changes, so the
 * answer per pid is kept and only new pids are read.
 */
export function pgBackends(db) {
  const re = new RegExp(`^postgres: (?:[^:]+: )?\\S+ ${db} `);
  const out = [];
  for (const p of pids()) {
    let title = backendTitle.get(p);
    if (title === undefined) {
      try {
        title = readFileSync(`/proc/${p}/cmdline`, 'utf8').replaceAll('\0', ' ');
      } catch {
        title = '';
      }
      backendTitle.set(p, title);
    }
    if (re.test(title)) out.push(p);
  }
  return out;
}

export function loadavg() {
  const [one, five, fifteen] = readFileSync('/proc/loadavg', 'utf8').split(' ').map(Number);
  return { one, five, fifteen };
}

/** Busy and total ticks of the whole machine (all cores), from the first line of /proc/stat. */
export function machineTicks() {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const idle = f[3] + (f[4] ?? 0);
  const total = f.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

/**
 * CPU of named groups of processes over one phase. Each group is a function answering its pids
 * now; a pid first seen after the start is a new process and counts from zero (PostgreSQL backends
 * of pgbench, a pool connection opened mid-phase), and the last reading of a pid that ends before
 * the stop is kept, which is why the meter polls (pgbench's backends end with it).
 */
export class CpuMeter {
  constructor(groups, pollMs = 200) {
    this.groups = groups;
    this.pollMs = pollMs;
  }

  start() {
    this.seen = Object.fromEntries(Object.keys(this.groups).map((g) => [g, new Map()]));
    for (const [g, list] of Object.entries(this.groups)) for (const p of list()) this.seen[g].set(p, { first: ticks(p) ?? 0, last: ticks(p) ?? 0 });
    this.machine0 = machineTicks();
    this.t0 = performance.now();
    this.timer = setInterval(() => this.poll(), this.pollMs);
    return this;
  }

  poll() {
    for (const [g, list] of Object.entries(this.groups)) {
      for (const p of list()) {
        const t = ticks(p);
        if (t === null) continue;
        const s = this.seen[g].get(p);
        if (s) s.last = t;
        else this.seen[g].set(p, { first: 0, last: t });
      }
    }
  }

  /** CPU milliseconds per group, the wall time, and how busy the whole machine was meanwhile. */
  stop() {
    this.poll();
    clearInterval(this.timer);
    const wallMs = performance.now() - this.t0;
    const m = machineTicks();
    const cpuMs = {};
    for (const [g, s] of Object.entries(this.seen)) cpuMs[g] = Math.round(([...s.values()].reduce((a, x) => a + x.last - x.first, 0) * 1000) / HZ);
    const busy = m.busy - this.machine0.busy;
    const total = m.total - this.machine0.total;
    return { wallMs: Math.round(wallMs), cpuMs, machineBusyPct: total > 0 ? Math.round((busy / total) * 100) : null };
  }
}
