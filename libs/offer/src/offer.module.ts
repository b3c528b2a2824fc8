import { Module } from '@nestjs/common';
import { AllocatorModule } from '@hostboard/allocator';
import { QueueModule } from '@hostboard/queue';
import { VenueModule } from '@hostboard/venue';
import { FloorController } from './http/offers.controller.js';
import { AcceptanceService } from './lifecycle/acceptance.service.js';
import { CancellationService } from './lifecycle/cancellation.service.js';
import { OfferLifecycle } from './lifecycle/offer-lifecycle.js';
import { PromotionService } from './lifecycle/promotion.service.js';
import { QueueReadService } from './lifecycle/queue-read.service.js';
import { SandboxClockService } from './lifecycle/sandbox-clock.service.js';
import { SweepService } from './lifecycle/sweep.service.js';
import { EndedDayTables } from './lifecycle/ended-day-tables.js';
import { OfferRepository } from './offers/offer.repository.js';
import { TableOfferService } from './lifecycle/table-offer.service.js';
import { OutboxModule } from '@hostboard/outbox';
import { BoardSnapshotSource } from '@hostboard/board';
import { BoardSnapshotService } from './lifecycle/board-snapshot.service.js';
import { OfferExpiryHandlers } from './jobs/offer-expiry.handlers.js';
import { OfferExpiryScheduler } from './jobs/offer-expiry.scheduler.js';
import { OfferContactFollower } from './lifecycle/offer-contact.follower.js';
import { TableReadyMessages } from './lifecycle/table-ready.messages.js';

/** Offers, promotions, acceptance, withdrawal, cancellation and the sweep. */
@Module({
  imports: [VenueModule, QueueModule, AllocatorModule, OutboxModule],
  controllers: [FloorController],
  providers: [
    OfferRepository,
    OfferLifecycle,
    SweepService,
    EndedDayTables,
    PromotionService,
    AcceptanceService,
    CancellationService,
    QueueReadService,
    SandboxClockService,
    TableOfferService,
    TableReadyMessages,
    OfferContactFollower,
    BoardSnapshotService,
    { provide: BoardSnapshotSource, useExisting: BoardSnapshotService },
    OfferExpiryScheduler,
    OfferExpiryHandlers,
  ],
  exports: [
    SandboxClockService,
    OfferRepository,
    SweepService,
    PromotionService,
    AcceptanceService,
    CancellationService,
    QueueReadService,
    BoardSnapshotService,
    BoardSnapshotSource,
  ],
})
export class OfferModule {}
