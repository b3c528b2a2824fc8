import { signal } from '@preact/signals';
import { messageOf } from '../api/client';
import type { Combination, ServiceWindow, TableDef, Venue } from '../api/types';
import { readWallClock } from './clock';
import { api } from './session';

/**
 * The venue's now (a sandbox's clock, else the server's) at the device's instant `wall`, from the
 * venue's read and the device's clock when it was answered (`readAt`): the time passed since, by the
 * device's clock, added to the server's. A sandbox's clock stands still. The device's own clock only
 * when the read carried no `now`.
 */
export function venueNowAt(venue: Venue, readAt: number, wall: number): number {
  if (venue.clock) return Date.parse(venue.clock);
  if (!venue.now) return wall;
  return Date.parse(venue.now) + Math.max(0, wall - readAt);
}

/**
 * What a venue is set up with (settings, tables, combinations, service windows): read when a venue
 * opens and again after the back office changes it or the board hears of a change.
 */
export class VenueData {
  readonly venue = signal<Venue | null>(null);
  readonly tables = signal<TableDef[]>([]);
  readonly combinations = signal<Combination[]>([]);
  readonly windows = signal<ServiceWindow[]>([]);
  readonly problem = signal<string | null>(null);
  /** The device's clock when the venue shown was answered: with its `now`, the server's time (`venueNowAt`). */
  venueReadAt = 0;

  /** Reads are numbered as they begin: the last one begun, and the newest one whose answer is shown. */
  private begun = 0;
  private shown = 0;

  constructor(readonly venueId: string) {
    void this.reload();
  }

  /**
   * Reads it all again. Two edits in a row start two reads; an answer older than the one shown (its
   * read begun before the other's, answered after it) is dropped, not shown over the newer settings.
   */
  /** The `serviceChangesAt` a read was begun for, once the venue's clock passed it (one read per change). */
  private rereadFor: string | null = null;

  /**
   * Whether a service runs at the venue's instant `at`, by the server's rule (the venue read's
   * `serviceRunning`, until its `serviceChangesAt`; the other way after). Past the change the venue is
   * read again, for the change after it; again five seconds on while the server's answer has not yet
   * passed it (this page's estimate of the server's time can run a second or two ahead of it).
   */
  serviceRunsAt(at: number): boolean {
    const venue = this.venue.value;
    if (!venue) return false;
    const running = venue.serviceRunning === true;
    const change = venue.serviceChangesAt;
    if (!change || at < Date.parse(change)) return running;
    if (this.rereadFor !== change) {
      this.rereadFor = change;
      window.setTimeout(() => {
        if (this.rereadFor === change) this.rereadFor = null;
      }, 5_000);
      void this.reload();
    }
    return !running;
  }

  async reload(): Promise<void> {
    const base = `/v1/venues/${this.venueId}`;
    const n = ++this.begun;
    try {
      const venue = await api.get<Venue>(base);
      const readAt = readWallClock();
      const tables = venue.policy.seating === 'tables' ? await api.get<TableDef[]>(`${base}/tables`) : [];
      const combinations = venue.policy.seating === 'tables' ? await api.get<Combination[]>(`${base}/combinations`) : [];
      const windows = await api.get<ServiceWindow[]>(`${base}/service-windows`);
      if (n < this.shown) return;
      this.shown = n;
      this.venueReadAt = readAt;
      this.venue.value = venue;
      this.tables.value = tables;
      this.combinations.value = combinations;
      this.windows.value = windows;
      this.problem.value = null;
    } catch (err) {
      if (n < this.shown) return;
      this.problem.value = messageOf(err);
    }
  }
}
