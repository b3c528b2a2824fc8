import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { memoryImage } from '../support/memory-image.js';

const API_MAIN = resolve('dist/apps/api/src/main.js');

/**
 * The api buffers its log lines (a quarter second at most) and stops on SIGTERM at every deploy or
 * restart. The lines of the last requests it answered, and of the shutdown itself, are the ones an
 * operator reads after a restart that went wrong: they must reach the log, not die in the buffer.
 */
describe('a graceful stop (SIGTERM) of the built api', () => {
  it('writes the log lines of the requests it answered just before it stopped', async () => {
    const child = spawn(process.execPath, [API_MAIN], {
      env: {
        PATH: process.env['PATH'],
        PORT: '0',
        HOST: '127.0.0.1',
        HOSTBOARD_DATA_DIR: 'memory://',
        HOSTBOARD_MEMORY_IMAGE: await memoryImage(),
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    try {
      const base = await new Promise<string>((found, fail) => {
        const timer = setTimeout(() => fail(new Error(`the api did not start:\n${out}`)), 60_000);
        child.stdout.on('data', () => {
          const m = /running at (http:\/\/localhost:\d+)/.exec(out);
          if (m?.[1]) {
            clearTimeout(timer);
            found(m[1]);
          }
        });
      });
      const answer = await fetch(`${base}/health?last-request-before-the-stop`);
      expect(answer.status).toBe(200);
      child.kill('SIGTERM');
      await exited;
      const lines = out.split('\n').filter((l) => l.includes('last-request-before-the-stop'));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain('"statusCode":200');
    } finally {
      child.kill('SIGKILL');
    }
  }, 90_000);
});
