// The C load generators: wrk for the api, pgbench for the reference. Each runs under bash so that
// `times` reports the CPU it used itself (the load generator's share of the two cores is a figure).
import { spawn } from 'node:child_process';

/** Runs `cmd args` to the end; answers its stdout and the CPU ms it (and its children) used. */
export function runWithCpu(cmd, args, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', '"$@"; s=$?; times >&2; exit $s', 'bash', cmd, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      // `times` prints the shell's own user/system times, then its children's.
      const lines = err.trim().split('\n');
      const children = lines.at(-1) ?? '';
      const secs = [...children.matchAll(/(\d+)m([\d.]+)s/g)].reduce((a, m) => a + Number(m[1]) * 60 + Number(m[2]), 0);
      if (code !== 0) reject(new Error(`${cmd} exited ${code}: ${lines.slice(0, -2).join('\n')}\n${out}`));
      else resolve({ stdout: out, cpuMs: Math.round(secs * 1000) });
    });
  });
}

const UNIT_MS = { us: 0.001, ms: 1, s: 1000, m: 60000 };
const ms = (text) => {
  const m = /([\d.]+)(us|ms|s|m)\b/.exec(text ?? '');
  return m ? Math.round(Number(m[1]) * UNIT_MS[m[2]] * 100) / 100 : null;
};

/** wrk -t 2 -c <clients> -d <seconds>s --timeout 10s --latency -s <script> <url>; answers counts and latencies. */
export async function wrk({ url, script, clients, seconds, env }) {
  // --timeout 10s: wrk's default (2 s) would drop a slow answer on a busy machine as a socket error
  // and cut the latency distribution at 2 s.
  const args = ['-t', '2', '-c', String(clients), '-d', `${seconds}s`, '--timeout', '10s', '--latency', '-s', script, url];
  const { stdout, cpuMs } = await runWithCpu('wrk', args, env);
  const done = /(\d+) requests in ([\d.]+)(us|ms|s|m),/.exec(stdout);
  const requests = Number(done?.[1] ?? 0);
  const elapsedS = done ? (Number(done[2]) * UNIT_MS[done[3]]) / 1000 : seconds;
  const failed = Number(/Non-2xx or 3xx responses: (\d+)/.exec(stdout)?.[1] ?? 0);
  const socketErrors = /Socket errors: (.*)/.exec(stdout)?.[1] ?? null;
  const ok = requests - failed;
  return {
    requests,
    ok,
    failed,
    socketErrors,
    perSecond: Math.round(ok / elapsedS),
    latencyMs: { p50: ms(/^\s+50%\s+(\S+)/m.exec(stdout)?.[1]), p90: ms(/^\s+90%\s+(\S+)/m.exec(stdout)?.[1]), p99: ms(/^\s+99%\s+(\S+)/m.exec(stdout)?.[1]) },
    loadGeneratorCpuMs: cpuMs,
    raw: stdout,
  };
}

/** pgbench -n -M prepared, the reference's way; answers tps, latency and the client's CPU. */
export async function pgbench({ dbUrl, script, clients, seconds, venues }) {
  const args = ['-n', '-M', 'prepared', '-c', String(clients), '-j', '2', '-T', String(seconds), '-D', `venues=${venues}`, '-f', script, dbUrl];
  const { stdout, cpuMs } = await runWithCpu('pgbench', args);
  return {
    transactions: Number(/number of transactions actually processed: (\d+)/.exec(stdout)?.[1] ?? 0),
    perSecond: Math.round(Number(/tps = ([\d.]+)/.exec(stdout)?.[1] ?? 0)),
    latencyAvgMs: Number(/latency average = ([\d.]+) ms/.exec(stdout)?.[1] ?? 0),
    failed: Number(/number of failed transactions: (\d+)/.exec(stdout)?.[1] ?? 0),
    loadGeneratorCpuMs: cpuMs,
  };
}
