import { Metrics } from '@hostboard/core';
import { counted } from './job-scheduler.js';

const runs = async (metrics: Metrics): Promise<Record<string, number>> =>
  Object.fromEntries(
    (await metrics.jobs.get()).values.map((v) => [`${String(v.labels['job'])} ${String(v.labels['outcome'])}`, v.value]),
  );

describe('a job run as a scheduler runs it', () => {
  it('is counted by its outcome, and a handler that throws is counted as failed and still throws', async () => {
    const metrics = new Metrics();
    const outcomes: Array<'done' | 'skipped' | Error> = ['done', 'skipped', 'skipped', new Error('the database went away')];
    const handler = counted(
      'safety-sweep',
      async () => {
        const next = outcomes.shift();
        if (next instanceof Error) throw next;
        return next ?? 'done';
      },
      metrics,
    );
    expect(await handler({})).toBe('done');
    expect(await handler({})).toBe('skipped');
    expect(await handler({})).toBe('skipped');
    await expect(handler({})).rejects.toThrow('the database went away');
    expect(await runs(metrics)).toEqual({ 'safety-sweep done': 1, 'safety-sweep skipped': 2, 'safety-sweep failed': 1 });
  });

  it('is the handler itself where the process keeps no metrics', () => {
    const handler = async (): Promise<'done'> => 'done';
    expect(counted('safety-sweep', handler, undefined)).toBe(handler);
  });
});
