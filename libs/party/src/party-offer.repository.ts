import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Offer } from '@hostboard/offer';

@Injectable()
export class PartyOfferRepository {
  /** The entry's newest offer in any state: what "accept my offer" refers to, even once it has lapsed. */
  latestForEntry(tx: EntityManager, venueId: string, entryId: string): Promise<Offer | null> {
    return tx.findOne(Offer, { where: { venueId, entryId }, order: { createdAt: 'DESC', id: 'DESC' } });
  }
}
