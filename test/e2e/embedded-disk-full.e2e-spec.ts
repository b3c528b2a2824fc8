import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_MAIN, BuiltProcess, freePort, sleep } from '../support/built-stack.js';

/** A small filesystem of the test's own (tmpfs), where this machine lets the test mount one. */
function smallDisk(): { dir: string; remove(): void } | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'hb-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=80m', 'tmpfs', dir], { stdio: 'pipe' });
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
  return {
    dir,
    remove: () => {
      execFileSync('umount', [dir], { stdio: 'pipe' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const disk = smallDisk();
const describeHere = disk
  ? describe
  : (((name: string, fn: () => void) => describe.skip(`${name} [skipped: cannot mount a tmpfs here]`, fn)) as jest.Describe);

/**
 * The embedded default keeps its data in HOSTBOARD_DATA_DIR. When that disk is full, PGlite aborts
 * inside its WebAssembly at start: the operator read "hostboard failed to start: RuntimeError:
 * Aborted()" and a stack of wasm frames, nothing about the disk.
 */
describeHere('the embedded database on a full disk', () => {
  afterAll(() => disk?.remove());

  it('refuses to start with one line saying the data folder’s disk is full', async () => {
    const data = join(disk!.dir, 'data');
    const env = { NODE_ENV: 'development', HOSTBOARD_DATA_DIR: data, HOST: '127.0.0.1' };
    const first = new BuiltProcess(API_MAIN, { ...env, PORT: String(await freePort()) });
    try {
      await first.started(/running at http/);
    } finally {
      await first.stop();
    }
    // Fill what is left of the disk.
    const fd = openSync(join(disk!.dir, 'filler'), 'w');
    const chunk = Buffer.alloc(1024 * 1024);
    try {
      for (;;) writeSync(fd, chunk);
    } catch {
      // ENOSPC: full
    } finally {
      closeSync(fd);
    }
    const second = new BuiltProcess(API_MAIN, { ...env, PORT: String(await freePort()) });
    try {
      for (let waited = 0; waited < 60_000 && !second.ended && !second.out.includes('running at'); waited += 100)
        await sleep(100);
      expect(second.child.exitCode).toBe(1);
      const unlogged = second.out.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('{'));
      expect(unlogged).toEqual([
        expect.stringMatching(
          /^The embedded database in .*\/data could not start: its disk has \d+\.\d MB free\. Free some space/,
        ),
      ]);
    } finally {
      second.child.kill('SIGKILL');
    }
  }, 180_000);
});
