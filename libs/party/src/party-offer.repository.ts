import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { entityRead, selectEntity, type ScalarRead } from '@hostboard/core';
import { Offer, type OfferState } from '@hostboard/offer';

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

  /**
   * The offer named, if it is one of this entry's, with its state: an offer never changes entry, and
   * an ended one never opens again, so no lock is needed to know either.
   */
  async entrysOffer(
    tx: EntityManager,
    venueId: string,
    entryId: string,
    offerId: string,
  ): Promise<{ id: string; state: OfferState } | null> {
    const rows: Array<{ id: string; state: OfferState }> = await tx.query(
      'SELECT id, state FROM offers WHERE id = $1 AND venue_id = $2 AND entry_id = $3',
      [offerId, venueId, entryId],
    );
    return rows[0] ?? null;
  }

  /**
   * The entry's offer that ended last (none is live): how its most recent offer ended, for the party's
   * page. Ordered as forAccept orders the ended ones, so a withdrawal and a re-offer at one instant
   * still answer the later one.
   */
  lastEndedRead(tx: EntityManager, venueId: string, entryId: string): ScalarRead<Offer | null> {
    return entityRead(
      tx,
      Offer,
      `venue_id = $1 AND entry_id = $2 AND state <> 'live'
       ORDER BY resolved_at DESC NULLS LAST, created_at DESC, id DESC`,
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
