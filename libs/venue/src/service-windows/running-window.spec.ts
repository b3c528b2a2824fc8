import {
  businessDateAt,
  hhmm,
  minuteOfDay,
  nextServiceChangeAt,
  runningWindowAt,
  serviceEndAt,
  windowsOverlap,
  type WindowTimes,
} from './running-window.js';

const w = (days: number[], start: string, end: string): WindowTimes & { name: string } => ({
  name: `${days.join(',')} ${start}-${end}`,
  days,
  startMinute: minuteOfDay(start),
  endMinute: minuteOfDay(end),
});

describe('the running service window', () => {
  const CHICAGO = 'America/Chicago';
  const dinner = w([1, 2, 3, 4, 5, 6, 7], '17:00', '22:00');
  const lateFriday = w([5], '18:00', '02:00');

  it('runs from its start (inclusive) to its end (exclusive), venue-local', () => {
    expect(runningWindowAt([dinner], CHICAGO, new Date('2026-06-12T21:59:59.999Z'))).toBeNull(); // 16:59:59.999
    expect(runningWindowAt([dinner], CHICAGO, new Date('2026-06-12T22:00:00.000Z'))?.businessDate).toBe('2026-06-12');
    expect(runningWindowAt([dinner], CHICAGO, new Date('2026-06-13T02:59:59.999Z'))?.window).toBe(dinner);
    expect(runningWindowAt([dinner], CHICAGO, new Date('2026-06-13T03:00:00.000Z'))).toBeNull(); // 22:00
  });

  it('a window past midnight belongs to the day it started', () => {
    const r = runningWindowAt([lateFriday], CHICAGO, new Date('2026-06-13T06:30:00.000Z')); // 01:30 Saturday
    expect(r).toEqual({
      window: lateFriday,
      businessDate: '2026-06-12',
      startsAt: new Date('2026-06-12T23:00:00.000Z'),
      endsAt: new Date('2026-06-13T07:00:00.000Z'),
    });
    // Saturday 18:00 is not a Friday window.
    expect(runningWindowAt([lateFriday], CHICAGO, new Date('2026-06-13T23:30:00.000Z'))).toBeNull();
  });

  it('an end of 00:00 means midnight, the end of the start day', () => {
    const toMidnight = w([6], '20:00', '00:00');
    expect(runningWindowAt([toMidnight], CHICAGO, new Date('2026-06-14T04:59:00.000Z'))?.businessDate).toBe('2026-06-13');
    expect(runningWindowAt([toMidnight], CHICAGO, new Date('2026-06-14T05:00:00.000Z'))).toBeNull();
  });

  it('uses the real zone on clock-change nights', () => {
    // Saturday 7 March 2026, 18:00–02:00: 02:00 Sunday does not exist (clocks jump to 03:00 CDT).
    const sat = w([6], '18:00', '02:00');
    const r = runningWindowAt([sat], CHICAGO, new Date('2026-03-08T07:30:00.000Z')); // 01:30 CST
    expect(r?.businessDate).toBe('2026-03-07');
    expect(r?.endsAt.toISOString()).toBe('2026-03-08T08:00:00.000Z'); // the first instant after the gap
    expect(runningWindowAt([sat], CHICAGO, new Date('2026-03-08T08:00:00.000Z'))).toBeNull();
  });

  it('Sunday night runs into Monday morning', () => {
    const sunday = w([7], '20:00', '01:00');
    expect(runningWindowAt([sunday], CHICAGO, new Date('2026-06-15T05:30:00.000Z'))?.businessDate).toBe('2026-06-14');
  });

  it('overlaps are found across midnight and across the end of the week', () => {
    expect(windowsOverlap(dinner, w([1], '21:00', '23:00'))).toBe(true);
    expect(windowsOverlap(dinner, w([1], '22:00', '23:00'))).toBe(false);
    expect(windowsOverlap(lateFriday, w([6], '01:00', '03:00'))).toBe(true);
    expect(windowsOverlap(lateFriday, w([6], '02:00', '03:00'))).toBe(false);
    expect(windowsOverlap(w([7], '20:00', '01:00'), w([1], '00:30', '06:00'))).toBe(true);
    expect(windowsOverlap(w([7], '20:00', '01:00'), w([1], '01:00', '06:00'))).toBe(false);
    expect(windowsOverlap(w([1, 3], '11:00', '15:00'), w([2, 4], '11:00', '15:00'))).toBe(false);
  });

  it('service ends where the running window ends, unless the next one of the same day starts right then', () => {
    const endOf = (windows: WindowTimes[], now: string): string | undefined => {
      const running = runningWindowAt(windows, CHICAGO, new Date(now));
      return running ? serviceEndAt(windows, CHICAGO, running).toISOString() : undefined;
    };
    // Dinner alone: 22:00 Chicago.
    expect(endOf([dinner], '2026-06-13T02:40:00.000Z')).toBe('2026-06-13T03:00:00.000Z');
    // Lunch to 15:00, then an afternoon window from 15:00 to 17:00 and dinner from 17:00: one service to 22:00.
    const lunch = w([5], '11:00', '15:00');
    const afternoon = w([5], '15:00', '17:00');
    expect(endOf([lunch, afternoon, dinner], '2026-06-12T19:50:00.000Z')).toBe('2026-06-13T03:00:00.000Z');
    // Lunch with a gap before dinner: service ends at 15:00, the gap is not service.
    expect(endOf([lunch, dinner], '2026-06-12T19:50:00.000Z')).toBe('2026-06-12T20:00:00.000Z');
    // Past midnight: Friday 18:00–02:00 ends at 02:00 Saturday; a Saturday window from 02:00 is another day's.
    const earlySaturday = w([6], '02:00', '04:00');
    expect(endOf([lateFriday, earlySaturday], '2026-06-13T06:30:00.000Z')).toBe('2026-06-13T07:00:00.000Z');
  });

  it("an instant's business date: the running window's, else the venue-local date", () => {
    // Friday 01:30 Saturday in the late window is Friday's; at 02:30 no window runs: Saturday's.
    expect(businessDateAt([lateFriday], CHICAGO, new Date('2026-06-13T06:30:00.000Z'))).toBe('2026-06-12');
    expect(businessDateAt([lateFriday], CHICAGO, new Date('2026-06-13T07:30:00.000Z'))).toBe('2026-06-13');
    // Auckland (UTC+12 in June): 23:00 UTC on the 12th is 11:00 on the 13th there.
    expect(businessDateAt([], 'Pacific/Auckland', new Date('2026-06-12T23:00:00.000Z'))).toBe('2026-06-13');
  });

  it('reads and writes HH:mm', () => {
    expect(minuteOfDay('00:00')).toBe(0);
    expect(minuteOfDay('23:59')).toBe(1439);
    expect(hhmm(1439)).toBe('23:59');
    expect(hhmm(65)).toBe('01:05');
  });
});

