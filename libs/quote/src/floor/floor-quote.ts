import type { LearnedTurn } from './learned-turns.js';

/** A way to seat a party: one table alone, or an approved combination of tables. */
export interface SeatingOption {
  tableIds: string[];
  /** How many it seats (a table's capacity; the combination's approved capacity). */
  capacity: number;
}

/**
 * Tables in use now. `seated`: the party has sat for `minutes`; `held` (a live offer) and `booked`
 * (accepted or booked, not yet seated): the party sits in `minutes` (0 when its slot has begun).
 */
export interface Placement {
  tableIds: string[];
  state: 'seated' | 'held' | 'booked';
  minutes: number;
  /**
   * A party seated in another daypart than now's keeps that daypart's turn (it sat at dinner, it
   * dines as at dinner): the turns learned there, by capacity, and the daypart's name.
   */
  satIn?: { daypart: string; learnedTurns: Record<number, LearnedTurn> };
}

/**
 * A party booked on tables for later (its slot has not begun): the tables are free until it starts,
 * then kept from `startMinutes` to `endMinutes` (minutes from now).
 */
export interface Booking {
  tableIds: string[];
  startMinutes: number;
  endMinutes: number;
}

export interface FloorQuoteInput {
  partySize: number;
  tables: Array<{ id: string; capacity: number }>;
  combinations: SeatingOption[];
  /** What is on the tables now: seated, held, or booked with a slot that has begun. */
  placements: Placement[];
  /** Bookings whose slot begins later (none: the tables are free from their placements on). */
  bookings?: Booking[];
  /** Party sizes of the waiting parties ahead of this one (none holding an offer), in waiting order. */
  waitingAhead: number[];
  /** The running window's turn length: the turn of every capacity not learned yet (null: none runs). */
  windowTurnMinutes: number | null;
  /** Turn lengths learned for this daypart, by the capacity of the tables a party sits at. */
  learnedTurns: Record<number, LearnedTurn>;
}

export interface FloorQuoteInputs {
  freeFittingOptions: number;
  waitingAhead: number;
  /** Waiting parties ahead who fit one of the tables this party fits. */
  aheadSharingTables: number;
  held: number;
  seated: number;
  /** Bookings that begin later, which a party may sit before only if its turn ends by then. */
  bookedLater: number;
  /** The turn used for each capacity, and where it came from. */
  turns: Record<string, { minutes: number; source: 'learned' | 'window'; visits?: number }>;
  /** When the simulated floor first seats the party, minutes from now, before rounding. */
  startMinutes: number | null;
}

export interface FloorQuote {
  minutes: number | null;
  inputs: FloorQuoteInputs;
}

/** "A few minutes": what a party is quoted when a fitting table is free now (the host still has to offer it). */
export const FEW_MINUTES = 5;
/** A table kept past its turn may clear any moment, but not sooner than this, as far as a quote can say. */
export const OVERDUE_MINUTES = 5;
const ROUND_TO = 5;

/**
 * The floor-aware quote, a pure function of what the floor is doing now.
 *
 * Each table becomes free when its party is expected to leave: a seated party after its turn less
 * the minutes already used (at least OVERDUE_MINUTES once overdue); a held or booked party after
 * it sits plus a whole turn. A table booked for later is free until then, but only for a party whose
 * slot ends before the booking begins (the allocator refuses an offer that overlaps it). The turn of a capacity is the one learned from the venue's visits in
 * this daypart, else the window's. Then the waiting parties ahead, in order, and this party last,
 * each take the fitting option (table or approved combination) that frees first (ties: the smallest,
 * as a host seats), which keeps its tables for one turn. This party's start is its quote, rounded
 * to 5 minutes and never under FEW_MINUTES. Parties holding an offer are already placed (their
 * tables are held) and are not in `waitingAhead`. Null when no option seats the party, or when a
 * turn is needed and none is known (no window runs and nothing was learned).
 */
