import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Offer, type OfferState } from './offer.entity.js';

@Injectable()
export class OfferRepository {
  async insert(tx: EntityManager, offer: Offer): Promise<void> {
    await tx.insert(Offer, offer);
  }

  find(tx: EntityManager, venueId: string, id: string): Promise<Offer | null> {
    return tx.findOneBy(Offer, { venueId, id });
  }

  liveForEntry(tx: EntityManager, entryId: string): Promise<Offer | null> {
    return tx.findOneBy(Offer, { entryId, state: 'live' });
  }

  live(tx: EntityManager, venueId: string): Promise<Offer[]> {
    return tx.find(Offer, { where: { venueId, state: 'live' }, order: { expiresAt: 'ASC' } });
  }

  /** Live offers whose deadline has come: `expires_at <= now` (acceptance is valid strictly before it). */
  due(tx: EntityManager, venueId: string, now: Date): Promise<Offer[]> {
    return tx
      .createQueryBuilder(Offer, 'o')
      .where("o.venue_id = :venueId AND o.state = 'live' AND o.expires_at <= :now", { venueId, now })
      .orderBy('o.expires_at', 'ASC')
      .addOrderBy('o.id', 'ASC')
      .getMany();
  }

  /** Ends a live offer; false when it was no longer live (a repeat changes nothing). */
  async end(tx: EntityManager, id: string, to: OfferState, at: Date): Promise<boolean> {
    const result = await tx
      .createQueryBuilder()
      .update(Offer)
      .set({ state: to, resolvedAt: at })
      .where("id = :id AND state = 'live'", { id })
      .execute();
    return (result.affected ?? 0) > 0;
  }
}
