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
): { lines: string[]; heading: string; shorts: string[]; short: string } {
  const out: string[] = [];
  // Each reason in a few words too, for a phone's one line (the board's banner, details on a tap).
  const shorts: string[] = [];
  let every = false;
  const some = (line: string, short: string): void => {
    out.push(line);
    shorts.push(short);
  };
  const all = (line: string, short: string): void => {
    every = true;
    some(line, short);
  };
  if (!venue.queueEnabled) all('The queue is switched off: every join is refused.', 'queue switched off');
  if (!venue.published)
    some('The venue is not published: the public join is refused; only the desk adds to the queue.', 'not published (desk only)');
  if (venue.policy.requireServiceWindow && !serviceRunning) {
    if (windows.length === 0) all('No service hours are set: joins are refused.', 'no service hours set');
    else all('No service is running now: joins are refused until the next service starts.', 'no service running');
  }
  if (venue.policy.seating === 'tables') {
    const biggest = Math.max(0, ...tables.map((t) => t.capacity), ...combinations.map((c) => c.capacity));
    if (tables.length === 0) all('No tables are set up yet.', 'no tables set up');
    else if (biggest < venue.queuePartyCap)
      some(
        `The largest party allowed is ${venue.queuePartyCap}, but no table or combination seats more than ${biggest}: larger parties are refused.`,
        `parties over ${biggest} refused`,
      );
  }
  // "Joins are refused" only when one of them refuses every join: a venue that only turns away
  // guests' phones or larger parties still takes the rest. (It read "would be refused".)
  return {
    lines: out,
    heading: every ? 'Joins are refused now:' : 'Some joins are refused now:',
    shorts,
    short: every ? 'Joins refused:' : 'Some joins refused:',
  };
}
