import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Offer } from '@hostboard/offer';

@Injectable()
export class PartyOfferRepository {
  /** The entry's newest offer in any state: what "accept my offer" refers to, even once it has lapsed. */
  latestForEntry(tx: EntityManager, venueId: string, entryId: string): Promise<Offer | null> {
    return tx.findOne(Offer, { where: { venueId, entryId }, order: { createdAt: 'DESC', id: 'DESC' } });
  }

  /** The tables an offer's reservation holds (what the desk tells the party). */
  async tableIdsOf(tx: EntityManager, reservationId: string): Promise<string[]> {
    const rows: Array<{ table_id: string }> = await tx.query(
      'SELECT table_id FROM reservation_tables WHERE reservation_id = $1 AND active ORDER BY table_id',
      [reservationId],
    );
    return rows.map((r) => r.table_id);
  }
}
