import { Injectable } from '@nestjs/common';
import { DomainException, TransactionRunner } from '@hostboard/core';
import { PoolAllocator, type PoolCounts } from '@hostboard/allocator';
import { QueueEntryRepository, toEntryView, type EntryView } from '@hostboard/queue';
import { VenueRepository } from '@hostboard/venue';
import { OfferRepository } from '../offers/offer.repository.js';
import { toOfferView, type OfferView } from '../offers/offer.view.js';
import { headBlockedReason } from './promotion.service.js';

export interface QueueView {
  version: number;
  entries: Array<EntryView & { position: number; offer?: OfferView }>;
  head?: { entryId: string; fits: boolean; reason: string | null };
}

/** What the floor reads: the active queue in waiting order with its offers, and the pool counts. */
@Injectable()
export class QueueReadService {
  constructor(
    private readonly tx: TransactionRunner,
    private readonly venues: VenueRepository,
    private readonly entries: QueueEntryRepository,
    private readonly offers: OfferRepository,
    private readonly pool: PoolAllocator,
  ) {}

  async queue(venueId: string): Promise<QueueView> {
    return this.tx.run(async ({ manager }) => {
      const venue = await this.venues.findById(manager, venueId);
      if (!venue) throw DomainException.notFound('The venue was not found.');
      const active = await this.entries.active(manager, venueId);
      const live = new Map((await this.offers.live(manager, venueId)).map((o) => [o.entryId, o]));
      const view: QueueView = {
        version: Number(venue.version),
        entries: active.map((e, i) => {
          const offer = live.get(e.id);
          return { ...toEntryView(e), position: i + 1, ...(offer ? { offer: toOfferView(offer) } : {}) };
        }),
      };
      if (venue.seating === 'pool') {
        const head = active.find((e) => e.status === 'waiting') ?? null;
        if (head) {
          const reason = headBlockedReason(head, this.pool.counts(venue).available);
          view.head = { entryId: head.id, fits: reason === null, reason };
        }
      }
      return view;
    });
  }

  async counts(venueId: string): Promise<PoolCounts> {
    return this.tx.run(async ({ manager }) => {
      const venue = await this.venues.findById(manager, venueId);
      if (!venue) throw DomainException.notFound('The venue was not found.');
      return this.pool.counts(venue);
    });
  }
}
