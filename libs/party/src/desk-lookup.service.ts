import { Injectable } from '@nestjs/common';
import { TransactionRunner } from '@hostboard/core';
import { queueCodeHashes, QueueTokenRepository, tokenInvalid } from '@hostboard/queue';
import { VenueClock, VenueRepository } from '@hostboard/venue';
import { PartyOfferRepository } from './party-offer.repository.js';
import { PartyQueueService, type PartyQueueView } from './party-queue.service.js';

/**
 * The desk reads the party a queue token belongs to, without using the token up: the party keeps
 * it, and the host then acts with staff routes (accept on the party's behalf, cancel). Only an open
 * token of this venue answers (not used, not replaced, not expired); any other answers TOKEN_INVALID,
 * the same as a token that never existed, so the answer tells nothing about other venues' tokens.
 */
@Injectable()
export class DeskLookupService {
  constructor(
    private readonly tx: TransactionRunner,
    private readonly venues: VenueRepository,
    private readonly clock: VenueClock,
    private readonly tokens: QueueTokenRepository,
    private readonly party: PartyQueueService,
    private readonly offers: PartyOfferRepository,
  ) {}

  async lookup(venueId: string, token: string): Promise<PartyQueueView> {
    // As typed at the desk, perhaps as the party read it out: any case, l or I for 1, O for 0.
    const hashes = queueCodeHashes(token);
    if (hashes.length === 0) throw tokenInvalid();
    const entryId = await this.tx.run(async ({ manager }) => {
      const found = await this.tokens.findByHashes(manager, hashes);
      if (!found || found.venueId !== venueId || found.usedAt !== null || found.replacedAt !== null) return null;
      const venue = await this.venues.findById(manager, venueId);
      if (!venue || !(this.clock.now(venue).getTime() < found.expiresAt.getTime())) return null;
      return found.entryId;
    });
    if (!entryId) throw tokenInvalid();
    const view = await this.party.view({ sessionId: '', entryId, venueId });
    const offer = view.offer;
    if (!offer) return view;
    // The desk says which tables are held for the party.
    const tableIds = await this.tx.run(({ manager }) => this.offers.tableIdsOf(manager, offer.reservationId));
    return { ...view, offer: { ...offer, tableIds } };
  }
}
