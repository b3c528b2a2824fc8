import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { QuoteEstimator, type JoinEstimate } from '@hostboard/quote';
import { TablesRepository, type Venue } from '@hostboard/venue';
import { ACTIVE_STATUSES, type QueueEntry } from '../entries/queue-entry.entity.js';
import { QueueEntryRepository } from '../entries/queue-entry.repository.js';
import { quoteText, tableKind, tableQuote } from './quote.js';

export interface Standing {
  position: number;
  ahead: number;
  /** The minutes of the venue's quote model; null where there is none (pool venues quote position only). */
  waitMinutes: number | null;
  /** The words of the quote, e.g. "position 3 (2 ahead), quoted ~50 min (approx)". */
  quote: string;
  /** Table venues: both models' estimates, stored with the entry. */
  estimate?: JoinEstimate;
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
   * The quote of a party about to join: everyone active now is earlier than it. `capacities` are the
   * venue's seating capacities, already read by the join's seatable check.
   */
  async forJoin(
    tx: EntityManager,
    venue: Venue,
    partySize: number,
    businessDate: string,
    turnMinutes: number | null,
    now: Date,
    capacities: number[],
  ): Promise<Standing> {
    if (venue.seating === 'pool') {
      const position = (await this.entries.countActive(tx, venue.id)) + 1;
      return { position, ahead: position - 1, waitMinutes: null, quote: quoteText(position, position - 1, null) };
    }
    // The same arithmetic as tableQuote, with the counting done by the database.
    const kind = tableKind(partySize, capacities);
    const ahead = await this.entries.countActive(tx, venue.id, { businessDate, maxSize: kind });
    const position = ahead + 1;
    const turns = {
      minutes: turnMinutes === null ? null : position * turnMinutes,
      inputs: { position, ahead, kind, turnMinutes },
    };
    // Both models, always: the venue's policy.quoteModel only chooses which one the party is told.
    const estimate = await this.estimator.estimate(tx, venue, {
      partySize,
      businessDate,
      now,
      windowTurnMinutes: turnMinutes,
      turns,
    });
    const waitMinutes = estimate.shownMinutes;
    return { position, ahead, waitMinutes, quote: quoteText(position, ahead, waitMinutes, true), estimate };
  }

  /** Keeps both estimates with the (just inserted) entry. */
  async record(tx: EntityManager, entry: QueueEntry, standing: Standing): Promise<void> {
    if (standing.estimate) await this.estimator.record(tx, entry, standing.estimate, entry.receivedAt);
  }

  /** Where an entry stands now, by the same rule; null once it has left the active queue. */
  async positionOf(tx: EntityManager, venue: Venue, entry: QueueEntry): Promise<{ position: number; ahead: number } | null> {
    if (!ACTIVE_STATUSES.includes(entry.status)) return null;
    const queue =
      venue.seating === 'pool'
        ? await this.entries.active(tx, venue.id)
        : await this.entries.activeOfDay(tx, venue.id, entry.businessDate);
    const index = queue.findIndex((e) => e.id === entry.id);
    if (index < 0) return null;
    const earlier = queue.slice(0, index);
    if (venue.seating === 'pool') return { position: index + 1, ahead: index };
    const q = tableQuote(
      entry.partySize,
      earlier.map((e) => e.partySize),
      await this.tables.seatingCapacities(tx, venue.id),
      null,
    );
    return { position: q.position, ahead: q.ahead };
  }
}
