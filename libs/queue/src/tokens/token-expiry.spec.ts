import { midnightAfter, queueTokenExpiry } from './token-expiry.js';

const at = (iso: string): Date => new Date(iso);

describe('queue token expiry: the venue-local midnight after the business date', () => {
  it('an ordinary night in two zones', () => {
    expect(midnightAfter('2026-06-12', 'America/Chicago').toISOString()).toBe('2026-06-13T05:00:00.000Z');
    expect(midnightAfter('2026-06-12', 'Europe/Paris').toISOString()).toBe('2026-06-12T22:00:00.000Z');
  });

  it('America/Chicago, the March night after the clocks went forward (a 23-hour day)', () => {
    // Sunday 8 March 2026 02:00 CST became 03:00 CDT: the next midnight is at UTC-5, not UTC-6.
    expect(midnightAfter('2026-03-08', 'America/Chicago').toISOString()).toBe('2026-03-09T05:00:00.000Z');
    // And the night before it, midnight is still at UTC-6.
    expect(midnightAfter('2026-03-07', 'America/Chicago').toISOString()).toBe('2026-03-08T06:00:00.000Z');
  });

  it('America/Chicago, the November day the clocks went back (a 25-hour day)', () => {
    // Sunday 1 November 2026 02:00 CDT became 01:00 CST: the day started at UTC-5 and ends at UTC-6.
    expect(midnightAfter('2026-11-01', 'America/Chicago').toISOString()).toBe('2026-11-02T06:00:00.000Z');
  });

  it('America/Santiago, where midnight itself is skipped: the day after starts at 01:00', () => {
    // Chile moved from UTC-4 to UTC-3 at 00:00 on Sunday 6 September 2026: 00:00–00:59 never happened.
    expect(midnightAfter('2026-09-05', 'America/Santiago').toISOString()).toBe('2026-09-06T04:00:00.000Z');
    // In April 00:00 UTC-3 became 23:00 UTC-4 of the Saturday: the Sunday begins once, at 00:00 UTC-4.
    expect(midnightAfter('2026-04-04', 'America/Santiago').toISOString()).toBe('2026-04-05T04:00:00.000Z');
  });

  it('America/Havana, where midnight is skipped in March', () => {
    expect(midnightAfter('2026-03-07', 'America/Havana').toISOString()).toBe('2026-03-08T05:00:00.000Z');
  });

  it('never less than one minute of validity', () => {
    // Issued at 23:59:30 Chicago time: midnight is 30 s away, the token gets its full minute.
    expect(queueTokenExpiry('2026-06-12', 'America/Chicago', at('2026-06-13T04:59:30.000Z')).toISOString()).toBe(
      '2026-06-13T05:00:30.000Z',
    );
    // Issued after its midnight (a window that runs past midnight): one minute from issue.
    expect(queueTokenExpiry('2026-06-12', 'America/Chicago', at('2026-06-13T05:30:00.000Z')).toISOString()).toBe(
      '2026-06-13T05:31:00.000Z',
    );
    // A minute and more before midnight: midnight.
    expect(queueTokenExpiry('2026-06-12', 'America/Chicago', at('2026-06-13T04:59:00.000Z')).toISOString()).toBe(
      '2026-06-13T05:00:00.000Z',
    );
  });

  it('the floor holds on a clock-shift night too', () => {
    // Santiago, 23:59:30 on 5 September 2026 (UTC-4): the next wall time after midnight is 30 s away.
    expect(queueTokenExpiry('2026-09-05', 'America/Santiago', at('2026-09-06T03:59:30.000Z')).toISOString()).toBe(
      '2026-09-06T04:00:30.000Z',
    );
  });

  it('answers each zone and date the same every time, and an answer changed by its caller changes nothing', () => {
    const first = midnightAfter('2026-03-07', 'America/Havana');
    first.setTime(0);
    expect(midnightAfter('2026-03-07', 'America/Havana').toISOString()).toBe('2026-03-08T05:00:00.000Z');
    // Same date, other zones: each its own midnight.
    expect(midnightAfter('2026-03-07', 'America/Chicago').toISOString()).toBe('2026-03-08T06:00:00.000Z');
    expect(midnightAfter('2026-03-07', 'Asia/Tokyo').toISOString()).toBe('2026-03-07T15:00:00.000Z');
    // An unreadable date is refused every time, not remembered as an answer.
    expect(() => midnightAfter('2026-02-30', 'UTC')).toThrow('cannot read business date');
    expect(() => midnightAfter('2026-02-30', 'UTC')).toThrow('cannot read business date');
  });
});
