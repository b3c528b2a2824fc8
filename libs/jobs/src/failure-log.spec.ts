import { FailureLog } from './failure-log.js';

describe('job failure log', () => {
  it('logs a failure, counts the same one again within the window, and reports the count with the next line', () => {
    const lines: string[] = [];
    let now = 0;
    const log = new FailureLog(
      (l) => lines.push(l),
      () => now,
      10_000,
    );
    log.failed('job offer-expiry 1 failed: connect ECONNREFUSED', 'connect ECONNREFUSED');
    for (let i = 2; i <= 40; i++) {
      now += 200;
      log.failed(`job offer-expiry ${i} failed: connect ECONNREFUSED`, 'connect ECONNREFUSED');
    }
    expect(lines).toEqual(['job offer-expiry 1 failed: connect ECONNREFUSED']);
    now += 10_000; // the window has passed: the next one is logged, with the count before it
    log.failed('job offer-expiry 41 failed: connect ECONNREFUSED', 'connect ECONNREFUSED');
    log.failed('job sweep-safety-net 1 failed: deadlock detected', 'deadlock detected');
    expect(lines).toEqual([
      'job offer-expiry 1 failed: connect ECONNREFUSED',
      '39 more job failures like it (connect ECONNREFUSED)',
      'job offer-expiry 41 failed: connect ECONNREFUSED',
      'job sweep-safety-net 1 failed: deadlock detected',
    ]);
  });
});
