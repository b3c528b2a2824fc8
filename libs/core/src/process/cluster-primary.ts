import cluster, { type Worker } from 'node:cluster';
import { availableParallelism } from 'node:os';
import type { AppConfig } from '../config/app-config.js';
import { answerMetricsRequests } from '../health/cluster-metrics.js';

/**
 * How many api processes to run: API_PROCESSES when set; else, when started with `--cores` (what
 * `npm start` passes) on PostgreSQL + Redis, one per core; else one. A plain `node main.js` (tests,
 * drills, compose) stays one process, so a pid is one api.
 */
export function apiProcessCount(config: AppConfig, argv: readonly string[]): number {
  if (config.API_PROCESSES !== undefined) return config.API_PROCESSES;
  return argv.includes('--cores') && !config.embedded && config.REDIS_URL ? availableParallelism() : 1;
}

/**
 * How many worker processes to run: WORKER_PROCESSES when set; else one per core when started with
 * `--cores`; else one (`npm run start:worker`). BullMQ hands each job to one of them; a sweep takes
 * the venue lock, so two never collide. Not the default: on two shared cores a second worker made
 * expiry slower (p50 about 250 ms instead of 50: the processes take turns on the same venues' locks
 * and compete with the api and PostgreSQL for the cores; docs/benchmarks.md, "Worker processes").
 */
export function workerProcessCount(config: AppConfig, argv: readonly string[]): number {
  if (config.WORKER_PROCESSES !== undefined) return config.WORKER_PROCESSES;
  return argv.includes('--cores') ? availableParallelism() : 1;
}

export interface ReadyMessage {
  type: 'hostboard:listening';
  banner: string;
}

/** Which processes a primary runs: how it names them in its lines and banner. */
export interface PrimaryOptions {
  /** "api" or "worker". */
  label: string;
  /** The banner's last line, after every process is ready: how many and why. */
  summary: (count: number) => string;
}

const isReady = (message: unknown): message is ReadyMessage =>
  typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'hostboard:listening';

/**
 * The primary of `npm start` on several cores: it serves nothing itself. It starts one api process
 * first and the rest once that one listens, so migrations and the bootstrap owner run once and not as
 * a race; it restarts a process that dies (after a second, so a crash loop cannot spin a core), and
 * passes SIGTERM/SIGINT on. node:cluster hands each new TCP connection to one process; the board
 * socket is websocket-only, so a board's whole connection stays on the process that accepted it, and
 * the socket.io Redis adapter carries board events between processes.
 */
export function runPrimary(
  count: number,
  print: (line: string) => void,
  options: PrimaryOptions = {
    label: 'api',
    summary: (n) => `  api processes:   ${n} (node:cluster, one per core unless API_PROCESSES says otherwise)\n`,
  },
): void {
  let stopping = false;
  let announced = false;
  const start = (): Worker => cluster.fork({ HOSTBOARD_CLUSTER_WORKER: '1', HOSTBOARD_CLUSTER_SIZE: String(count) });

  // A scrape of /metrics reaches one process; the primary gathers the others' figures for it.
  answerMetricsRequests();
  let listening = 0;
  cluster.on('message', (_worker, message: unknown) => {
    if (!isReady(message) || announced) return;
    listening += 1;
    if (listening === 1) for (let i = 1; i < count; i++) start();
    if (listening < count) return;
    // Printed once every process listens, so what the banner promises is true when it appears.
    announced = true;
    print(`${message.banner}${options.summary(count)}`);
  });
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    if (listening === 0) {
      // The first process never came up (a bad database URL, a failed migration): restarting it would
      // only repeat the error, so end with its code; its own lines said why.
      process.exit(code || 1);
    }
    print(`${options.label} process ${worker.process.pid} ended (${signal ?? `exit ${code}`}); starting another\n`);
    setTimeout(() => {
      if (!stopping) start();
    }, 1000).unref();
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      stopping = true;
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
      setTimeout(() => process.exit(0), 10_000).unref();
      cluster.on('exit', () => {
        if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      });
    });
  }
  start();
}

/** In a cluster worker: tell the primary this process is ready (it prints the banner once). */
export function reportListening(banner: string): boolean {
  if (!cluster.isWorker || !process.send) return false;
  const message: ReadyMessage = { type: 'hostboard:listening', banner };
  process.send(message);
  return true;
}

/**
 * This process's share of a budget the processes of its cluster split (warm database connections):
 * the whole of it outside a cluster, else ⌈total ÷ processes⌉, at least one when the budget is not 0.
 */
export function clusterShare(total: number, env: Record<string, string | undefined> = process.env): number {
  const size = clusterSize(env);
  if (total <= 0 || size <= 1) return Math.max(0, total);
  return Math.ceil(total / size);
}

/** How many processes this one's cluster has (1 outside a cluster). */
export function clusterSize(env: Record<string, string | undefined> = process.env): number {
  const size = Number(env['HOSTBOARD_CLUSTER_SIZE']);
  return Number.isInteger(size) && size > 1 ? size : 1;
}
