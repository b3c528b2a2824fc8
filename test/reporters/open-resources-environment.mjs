// Jest's node environment, plus a check at the end of each test file: what the file opened and did
// not close (a server, a socket, a child process, a timer) keeps its worker alive, and Jest then says
// only "A worker process has failed to exit gracefully", naming no file. This names the file.
import { TestEnvironment } from 'jest-environment-node';
import { disableAsyncStores } from './async-stores.mjs';
import { startCpuProfile, stopCpuProfile } from './cpu-profile.mjs';

/** Resources the process holds, by type (TCPWrap, Timeout, ProcessWrap, ...), counted. */
function held() {
  const counts = new Map();
  for (const type of process.getActiveResourcesInfo()) counts.set(type, (counts.get(type) ?? 0) + 1);
  return counts;
}

function extra(before, after) {
  const left = [];
  for (const [type, n] of after) {
    // An unref'd timer does not keep the worker alive; getActiveResourcesInfo counts only ref'd ones.
    const more = n - (before.get(type) ?? 0);
    if (more > 0) left.push(`${more} × ${type}`);
  }
  return left;
}

/** The message jest-worker sends a worker when the run is over (CHILD_MESSAGE_END). */
const WORKER_END = 2;

/**
 * Once per worker process: when the run is over, the worker must exit by itself within 500 ms or Jest
 * kills it ("A worker process has failed to exit gracefully", naming nothing). If it is still alive
 * 400 ms after the end message, say what holds it, and which file it ran last; if Jest has to kill
 * it, say how long after the end and whether its event loop was stalled (a busy loop cannot exit,
 * and holds no handle to show).
 */
function watchWorkerEnd() {
  if (process.hostboardWatchingEnd || typeof process.send !== 'function') return;
  process.hostboardWatchingEnd = true;
  const say = (text) => process.stderr.write(`\n[open resources] worker ${process.pid} ${text}, after ${process.hostboardLastFile}\n`);
  const onMessage = (message) => {
    if (!Array.isArray(message) || message[0] !== WORKER_END) return;
    // A 'message' listener keeps the IPC channel, and so the worker, alive: let go of it now.
    process.removeListener('message', onMessage);
    const endAt = performance.now();
    let beatAt = endAt;
    let stall = 0;
    setInterval(() => {
      stall = Math.max(stall, performance.now() - beatAt);
      beatAt = performance.now();
    }, 10).unref();
    setTimeout(() => say(`still alive at the end of the run: ${process.getActiveResourcesInfo().join(', ')}`), 400).unref();
    process.once('SIGTERM', () => {
      const now = performance.now();
      say(
        `killed by Jest ${Math.round(now - endAt)} ms after the end of the run; longest event-loop stall since ` +
          `${Math.round(Math.max(stall, now - beatAt))} ms; holding: ${process.getActiveResourcesInfo().join(', ') || 'nothing'}`,
      );
      process.exit(143);
    });
  };
  process.on('message', onMessage);
}

export default class OpenResourcesEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.testPath = context.testPath;
    watchWorkerEnd();
  }

  async setup() {
    await startCpuProfile();
    // A worker opens its stdout and stderr pipes on their first use (with --json, later than usual):
    // open them now, so the file that happens to write first is not reported for leaving a pipe open.
    void process.stdout.fd;
    void process.stderr.fd;
    await super.setup();
    this.before = held();
  }

  async teardown() {
    process.hostboardLastFile = this.testPath;
    // Sockets and servers finish closing on the next turns of the event loop: give them a moment.
    let left = extra(this.before, held());
    for (let i = 0; i < 20 && left.length > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50).unref());
      left = extra(this.before, held());
    }
    if (left.length > 0) {
      process.stderr.write(`\n[open resources] ${this.testPath} left open: ${left.join(', ')}\n`);
    }
    await super.teardown();
    disableAsyncStores();
    await stopCpuProfile(this.testPath);
  }
}
