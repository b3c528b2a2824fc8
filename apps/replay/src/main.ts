import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parseNight } from './night.js';
import { ReplayHost } from './replay.host.js';
import { formatResult, replayNight } from './replay.runner.js';

const USAGE = 'usage: npm run replay -- <night.json>… [--min-improvement <percent>]\n';

/**
 * Replays service nights and prints each quote model's accuracy. With --min-improvement, exits 1
 * unless on every night the floor model's MAE is at least that many percent below the formula's.
 */
async function main(): Promise<number> {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { 'min-improvement': { type: 'string' } } });
  if (positionals.length === 0) {
    process.stderr.write(USAGE);
    return 2;
  }
  const floorBetterBy = values['min-improvement'] === undefined ? null : Number(values['min-improvement']);
  if (floorBetterBy !== null && !Number.isFinite(floorBetterBy)) {
    process.stderr.write(USAGE);
    return 2;
  }
  const nights = positionals.map((file) => parseNight(JSON.parse(readFileSync(file, 'utf8'))));
  const host = new ReplayHost();
  await host.start();
  let failed = false;
  try {
    const api = await host.client();
    for (const night of nights) {
      const result = await replayNight(api, night);
      process.stdout.write(`${formatResult(result)}\n`);
      if (floorBetterBy !== null) {
        const ok = result.improvement !== null && result.improvement >= floorBetterBy;
        process.stdout.write(
          `  ${ok ? 'PASS' : 'FAIL'}: the floor model's MAE is to be at least ${floorBetterBy} % below the formula's\n`,
        );
        failed = failed || !ok;
      }
      process.stdout.write('\n');
    }
  } finally {
    await host.stop();
  }
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`${(err as Error)?.message ?? String(err)}\n`);
    process.exit(1);
  },
);