describe('the next change of whether a service runs', () => {
  const CHICAGO = 'America/Chicago';
  const at = (iso: string): string | undefined => nextServiceChangeAt(windows, CHICAGO, new Date(iso))?.toISOString();
  let windows: WindowTimes[] = [];

  it('lunch then an afternoon that starts as lunch ends: one service, to the afternoon’s end', () => {
    windows = [w([1, 2, 3, 4, 5, 6, 7], '11:00', '15:00'), w([1, 2, 3, 4, 5, 6, 7], '15:00', '17:00')];
    expect(at('2026-06-12T17:00:00.000Z')).toBe('2026-06-12T22:00:00.000Z'); // 12:00 → 17:00 CDT
    expect(at('2026-06-12T22:00:00.000Z')).toBe('2026-06-13T16:00:00.000Z'); // 17:00 → 11:00 next day
  });

  it('Fridays only: the next Friday’s start, days on', () => {
    windows = [w([5], '18:00', '02:00')];
    expect(at('2026-06-13T12:00:00.000Z')).toBe('2026-06-19T23:00:00.000Z'); // Sat 07:00 → Fri 18:00
  });

  it('around the clock, or no hours at all: nothing changes', () => {
    windows = [w([1, 2, 3, 4, 5, 6, 7], '00:00', '00:00')];
    expect(at('2026-06-12T17:00:00.000Z')).toBeUndefined();
    windows = [];
    expect(at('2026-06-12T17:00:00.000Z')).toBeUndefined();
  });
});
