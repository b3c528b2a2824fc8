// Jest's node environment, plus a check at the end of each test file: what the file opened and did
// not close (a server, a socket, a child process, a timer) keeps its worker alive, and Jest then says
// only "A worker process has failed to exit gracefully", naming no file. This names the file.
import { TestEnvironment } from 'jest-environment-node';

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

export default class OpenResourcesEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.testPath = context.testPath;
  }

  async setup() {
    await super.setup();
    this.before = held();
  }

  async teardown() {
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
  }
}
