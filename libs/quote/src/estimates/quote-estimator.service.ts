import { Injectable } from '@nestjs/common';
import { TableFloorReader } from '@hostboard/allocator';
import type { PendingInsert, Results } from '@hostboard/core';
import type { QuoteModel, Venue } from '@hostboard/venue';
import { daypartOf, type Daypart } from '../floor/daypart.js';
import { floorQuote, type Placement } from '../floor/floor-quote.js';
import { learnTurns, type LearnedTurn } from '../floor/learned-turns.js';
import { EntryQuote } from './entry-quote.entity.js';
import { FloorStateRepository } from './floor-state.repository.js';

/** The spec's formula, as the queue worked it out: (ahead of the same kind + 1) × the window's turn. */
export interface TurnsQuote {
  minutes: number | null;
  inputs: { position: number; ahead: number; kind: number | null; turnMinutes: number | null };
}

export interface JoinEstimate {
  /** The model the party is told (the venue's policy.quoteModel). */
  model: QuoteModel;
  turns: TurnsQuote;
  floor: { minutes: number | null; inputs: Record<string, unknown> };
  /** The minutes of the chosen model: what the join answer, the queueing message and the board show. */
  shownMinutes: number | null;
}

/**
 * Both estimates of a table venue's join, worked out inside the join's transaction (under the venue
 * lock, so the floor read is the one the party joins into), and stored with the entry.
 */
@Injectable()
export class QuoteEstimator {
  constructor(
    private readonly floor: TableFloorReader,
    private readonly state: FloorStateRepository,
  ) {}

  /** What the floor-aware model reads, as parts of one statement: a join sends them with its own reads. */
  reads(venue: Venue, join: Pick<JoinFacts, 'businessDate' | 'now'>) {
    return {
      seating: this.state.seatingRead(venue.id),
      floor: this.floor.floorRead(venue.id, join.now),
      bookings: this.state.bookingsRead(venue.id, join.now),
      waitingAhead: this.state.waitingSizesRead(venue.id, join.businessDate),
      visits: this.state.completedVisitsRead(venue, join.now),
    };
  }

  /** Both estimates from what `reads` found. */
  fromInputs(venue: Venue, join: JoinFacts, inputs: FloorInputs): JoinEstimate {
    const { now } = join;
    const daypart = daypartOf(now, venue.timeZone);
    const { tables, combinations } = inputs.seating;
    const { floor: floorTables, waitingAhead, visits } = inputs;
    const learned = new Map<Daypart, Record<number, LearnedTurn>>();
    const learnedIn = (d: Daypart): Record<number, LearnedTurn> => {
      const found = learned.get(d) ?? learnTurns(visits, venue.timeZone, d);
      learned.set(d, found);
      return found;
    };
    const minutesFromNow = (at: Date): number => (at.getTime() - now.getTime()) / 60_000;
    const placements = new Map<string, Placement>();
    for (const t of floorTables) {
      if (t.state === 'free' || !t.placement) continue;
      // A booking that has not begun is in `bookings`: its table is free until then.
      if (t.state === 'booked' && new Date(t.placement.slot.start) > now) continue;
      const seated = t.state === 'occupied';
      const since = seated ? (t.until ?? t.placement.slot.start) : t.placement.slot.start;
      const minutes = seated
        ? (now.getTime() - new Date(since).getTime()) / 60_000
        : Math.max(0, (new Date(since).getTime() - now.getTime()) / 60_000);
      const p = placements.get(t.placement.reservationId);
      if (p) p.tableIds.push(t.id);
      else {
        // A party that sat in another daypart (at dinner, now past 22:00) dines at that daypart's pace.
        const satDaypart = seated ? daypartOf(new Date(since), venue.timeZone) : daypart;
        placements.set(t.placement.reservationId, {
          tableIds: [t.id],
          state: seated ? 'seated' : t.state === 'held' ? 'held' : 'booked',
          minutes,
          ...(satDaypart === daypart ? {} : { satIn: { daypart: satDaypart, learnedTurns: learnedIn(satDaypart) } }),
        });
      }
    }
    const floor = floorQuote({
      partySize: join.partySize,
      tables,
      combinations,
      placements: [...placements.values()],
      bookings: inputs.bookings.map((b) => ({
        tableIds: b.tableIds,
        startMinutes: minutesFromNow(b.start),
        endMinutes: minutesFromNow(b.end),
      })),
      waitingAhead,
      windowTurnMinutes: join.windowTurnMinutes,
      learnedTurns: learnedIn(daypart),
    });
    const model = venue.quoteModel;
    // Offers need a running window: with none (a venue that takes joins outside its windows), a free
    // table is no table, and the floor says no minutes, as the formula says none.
    const minutes = join.windowTurnMinutes === null ? null : floor.minutes;
    return {
      model,
      turns: join.turns,
      floor: { minutes, inputs: { ...floor.inputs, daypart } },
      shownMinutes: model === 'floor' ? minutes : join.turns.minutes,
    };
  }

  /** Kept with the entry, once (written with it, in one statement): the report compares both with what happened. */
  recordRow(entry: { id: string; venueId: string; businessDate: string }, e: JoinEstimate, now: Date): PendingInsert<EntryQuote> {
    const row: EntryQuote = {
      entryId: entry.id,
      venueId: entry.venueId,
      businessDate: entry.businessDate,
      model: e.model,
      turnsMinutes: e.turns.minutes,
      turnsInputs: e.turns.inputs,
      floorMinutes: e.floor.minutes,
      floorInputs: e.floor.inputs,
      createdAt: now,
    };
    return { target: EntryQuote, rows: [row] };
  }
}

/** What the join knows when it asks for the estimates. */
export interface JoinFacts {
  partySize: number;
  businessDate: string;
  now: Date;
  windowTurnMinutes: number | null;
  turns: TurnsQuote;
}

/** The floor model's inputs, as `reads` returns them. */
export type FloorInputs = Results<ReturnType<QuoteEstimator['reads']>>;