export function floorQuote(input: FloorQuoteInput): FloorQuote {
  const capacityOf = new Map(input.tables.map((t) => [t.id, t.capacity]));
  const turns: FloorQuoteInputs['turns'] = {};
  let unknownTurn = false;
  /**
   * Turns are keyed by the seats of the tables a party occupies (a combination: the sum), learned
   * for now's daypart unless the party sat in another (kept under "seats (daypart)").
   */
  const turnFor = (tableIds: string[], satIn?: Placement['satIn']): number => {
    const seats = tableIds.reduce((sum, id) => sum + (capacityOf.get(id) ?? 0), 0);
    const key = satIn ? `${seats} (${satIn.daypart})` : String(seats);
    const learned = (satIn?.learnedTurns ?? input.learnedTurns)[seats];
    if (learned) {
      turns[key] = { minutes: learned.minutes, source: 'learned', visits: learned.visits };
      return learned.minutes;
    }
    if (input.windowTurnMinutes === null) {
      unknownTurn = true;
      return 0;
    }
    turns[key] = { minutes: input.windowTurnMinutes, source: 'window' };
    return input.windowTurnMinutes;
  };

  const freeAt = new Map(input.tables.map((t) => [t.id, 0]));
  for (const p of input.placements) {
    const turn = turnFor(p.tableIds, p.satIn);
    const leaves = p.state === 'seated' ? Math.max(turn - p.minutes, OVERDUE_MINUTES) : Math.max(p.minutes, 0) + turn;
    for (const id of p.tableIds) freeAt.set(id, Math.max(freeAt.get(id) ?? 0, leaves));
  }

  const options: SeatingOption[] = [
    ...input.tables.map((t) => ({ tableIds: [t.id], capacity: t.capacity })),
    ...input.combinations.filter((c) => c.tableIds.every((id) => capacityOf.has(id))),
  ];
  const bookings = input.bookings ?? [];
  /**
   * The first moment all of an option's tables are free and stay free for the slot an offer would
   * take (the window's turn, which the allocator checks against later bookings; else the option's
   * own), so a party is never placed where the host's offer would be refused.
   */
  const startOf = (o: SeatingOption): number => {
    let start = Math.max(...o.tableIds.map((id) => freeAt.get(id) ?? 0));
    const mine = bookings.filter((b) => b.tableIds.some((id) => o.tableIds.includes(id)));
    if (mine.length === 0) return start;
    const slot = input.windowTurnMinutes ?? turnFor(o.tableIds);
    for (let moved = true; moved;) {
      moved = false;
      for (const b of mine) {
        if (b.startMinutes < start + slot && start < b.endMinutes) {
          start = b.endMinutes;
          moved = true;
        }
      }
    }
    return start;
  };
  const fitting = (size: number): SeatingOption[] => options.filter((o) => o.capacity >= size);
  /** The option a party gets on the simulated floor, and when; its tables are then kept for one turn. */
  const seat = (size: number): number | null => {
    let best: SeatingOption | null = null;
    for (const o of fitting(size)) {
      if (
        !best ||
        startOf(o) < startOf(best) ||
        (startOf(o) === startOf(best) &&
          (o.capacity < best.capacity || (o.capacity === best.capacity && o.tableIds.length < best.tableIds.length)))
      )
        best = o;
    }
    if (!best) return null;
    const start = startOf(best);
    const until = start + turnFor(best.tableIds);
    for (const id of best.tableIds) freeAt.set(id, until);
    return start;
  };

  const mine = fitting(input.partySize);
  const mineTables = new Set(mine.flatMap((o) => o.tableIds));
  const inputs: FloorQuoteInputs = {
    freeFittingOptions: mine.filter((o) => startOf(o) === 0).length,
    waitingAhead: input.waitingAhead.length,
    aheadSharingTables: input.waitingAhead.filter((size) =>
      fitting(size).some((o) => o.tableIds.some((id) => mineTables.has(id))),
    ).length,
    held: input.placements.filter((p) => p.state !== 'seated').length,
    seated: input.placements.filter((p) => p.state === 'seated').length,
    bookedLater: bookings.length,
    turns,
    startMinutes: null,
  };
  for (const size of input.waitingAhead) seat(size);
  const start = seat(input.partySize);
  if (start === null || (unknownTurn && start > 0)) return { minutes: null, inputs };
  inputs.startMinutes = Math.round(start * 10) / 10;
  return { minutes: Math.max(FEW_MINUTES, Math.round(start / ROUND_TO) * ROUND_TO), inputs };
}
