import { SystemClock } from './clock.js';
import { ABSURD_SKEW_MS, bestSample, offsetToFollow, skewOf, type ClockSample } from './clock-offset.policy.js';

/** A reading: the host's clock `skew` ms ahead of the database's, the query taking `roundTrip` ms. */
const reading = (skew: number, roundTrip = 2): ClockSample => ({
  sentAt: 1_000_000 + skew,
  answeredAt: 1_000_000 + skew + roundTrip,
  theirs: 1_000_000 + roundTrip / 2,
});

describe('the offset a process follows to agree with the database’s clock', () => {
  it('is the host’s skew at the round trip’s midpoint, ahead or behind', () => {
    expect(skewOf(reading(90_000))).toBe(90_000);
    expect(offsetToFollow(reading(90_000))).toBe(90_000);
    expect(offsetToFollow(reading(-20_000, 40))).toBe(-20_000);
  });

  it('is 0 for a host within 250 ms (NTP keeps hosts within a few ms): nothing moves there', () => {
    expect(offsetToFollow(reading(3))).toBe(0);
    expect(offsetToFollow(reading(-250))).toBe(0);
    expect(offsetToFollow(reading(251))).toBe(251);
  });

  it('is 0 for a skew within the reading’s own round trip: it cannot tell one from the other', () => {
    expect(offsetToFollow(reading(900, 1000))).toBe(0);
    expect(offsetToFollow(reading(1100, 1000))).toBe(1100);
  });

  it('follows even an absurd skew (every process then agrees on each deadline); the watch says it louder', () => {
    expect(offsetToFollow(reading(ABSURD_SKEW_MS * 24))).toBe(ABSURD_SKEW_MS * 24);
  });

  it('keeps the reading with the shortest round trip', () => {
    const slow = reading(5000, 800);
    const quick = reading(5000, 3);
    expect(bestSample([slow, quick, reading(5000, 50)])).toBe(quick);
    expect(bestSample([])).toBeUndefined();
  });

  it('moves the system clock’s now, not its host reading', () => {
    const clock = new SystemClock();
    clock.follow(90_000);
    const now = clock.now().getTime();
    const host = clock.hostNow().getTime();
    expect(host - now).toBeGreaterThanOrEqual(90_000);
    expect(host - now).toBeLessThan(90_050);
    expect(clock.offset).toBe(90_000);
  });
});
