import { Clock } from '@hostboard/core';
import { scrape } from '../support/metrics-scrape.js';
import { startApp, type TestApp } from '../support/test-app.js';

const TOKEN = 'clock-skew-metrics-token-0123456789';

/** The system clock moved by `offsetMs`: a host whose clock runs ahead (or behind). */
class OffsetClock extends Clock {
  constructor(private readonly offsetMs: number) {
    super();
  }

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
}

/** The skew the app reports, once its first check (at start, in the background) has run. */
async function reportedSkew(t: TestApp, settled: (s: number) => boolean): Promise<number> {
  let last = NaN;
  for (let i = 0; i < 50; i++) {
    last = (await scrape(t, TOKEN))['hostboard_clock_skew_seconds'] ?? NaN;
    if (settled(last)) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  return last;
}

/**
 * Holds expire by the deciding process's own clock: a process whose clock is off from the database's
 * says by how much (issue: the worker's clock against the api's was never checked).
 */
describe('a process whose clock is off from the database’s', () => {
  it('reports the gap at start: 90 s ahead reads about +90, a synchronised clock about 0', async () => {
    const ahead = await startApp({ clock: new OffsetClock(90_000), env: { METRICS_TOKEN: TOKEN } });
    try {
      const skew = await reportedSkew(ahead, (s) => Math.abs(s) > 1);
      expect(skew).toBeGreaterThan(88);
      expect(skew).toBeLessThan(92);
    } finally {
      await ahead.close();
    }
    const behind = await startApp({ clock: new OffsetClock(-45_000), env: { METRICS_TOKEN: TOKEN } });
    const inTime = await startApp({ env: { METRICS_TOKEN: TOKEN } });
    try {
      const skew = await reportedSkew(behind, (s) => Math.abs(s) > 1);
      expect(skew).toBeGreaterThan(-47);
      expect(skew).toBeLessThan(-43);
      // The same host's clock and the database's: well inside the 2 s the watch warns at.
      expect(Math.abs(await reportedSkew(inTime, () => false))).toBeLessThan(2);
    } finally {
      await behind.close();
      await inTime.close();
    }
  });
});
