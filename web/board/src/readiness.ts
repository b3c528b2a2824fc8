import type { Combination, ServiceWindow, TableDef, Venue } from './api/types';

/**
 * Why a join would be refused right now, in the words a host reads, before anyone meets the refusal.
 * The server still decides; this only warns. Whether a service runs is the server's answer
 * (`VenueData.serviceRunsAt`): the page kept a copy of the server's rule for service hours (one past
 * midnight, the nights the clocks change), which had to follow every change to the server's.
 */
export function joinWarnings(
  venue: Venue,
  tables: TableDef[],
  combinations: Combination[],
  windows: ServiceWindow[],
  serviceRunning: boolean,
): { lines: string[]; heading: string } {
  const out: string[] = [];
  let every = false;
  const all = (line: string): void => {
    every = true;
    out.push(line);
  };
  if (!venue.queueEnabled) all('The queue is switched off: every join is refused.');
  if (!venue.published) out.push('The venue is not published: the public join is refused; only the desk adds to the queue.');
  if (venue.policy.requireServiceWindow && !serviceRunning) {
    all(
      windows.length === 0
        ? 'No service hours are set: joins are refused.'
        : 'No service is running now: joins are refused until the next service starts.',
    );
  }
  if (venue.policy.seating === 'tables') {
    const biggest = Math.max(0, ...tables.map((t) => t.capacity), ...combinations.map((c) => c.capacity));
    if (tables.length === 0) all('No tables are set up yet.');
    else if (biggest < venue.queuePartyCap)
      out.push(
        `The largest party allowed is ${venue.queuePartyCap}, but no table or combination seats more than ${biggest}: larger parties are refused.`,
      );
  }
  // "Joins would be refused" only when one of them refuses every join: a venue that only turns away
  // guests' phones or larger parties still takes the rest.
  return { lines: out, heading: every ? 'Joins would be refused now:' : 'Some joins would be refused now:' };
}
