import { Injectable } from '@nestjs/common';
import { DomainException, TransactionRunner } from '@hostboard/core';
import { PoolAllocator, TableFloorReader, type PoolCounts, type TableCounts } from '@hostboard/allocator';
import { ReachReader, type Reach } from '@hostboard/outbox';
import { kindPositions, QueueEntryRepository, toEntryView, type EntryView } from '@hostboard/queue';
import { TablesRepository, VenueClock, VenueRepository } from '@hostboard/venue';
import { OfferRepository } from '../offers/offer.repository.js';
import { toOfferView, type OfferView } from '../offers/offer.view.js';
import { placeOf } from './entry-place.js';
import { poolHead } from './promotion.service.js';
import { SweepService } from './sweep.service.js';

export interface QueueView {
  version: number;
  /**
   * `position` is the place in the whole list; `kindPosition` is the position the party was told,
   * counted as its quote counts (the same day's parties that fit its kind of table), so the host can
   * say the same number the party heard.
   */
  /**
   * `reach`: whether the venue's messages reach the party (see ReachReader); absent at a seat pool,
   * which sends its groups no message.
   */
  entries: Array<EntryView & { position: number; kindPosition: number; reach?: Reach; offer?: OfferView }>;
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
    private readonly floor: TableFloorReader,
    private readonly clock: VenueClock,
    private readonly sweep: SweepService,
    private readonly tables: TablesRepository,
    private readonly reach: ReachReader,
  ) {}

  async queue(venueId: string): Promise<QueueView> {
    // Reading sweeps first (a cheap check when nothing is due), so lapsed holds and the parties of
    // an ended business day never show as still in the queue.
    await this.sweep.sweepFirst(venueId);
    return this.tx.run(async ({ manager }) => {
      const venue = await this.venues.findById(manager, venueId);
      if (!venue) throw DomainException.notFound('The venue was not found.');
      const active = await this.entries.active(manager, venueId);
      const live = new Map((await this.offers.live(manager, venueId)).map((o) => [o.entryId, o]));
      const capacities = venue.seating === 'tables' ? await this.tables.seatingCapacities(manager, venueId) : null;
      const kinds = kindPositions(active, capacities);
      // A seat pool sends its groups no message: none of them is reached or unreached.
      const reach = venue.seating === 'pool' ? null : await this.reach.of(manager, venueId, active);
      const view: QueueView = {
        version: Number(venue.version),
        entries: active.map((e, i) => {
          const offer = live.get(e.id);
          // Object.assign, not a spread: see the board's snapshot (BoardSnapshotService).
          return Object.assign(toEntryView(e), placeOf(e.id, i, kinds, reach), offer ? { offer: toOfferView(offer) } : {});
        }),
      };
      if (venue.seating === 'pool') {
        const oldest = active.find((e) => e.status === 'waiting') ?? null;
        const { available } = this.pool.counts(venue);
        const strict = venue.queueOrder === 'strict';
        const firstFit = strict || !oldest ? null : await this.entries.oldestWaiting(manager, venueId, available);
        const head = poolHead(strict, oldest, firstFit, available);
        if (head) view.head = head;
      }
      return view;
    });
  }

  /** Pool venues: people confirmed, held, available. Table venues: tables by what they are doing now. */
  async counts(venueId: string): Promise<PoolCounts | TableCounts> {
    // As the queue and the board do: a hold past its expiry is released before it is counted, so the
    // counts never show seats held that the queue has already let go (after a restart, the jobs of
    // holds that lapsed while the app was down have not run yet).
    await this.sweep.sweepFirst(venueId);
    return this.tx.run(async ({ manager }) => {
      const venue = await this.venues.findById(manager, venueId);
      if (!venue) throw DomainException.notFound('The venue was not found.');
      if (venue.seating === 'tables') return this.floor.counts(await this.floor.floor(manager, venueId, this.clock.now(venue)));
      return this.pool.counts(venue);
    });
  }
}
