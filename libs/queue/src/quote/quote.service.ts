import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { PendingInsert, Results } from '@hostboard/core';
import { QuoteEstimator, type JoinEstimate } from '@hostboard/quote';
import { TablesRepository, type Venue } from '@hostboard/venue';
import { ACTIVE_STATUSES, type QueueEntry } from '../entries/queue-entry.entity.js';
import { QueueEntryRepository } from '../entries/queue-entry.repository.js';
import { quoteText, tableKind, tableQuote } from './quote.js';

/** What a join knows when it asks for its quote. */
export interface JoinQuoteFacts {
  partySize: number;
  businessDate: string;
  /** The running window's turn, null without one. */
  turnMinutes: number | null;
  /** When the running service stops (no offer after it), null without one. */
  serviceEndsAt: Date | null;
  now: Date;
  /** The venue's seating capacities (table venues), already read by the join's seatable check. */
  capacities: number[];
}

/** What `joinReads` finds. */
export type JoinQuoteInputs = Results<ReturnType<QuoteService['joinReads']>>;

export interface Standing {
  position: number;
  ahead: number;
  /** The minutes of the venue's quote model; null where there is none (pool venues quote position only). */
  waitMinutes: number | null;
  /** The words of the quote, e.g. "position 3 (2 ahead), quoted ~50 min (approx)". */
  quote: string;
  /** Table venues: both models' estimates, stored with the entry. */
  estimate?: JoinEstimate;
  /** The quoted wait ends after service does: no offer can be made then, so the party is told. */
  pastServiceEnd: boolean;
}

/**
 * Positions as the spec counts them. Table venues: earlier same-day active parties that could take
 * the kind of table this party needs (see quote.ts). Pool venues: every earlier active group, since
 * the pool is one shared kind and strict order never skips.
 */
@Injectable()
export class QuoteService {
  constructor(
    private readonly entries: QueueEntryRepository,
    private readonly tables: TablesRepository,
    private readonly estimator: QuoteEstimator,
  ) {}

  /**
   * What the quote of a join reads, as parts of one statement (the join sends them together with its
   * duplicate check). Pool venues: every active group. Table venues: the active parties of the day
   * that could take this party's kind of table, and the floor model's inputs.
   */
  joinReads(venue: Venue, join: JoinQuoteFacts) {
    if (venue.seating === 'pool') {
      return {
        ahead: this.entries.countActiveRead(venue.id),
        seating: undefined,
        floor: undefined,
        bookings: undefined,
        waitingAhead: undefined,
        visits: undefined,
      };
    }
    const kind = tableKind(join.partySize, join.capacities);
    return {
      ahead: this.entries.countActiveRead(venue.id, { businessDate: join.businessDate, maxSize: kind }),
      ...this.estimator.reads(venue, join),
    };
  }

  /** The standing from what `joinReads` found. */
  standingFrom(venue: Venue, join: JoinQuoteFacts, found: JoinQuoteInputs): Standing {
    const { ahead } = found;
    const position = ahead + 1;
    if (venue.seating === 'pool') {
      return { position, ahead, waitMinutes: null, quote: quoteText(position, ahead, null), pastServiceEnd: false };
    }
    // The same arithmetic as tableQuote, with the counting done by the database.
    const kind = tableKind(join.partySize, join.capacities);
    const { turnMinutes } = join;
    const turns = {
      minutes: turnMinutes === null ? null : position * turnMinutes,
      inputs: { position, ahead, kind, turnMinutes },
    };
    const { seating, floor, bookings, waitingAhead, visits } = found;
    if (!seating || !floor || !bookings || !waitingAhead || !visits) throw new Error('the floor model was not read');
    // Both models, always: the venue's policy.quoteModel only chooses which one the party is told.
    const facts = {
      partySize: join.partySize,
      businessDate: join.businessDate,
      now: join.now,
      windowTurnMinutes: turnMinutes,
      turns,
    };
    const estimate = this.estimator.fromInputs(venue, facts, { seating, floor, bookings, waitingAhead, visits });
    const waitMinutes = estimate.shownMinutes;
    const pastServiceEnd =
      waitMinutes !== null &&
      join.serviceEndsAt !== null &&
      join.now.getTime() + waitMinutes * 60_000 > join.serviceEndsAt.getTime();
    return { position, ahead, waitMinutes, quote: quoteText(position, ahead, waitMinutes, true), estimate, pastServiceEnd };
  }

  /** The entry's quote row, for the join to write with the entry in one statement. */
  recordRow(entry: QueueEntry, standing: Standing): PendingInsert[] {
    return standing.estimate ? [this.estimator.recordRow(entry, standing.estimate, entry.receivedAt)] : [];
  }

  /** Where an entry stands now, by the same rule; null once it has left the active queue. */
  async positionOf(tx: EntityManager, venue: Venue, entry: QueueEntry): Promise<{ position: number; ahead: number } | null> {
    if (!ACTIVE_STATUSES.includes(entry.status)) return null;
    const queue =
      venue.seating === 'pool'
        ? await this.entries.active(tx, venue.id)
        : await this.entries.activeOfDay(tx, venue.id, entry.businessDate);
    const capacities = venue.seating === 'pool' ? [] : await this.tables.seatingCapacities(tx, venue.id);
    return this.positionIn(venue, entry, queue, capacities);
  }

  /**
   * `positionOf` as parts of a combined read that reads the venue and the entry in the same
   * statement (a party's page, polled every few seconds): keyed by the entry alone, the rest found
   * in the statement. `positionIn` counts from what it answers.
   */
  positionReads(venueId: string, entryId: string) {
    return { line: this.entries.lineToRead(venueId, entryId), capacities: this.tables.seatingCapacitiesRead(venueId) };
  }

  /**
   * The counting of `positionOf`, from the active entries in waiting order (at least those up to the
   * entry: of its day at a table venue, of the whole queue at a pool venue) and, at a table venue,
   * its seating capacities.
   */
  positionIn(
    venue: Pick<Venue, 'seating'>,
    entry: Pick<QueueEntry, 'id' | 'status' | 'partySize'>,
    queue: ReadonlyArray<Pick<QueueEntry, 'id' | 'partySize'>>,
    capacities: number[],
  ): { position: number; ahead: number } | null {
    if (!ACTIVE_STATUSES.includes(entry.status)) return null;
    const index = queue.findIndex((e) => e.id === entry.id);
    if (index < 0) return null;
    if (venue.seating === 'pool') return { position: index + 1, ahead: index };
    const earlier = queue.slice(0, index);
    const q = tableQuote(
      entry.partySize,
      earlier.map((e) => e.partySize),
      capacities,
      null,
    );
    return { position: q.position, ahead: q.ahead };
  }
}
