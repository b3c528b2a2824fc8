/** One reading of the database's clock: the host's clock as the query left and as its answer came, and the answer (ms). */
export interface ClockSample {
  sentAt: number;
  answeredAt: number;
  theirs: number;
}

/**
 * Below this the host is taken to agree with the database: NTP keeps hosts within a few ms, and a
 * clock moved by a few ms at each check would only add noise to every stamp.
 */
export const FOLLOW_THRESHOLD_MS = 250;

/**
 * Past this, one of the two clocks is badly wrong (a host restored from a snapshot, a database
 * server without NTP), and which one cannot be told from here. The process still follows the
 * database's (all processes then agree on every deadline), and says so louder.
 */
export const ABSURD_SKEW_MS = 60 * 60_000;

/** The host's clock minus the database's, at the round trip's midpoint (the answer's most likely instant). */
export function skewOf(sample: ClockSample): number {
  return (sample.sentAt + sample.answeredAt) / 2 - sample.theirs;
}

/** The reading with the shortest round trip: its midpoint is off by at most half of it. */
export function bestSample(samples: ClockSample[]): ClockSample | undefined {
  let best: ClockSample | undefined;
  for (const s of samples) if (!best || s.answeredAt - s.sentAt < best.answeredAt - best.sentAt) best = s;
  return best;
}

/**
 * The offset the host's clock should follow (ms, host minus database): the skew, once it is beyond
 * both the threshold and the round trip (within a round trip, the reading cannot tell the skew from
 * its own uncertainty); else 0, the host's own clock.
 */
export function offsetToFollow(sample: ClockSample): number {
  const skew = skewOf(sample);
  const roundTrip = sample.answeredAt - sample.sentAt;
  return Math.abs(skew) > Math.max(FOLLOW_THRESHOLD_MS, roundTrip) ? Math.round(skew) : 0;
}
