import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ScalarRead } from '@hostboard/core';
import type { Venue } from '../venues/venue.entity.js';
import { runningWindowAt, serviceEndAt, type RunningWindow } from './running-window.js';
import type { ServiceWindow } from './service-window.entity.js';
import { ServiceWindowRepository } from './service-window.repository.js';

export type RunningServiceWindow = RunningWindow<ServiceWindow> & {
  /** When the service stops: this window's end, or that of windows of the same day that follow it without a gap. */
  serviceEndsAt: Date;
};

/**
 * Which of a venue's service windows runs at an instant, and its business date. Pass the venue's
 * own now (VenueClock.now), so a sandbox venue answers for its simulated time. Joins, quotes and
 * offers all ask this one place.
 */
@Injectable()
export class RunningWindowFinder {
  constructor(private readonly windows: ServiceWindowRepository) {}

  async find(tx: EntityManager, venue: Pick<Venue, 'id' | 'timeZone'>, now: Date): Promise<RunningServiceWindow | null> {
    return running(await this.windows.list(tx, venue.id), venue.timeZone, now);
  }

  /**
   * For a combined read that reads the venue too, so its clock is not known yet: the windows read
   * with it (`listRead`), the running one found after (`runningIn`).
   */
  listRead(venueId: string): ScalarRead<ServiceWindow[]> {
    return this.windows.listRead(venueId);
  }

  runningIn(windows: ServiceWindow[], venue: Pick<Venue, 'timeZone'>, now: Date): RunningServiceWindow | null {
    return running(windows, venue.timeZone, now);
  }
}

function running(windows: ServiceWindow[], timeZone: string, now: Date): RunningServiceWindow | null {
  const run = runningWindowAt(windows, timeZone, now);
  return run ? { ...run, serviceEndsAt: serviceEndAt(windows, timeZone, run) } : null;
}
