import { daypartOf, type Daypart } from './daypart.js';

/** A completed visit: seated at `openedAt`, cleared at `closedAt`, on tables seating `capacity` in all. */
export interface CompletedVisit {
  capacity: number;
  openedAt: Date;
  closedAt: Date;
}

export interface LearnedTurn {
  minutes: number;
  /** How many visits the median was taken over. */
  visits: number;
}

/** A median of fewer visits than this is noise: the window's turn is used instead. */
export const MIN_VISITS = 5;
/** Only the most recent visits count, so a menu or staffing change shows within a few services. */
export const RECENT_VISITS = 20;

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/**
 * Turn lengths learned from a venue's own completed visits (seat → clear), per table capacity, for
 * one daypart: the median of the `RECENT_VISITS` most recent visits of that capacity seated in that
 * daypart, once there are at least `MIN_VISITS` of them. Capacities with too few visits are absent,
 * and the caller falls back to the window's turn.
 */
export function learnTurns(
  visits: CompletedVisit[],
  timeZone: string,
  daypart: Daypart,
  limits: { minVisits: number; recent: number } = { minVisits: MIN_VISITS, recent: RECENT_VISITS },
): Record<number, LearnedTurn> {
  const byCapacity = new Map<number, number[]>();
  const newestFirst = [...visits].sort((a, b) => b.closedAt.getTime() - a.closedAt.getTime());
  for (const v of newestFirst) {
    if (daypartOf(v.openedAt, timeZone) !== daypart) continue;
    const list = byCapacity.get(v.capacity) ?? [];
    if (list.length < limits.recent) list.push((v.closedAt.getTime() - v.openedAt.getTime()) / 60_000);
    byCapacity.set(v.capacity, list);
  }
  const learned: Record<number, LearnedTurn> = {};
  for (const [capacity, minutes] of byCapacity) {
    if (minutes.length >= limits.minVisits) learned[capacity] = { minutes: median(minutes), visits: minutes.length };
  }
  return learned;
}
