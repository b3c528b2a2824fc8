import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { TablesRepository, type Venue } from '@hostboard/venue';
import { ACTIVE_STATUSES, type QueueEntry } from '../entries/queue-entry.entity.js';
import { QueueEntryRepository } from '../entries/queue-entry.repository.js';
import { tableKind, tableQuote } from './quote.js';

export interface Standing {
  position: number;
  ahead: number;
  /** Table venues with a running window; null otherwise (pool venues quote position only). */
  waitMinutes: number | null;
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
  ) {}

  /** The quote of a party about to join: everyone active now is earlier than it. */
  async forJoin(
    tx: EntityManager,
    venue: Venue,
    partySize: number,
    businessDate: string,
    turnMinutes: number | null,
  ): Promise<Standing> {
    if (venue.seating === 'pool') {
      const position = (await this.entries.countActive(tx, venue.id)) + 1;
      return { position, ahead: position - 1, waitMinutes: null };
    }
    // The same arithmetic as tableQuote, with the counting done by the database.
    const kind = tableKind(partySize, await this.tables.seatingCapacities(tx, venue.id));
    const ahead = await this.entries.countActive(tx, venue.id, { businessDate, maxSize: kind });
    const position = ahead + 1;
    return { position, ahead, waitMinutes: turnMinutes === null ? null : position * turnMinutes };
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
