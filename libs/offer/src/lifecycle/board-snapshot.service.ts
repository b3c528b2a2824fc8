import { Injectable } from '@nestjs/common';
import { DomainException, readTogether, TransactionRunner } from '@hostboard/core';
import {
  PoolAllocator,
  TableFloorReader,
  type FloorTable,
  type PoolCounts,
  type TableCounts,
  type ToSeatParty,
} from '@hostboard/allocator';
import { BoardSnapshotSource } from '@hostboard/board';
import { GuestMessenger, ReachReader } from '@hostboard/outbox';
import { kindPositions, QueueEntryRepository, toEntryView } from '@hostboard/queue';
import { TablesRepository, VenueClock, VenueRepository } from '@hostboard/venue';
import { OfferRepository } from '../offers/offer.repository.js';
import { placeOf } from './entry-place.js';
import { toOfferView, type OfferView } from '../offers/offer.view.js';
import type { QueueView } from './queue-read.service.js';
import { poolHead } from './promotion.service.js';
import { SweepService } from './sweep.service.js';

/** How many queue entries the board carries (a tablet shows the head of the queue). */
export const BOARD_QUEUE_LIMIT = 200;

export interface BoardSnapshot extends Record<string, unknown> {
  version: number;
  now: string;
  venue: { id: string; name: string; seating: string; sandbox: boolean; timeZone: string };
  counts: PoolCounts | TableCounts;
  tables: FloorTable[];
  queue: Array<QueueView['entries'][number] & { quotedWaitMinutes: number | null; note: string | null; tags: string[] }>;
  /** Active entries in all; `queue` holds the first BOARD_QUEUE_LIMIT of them. */
  queueTotal: number;
  head: QueueView['head'] | null;
  offers: OfferView[];
  /** Confirmed parties not seated yet (tables venues): the board's "To be seated" list. */
  toSeat: ToSeatParty[];
  /** The guest page on PUBLIC_URL (`https://…/q/`), or null: the board then uses its own origin. */
  queuePage: string | null;
}

/**
 * The whole board in one read (one transaction, so version and contents agree): what `GET /board`
 * answers and what a board that lost track receives instead of events.
 */
@Injectable()
export class BoardSnapshotService extends BoardSnapshotSource {
  constructor(
    private readonly tx: TransactionRunner,
    private readonly venues: VenueRepository,
    private readonly clock: VenueClock,
    private readonly entries: QueueEntryRepository,
    private readonly offers: OfferRepository,
    private readonly pool: PoolAllocator,
    private readonly floor: TableFloorReader,
    private readonly sweep: SweepService,
    private readonly seating: TablesRepository,
    private readonly reach: ReachReader,
    private readonly guest: GuestMessenger,
  ) {
    super();
  }

  async snapshot(venueId: string): Promise<BoardSnapshot> {
    // As the queue read: sweep first, so an ended business day's parties are not on the board.
    await this.sweep.sweepFirst(venueId);
    return this.tx.run(async ({ manager }) => {
      const venue = await this.venues.findById(manager, venueId);
      if (!venue) throw DomainException.notFound('The venue was not found.');
      // The head of the queue, not all of it: the board costs the same with 10 or 10,000 waiting.
      // One connection per transaction: its queries run one after another.
      const active = await this.entries.activeHead(manager, venueId, BOARD_QUEUE_LIMIT);
      const now = this.clock.now(venue);
      const tablesVenue = venue.seating === 'tables';
      // The rest in one statement (issue 18): within this transaction, the same snapshot as above.
      const found = await readTogether(manager, {
        live: this.offers.liveRead(manager, venueId),
        offerTables: this.offers.liveTablesRead(venueId),
        queueTotal: this.entries.countActiveRead(venueId),
        // A seat pool sends its groups no message: no reach to read (see below).
        failed: tablesVenue ? this.reach.failedRead(venueId, active) : undefined,
        floor: tablesVenue ? this.floor.floorRead(venueId, now) : undefined,
        capacities: tablesVenue ? this.seating.seatingCapacitiesRead(venueId) : undefined,
        toSeat: tablesVenue ? this.floor.toSeatRead(venueId, now) : undefined,
      });
      const { live, offerTables, queueTotal } = found;
      // Only where the venue messages its parties: a seat pool sends none, so a group there is neither
      // reached nor unreached, and its rows carry no `reach` (the board marks none at a pool either).
      const reach = found.failed ? this.reach.reachOf(active, found.failed) : null;
      const byEntry = new Map(live.map((o) => [o.entryId, o]));
      const tables = found.floor ?? [];
      const pool = venue.seating === 'pool' ? this.pool.counts(venue) : null;
      const oldest = active.find((e) => e.status === 'waiting') ?? null;
      const kinds = kindPositions(active, found.capacities ?? null);
      // First fit: the group the next promotion holds seats for may wait beyond the board's page.
      const strict = venue.queueOrder === 'strict';
      const firstFit = pool && !strict && oldest ? await this.entries.oldestWaiting(manager, venueId, pool.available) : null;
      const head = pool ? poolHead(strict, oldest, firstFit, pool.available) : null;
      return {
        version: Number(venue.version),
        now: now.toISOString(),
        venue: { id: venue.id, name: venue.name, seating: venue.seating, sandbox: venue.sandbox, timeZone: venue.timeZone },
        counts: pool ?? this.floor.counts(tables),
        tables,
        queue: active.map((e, i) => {
          const offer = byEntry.get(e.id);
          // Object.assign, not `{ ...toEntryView(e), … }`: on Node 20 the spread built each row about
          // 15 times slower, and JSON.stringify read the result 3 times slower (a board of 200 parties:
          // 8.0-8.3 ms of api CPU per read with it, 5.1 without; docs/benchmarks.md, fourteenth round).
          return Object.assign(
            toEntryView(e),
            placeOf(e.id, i, kinds, reach),
            {
              quotedWaitMinutes: e.quotedWaitMinutes,
              // Staff-only details: the board is a staff read.
              note: e.staffNote ?? null,
              tags: e.staffTags ?? [],
            },
            offer ? { offer: toOfferView(offer, offerTables.get(offer.reservationId)) } : {},
          );
        }),
        queueTotal,
        head,
        offers: live.map((o) => toOfferView(o, offerTables.get(o.reservationId))),
        toSeat: found.toSeat ?? [],
        queuePage: this.guest.queueLink,
      };
    });
  }
}
