import { spawnSync } from 'node:child_process';
import { HEAP_GROWING_PERCENT, limitHeapGrowth } from './heap-growth.js';

describe('limitHeapGrowth', () => {
  it('leaves a --heap-growing-percent given to node to rule', () => {
    expect(limitHeapGrowth(['--heap-growing-percent=20'])).toBe(false);
    expect(limitHeapGrowth(['--enable-source-maps', '--heap_growing_percent=0'])).toBe(false);
  });

  it('bounds the old generation of a process that keeps garbage around (a child node, measured)', () => {
    // The same allocation pattern with and without the flag set at run time: a live set of about 30 MB,
    // then bursts of short-lived objects that survive a young collection (a request waiting on the
    // database), as a burst of board reads does. The flag is read at each full collection.
    const script = `
      const v8 = require('node:v8');
      if (process.argv[1] === 'limit') v8.setFlagsFromString('--heap-growing-percent=${HEAP_GROWING_PERCENT}');
      const live = Array.from({ length: 200000 }, (_, i) => ({ i, s: 'live' + i, a: [i] }));
      let peak = 0;
      for (let round = 0; round < 25; round++) {
        const burst = Array.from({ length: 60000 }, (_, i) => ({ round, i, s: 'burst' + i, a: [i, round] }));
        for (let k = 0; k < 3; k++) Array.from({ length: 20000 }, (_, i) => ({ k, i }));
        peak = Math.max(peak, v8.getHeapStatistics().total_heap_size);
        if (burst.length === 0) break;
      }
      process.stdout.write(String(Math.round(peak / 1048576) + ' ' + live.length));
    `;
    const peakMb = (arg: string): number =>
      Number(spawnSync(process.execPath, ['-e', script, arg], { encoding: 'utf8' }).stdout.split(' ')[0]);
    const unlimited = peakMb('default');
    const limited = peakMb('limit');
    process.stdout.write(`peak heap: ${unlimited} MB by default, ${limited} MB growing by ${HEAP_GROWING_PERCENT} %\n`);
    expect(limited).toBeGreaterThan(0);
    expect(limited).toBeLessThan(unlimited);
  });
});
