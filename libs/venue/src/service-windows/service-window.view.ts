import { hhmm } from './running-window.js';
import type { ServiceWindow } from './service-window.entity.js';

export interface ServiceWindowView {
  id: string;
  days: number[];
  start: string;
  end: string;
  turnMinutes: number;
  depositRequired: boolean;
  createdAt: string;
}

/**
 * A window as Set up lists it: with what its hours do on the nights of the next twelve months the
 * clocks skip or repeat their start or end (`clockChangeNotes`), so the note outlives the answer to
 * its creation.
 */
export type ServiceWindowListing = ServiceWindowView & { clockChanges: string[] };

export function toServiceWindowView(w: ServiceWindow): ServiceWindowView {
  return {
    id: w.id,
    days: [...w.days].sort((a, b) => a - b),
    start: hhmm(w.startMinute),
    end: hhmm(w.endMinute),
    turnMinutes: w.turnMinutes,
    depositRequired: w.depositRequired,
    createdAt: w.createdAt.toISOString(),
  };
}
