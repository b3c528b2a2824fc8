import { RefusedJobsLog } from './refused-jobs-log.js';

describe('RefusedJobsLog', () => {
  const oom = new Error("OOM command not allowed when used memory > 'maxmemory'.");
  const setup = (): { log: RefusedJobsLog; lines: string[]; at: { now: number } } => {
    const lines: string[] = [];
    const at = { now: 0 };
    const log = new RefusedJobsLog({ warn: (l) => lines.push(`warn ${l}`), log: (l) => lines.push(`log ${l}`) }, () => at.now);
    return { log, lines, at };
  };

  it('logs the first refusal and, when a job is taken again, the count; nothing between', () => {
    const { log, lines, at } = setup();
    log.accepted();
    for (let i = 0; i < 40; i++) log.refused('schedule', oom);
    log.refused('cancel', oom);
    at.now = 30_000;
    log.accepted();
    log.accepted();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^warn Redis is refusing writes \(it is full/);
    expect(lines[1]).toBe(
      'log Redis takes jobs again after 30 s: 40 expiry jobs refused (the sweep expires their offers); 1 job cancellation refused (those jobs run and find nothing to do)',
    );
  });

  it('a Redis at the edge (a write taken, the next refused) adds no start line within a minute of the last recovery', () => {
    const { log, lines, at } = setup();
    log.refused('schedule', oom);
    at.now = 1000;
    log.accepted();
    at.now = 2000;
    log.refused('schedule', oom);
    at.now = 3000;
    log.accepted();
    expect(log.refusing).toBe(false);
    expect(lines).toHaveLength(2);
    // Carried to the next report, a minute after the last.
    at.now = 70_000;
    log.refused('schedule', oom);
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatch(/^warn Redis is refusing writes/);
    at.now = 71_000;
    log.accepted();
    expect(lines[3]).toBe('log Redis takes jobs again after 69 s: 2 expiry jobs refused (the sweep expires their offers)');
    at.now = 200_000;
    log.refused('schedule', new Error('Redis is not connected (reconnecting)'));
    expect(lines.at(-1)).toMatch(/^warn Redis cannot be reached/);
  });
});
