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

/**
 * The embedded database's runtime cache (see libs/persistence/src/embedded/embedded-database.ts),
 * one per worker process and handed to every test file's global: each file evaluates the app's
 * modules afresh, and Node 20 keeps every file's module graph alive, so a cache kept per file held
 * another 26 MB image and 6 MB bundle for each file a worker ran, and read and copied them again.
 */
const EMBEDDED_RUNTIME_CACHE = Symbol.for('hostboard.embedded-runtime');
const embeddedRuntimeCache = {};

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

/**
 * Past this much heap a worker gives up its place before its next file. Each file leaves its module
 * graph behind (Node 20 never frees a `vm.SourceTextModule`: nodejs/node#59118), about 32 MB a file
 * here, and a worker's files slow down as its heap grows. Jest's own `workerIdleMemoryLimit` does the
 * same after a file, but races the end of the run: when the last file crosses it, Jest replaces the
 * worker while it is already ending, never sends the new one the end message, and kills it 500 ms
 * later ("A worker process has failed to exit gracefully"). A worker that exits at the start of a
 * file cannot meet the end of the run (that file is still to run), and Jest gives the file to a
 * fresh worker, as it does after any worker's unexpected exit.
 */
const HEAP_LIMIT_BYTES = Number(process.env.TEST_WORKER_HEAP_MB ?? 600) * 1024 * 1024;
/** Not 0: jest-worker restarts a worker that exits with any other code, and re-sends its file. */
const RECYCLE_EXIT_CODE = 75;

function recycleIfHeavy() {
  if (typeof process.send !== 'function' || process.memoryUsage().heapUsed <= HEAP_LIMIT_BYTES) return;
  process.exit(RECYCLE_EXIT_CODE);
}

/**
 * `TEST_HEAP_LOG=1` (with `node --expose-gc` running Jest): after each file, the worker's heap once
 * the garbage is collected; `TEST_HEAP_SNAPSHOT=<folder>` also writes a heap snapshot there after
 * each file, to compare two of them and find what a file left behind.
 */
async function reportHeap(testPath) {
  if (!process.env.TEST_HEAP_LOG || typeof global.gc !== 'function') return;
  // Sockets closed in teardown release their buffers on the next turns of the loop.
  await new Promise((resolve) => setTimeout(resolve, 100).unref());
  global.gc();
  const files = (process.hostboardFilesRun = (process.hostboardFilesRun ?? 0) + 1);
  const mb = Math.round(process.memoryUsage().heapUsed / 1048576);
  process.stderr.write(`\n[heap] worker ${process.pid}, file ${files}: ${mb} MB after ${testPath}\n`);
  if (process.env.TEST_HEAP_SNAPSHOT) {
    const { writeHeapSnapshot } = await import('node:v8');
    writeHeapSnapshot(`${process.env.TEST_HEAP_SNAPSHOT}/worker-${process.pid}-file-${files}.heapsnapshot`);
  }
}

export default class OpenResourcesEnvironment extends TestEnvironment {
  constructor(config, context) {
    recycleIfHeavy();
    super(config, context);
    this.testPath = context.testPath;
    this.global[EMBEDDED_RUNTIME_CACHE] = embeddedRuntimeCache;
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
    await reportHeap(this.testPath);
  }
}
