import { Logger } from '@nestjs/common';
import { Metrics, ManualClock, SystemClock } from '@hostboard/core';
import type { DataSource } from 'typeorm';
import { ClockWatch } from './clock-watch.js';

/** A host whose own clock runs `skewMs` ahead of the real one (the database's here). */
class SkewedHostClock extends SystemClock {
  constructor(private readonly skewMs: number) {
    super();
  }

  override hostNow(): Date {
    return new Date(Date.now() + this.skewMs);
  }
}

/** A data source answering clock_timestamp() with the real clock, or failing when `down`. */
const database = (state: { down: boolean } = { down: false }): DataSource =>
  ({
    query: async () => {
      if (state.down) throw new Error('connection refused');
      return [{ now: new Date() }];
    },
  }) as unknown as DataSource;

const skewGauge = async (metrics: Metrics): Promise<number> => (await metrics.clockSkew.get()).values[0]?.value ?? NaN;

describe('ClockWatch', () => {
  // Its warnings are the point of other tests (the e2e ones read them from the built processes).
  beforeAll(() => {
    Logger.overrideLogger(false);
  });
  afterAll(() => {
    Logger.overrideLogger(['log', 'error', 'warn', 'debug', 'verbose', 'fatal']);
  });

  it('before start-up ends, moves a host 90 s ahead to the database’s clock; the metric keeps the host’s own skew', async () => {
    const clock = new SkewedHostClock(90_000);
    const metrics = new Metrics();
    const watch = new ClockWatch(database(), clock, metrics);
    await watch.onModuleInit();
    watch.onModuleDestroy();
    expect(Math.abs(clock.now().getTime() - Date.now())).toBeLessThan(50);
    expect(Math.round(await skewGauge(metrics))).toBe(90);
  });

  it('leaves a host in time alone, and goes back to the host’s clock once it agrees again', async () => {
    const clock = new SkewedHostClock(-20_000);
    const watch = new ClockWatch(database(), clock, new Metrics());
    await watch.check();
    expect(clock.offset).toBeLessThan(-19_900);
    const inTime = new SystemClock();
    await new ClockWatch(database(), inTime, new Metrics()).check();
    expect(inTime.offset).toBe(0);
  });

  it('keeps the offset it follows while the database cannot be read', async () => {
    const clock = new SkewedHostClock(90_000);
    const state = { down: false };
    const watch = new ClockWatch(database(state), clock, new Metrics());
    await watch.check();
    state.down = true;
    expect(await watch.check()).toBeNull();
    expect(clock.offset).toBeGreaterThan(89_900);
  });

  it('measures a clock a test injects, and never moves it: the test decides its time', async () => {
    const clock = new ManualClock(new Date(Date.now() + 3_600_000));
    const skew = await new ClockWatch(database(), clock, new Metrics()).check();
    expect(Math.round(skew! / 1000)).toBe(3600);
    expect(Math.round((clock.now().getTime() - Date.now()) / 1000)).toBe(3600);
  });
});
