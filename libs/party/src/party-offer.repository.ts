import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { selectEntity } from '@hostboard/core';
import { Offer } from '@hostboard/offer';

@Injectable()
export class PartyOfferRepository {
  /**
   * The offer "accept my offer" means: the entry's live offer (at most one, by invariant 3), else the
   * one resolved last, so a lapsed offer answers WAITLIST_OFFER_EXPIRED rather than "nothing to
   * accept". Never decided by creation time alone: a withdrawal and a re-offer can share an instant
   * (a sandbox clock, or one millisecond live), and then only the random id would tell them apart.
   */
  forAccept(tx: EntityManager, venueId: string, entryId: string): Promise<Offer | null> {
    return selectEntity(
      tx,
      Offer,
      `venue_id = $1 AND entry_id = $2
       ORDER BY (state = 'live') DESC, resolved_at DESC NULLS LAST, created_at DESC, id DESC LIMIT 1`,
      [venueId, entryId],
    );
  }

  /** Whether the offer is one of this entry's (an offer never changes entry, so no lock is needed to know). */
  async isEntrysOffer(tx: EntityManager, venueId: string, entryId: string, offerId: string): Promise<boolean> {
    const rows: unknown[] = await tx.query('SELECT 1 FROM offers WHERE id = $1 AND venue_id = $2 AND entry_id = $3', [
      offerId,
      venueId,
      entryId,
    ]);
    return rows.length > 0;
  }

  /**
   * The entry's offer that ended last (none is live): how its most recent offer ended, for the party's
   * page. Ordered as forAccept orders the ended ones, so a withdrawal and a re-offer at one instant
   * still answer the later one.
   */
  lastEnded(tx: EntityManager, venueId: string, entryId: string): Promise<Offer | null> {
    return selectEntity(
      tx,
      Offer,
      `venue_id = $1 AND entry_id = $2 AND state <> 'live'
       ORDER BY resolved_at DESC NULLS LAST, created_at DESC, id DESC LIMIT 1`,
      [venueId, entryId],
    );
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
