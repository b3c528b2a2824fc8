import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { QuoteModel } from '@hostboard/venue';

export interface QuotedEntryRow {
  entryId: string;
  name: string;
  partySize: number;
  businessDate: string;
  receivedAt: Date;
  model: QuoteModel;
  turnsMinutes: number | null;
  floorMinutes: number | null;
  /** The entry's first offer; null when it was never offered a table. */
  firstOfferAt: Date | null;
}

@Injectable()
export class QuoteReportRepository {
  /** Every quoted entry of the business dates `from`..`to` (inclusive), in waiting order, with its first offer. */
  async quotedEntries(tx: EntityManager, venueId: string, from: string, to: string): Promise<QuotedEntryRow[]> {
    const rows: Array<{
      entry_id: string;
      name: string;
      party_size: number;
      business_date: string | Date;
      received_at: Date;
      model: QuoteModel;
      turns_minutes: number | null;
      floor_minutes: number | null;
      first_offer_at: Date | null;
    }> = await tx.query(
      `SELECT q.entry_id, e.name, e.party_size, q.business_date::text AS business_date, e.received_at, q.model,
              q.turns_minutes, q.floor_minutes,
              (SELECT min(o.created_at) FROM offers o WHERE o.entry_id = q.entry_id) AS first_offer_at
         FROM entry_quotes q
         JOIN queue_entries e ON e.id = q.entry_id
        WHERE q.venue_id = $1 AND q.business_date BETWEEN $2 AND $3
        ORDER BY e.received_at, e.queue_sequence`,
      [venueId, from, to],
    );
    return rows.map((r) => ({
      entryId: r.entry_id,
      name: r.name,
      partySize: Number(r.party_size),
      businessDate: String(r.business_date),
      receivedAt: new Date(r.received_at),
      model: r.model,
      turnsMinutes: r.turns_minutes === null ? null : Number(r.turns_minutes),
      floorMinutes: r.floor_minutes === null ? null : Number(r.floor_minutes),
      firstOfferAt: r.first_offer_at ? new Date(r.first_offer_at) : null,
    }));
  }
}
