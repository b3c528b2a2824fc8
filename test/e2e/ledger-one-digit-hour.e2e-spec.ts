import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The built ledger CLI (`npm run ledger` runs it). */
const LEDGER_MAIN = resolve('dist/apps/ledger/src/main.js');

/**
 * A worksheet typed by hand with a one-digit hour ("9:55" for the start, "9:58" for a request) was
 * refused ("is not a time … (HH:mm or HH:mm:ss)"), though the time is unambiguous. It is read as
 * 09:55 and the ledger replays it on a real (embedded) database, every row passing.
 */
describe('the ledger reads a one-digit hour', () => {
  let tmp: string;
  beforeAll(() => (tmp = mkdtempSync(join(tmpdir(), 'hb-ledger-hour-'))));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('"9:55" and "9:58" replay as 09:55 and 09:58', async () => {
    const w = JSON.parse(readFileSync('examples/lotus-studio.worksheet.json', 'utf8')) as {
      start: string;
      waiting: Array<{ received: string }>;
    };
    expect(w.start).toBe('09:55');
    w.start = '9:55';
    // The first request earlier than the example's, still after the start.
    w.waiting[0]!.received = '9:58';
    const file = join(tmp, 'lotus-hour.worksheet.json');
    writeFileSync(file, JSON.stringify(w, null, 2));
    const proc = spawn(process.execPath, [LEDGER_MAIN, file], {
      env: { PATH: process.env['PATH'] ?? '', TMPDIR: tmp, LOG_LEVEL: 'fatal' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((r) => proc.once('exit', r));
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toMatch(/\n22 passed, 0 failed\n/);
  }, 180_000);
});
