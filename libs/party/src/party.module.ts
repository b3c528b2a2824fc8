import { Module } from '@nestjs/common';
import { OfferModule } from '@hostboard/offer';
import { OutboxModule } from '@hostboard/outbox';
import { QueueModule } from '@hostboard/queue';
import { VenueModule } from '@hostboard/venue';
import { DeskLookupService } from './desk-lookup.service.js';
import { DeskLookupController } from './http/desk-lookup.controller.js';
import { QueueSessionController } from './http/queue-session.controller.js';
import { QueueStatusController } from './http/queue-status.controller.js';
import { PartyOfferRepository } from './party-offer.repository.js';
import { PartyQueueService } from './party-queue.service.js';
import { PartyViewReader } from './party-view.reader.js';

/**
 * The party's side: what a queue session opens. It sits above queue (sessions, positions) and offer
 * (acceptance, cancellation), which depends on queue, so neither has to import the other backwards.
 */
@Module({
  imports: [VenueModule, QueueModule, OfferModule, OutboxModule],
  controllers: [QueueSessionController, QueueStatusController, DeskLookupController],
  providers: [PartyQueueService, PartyViewReader, PartyOfferRepository, DeskLookupService],
})
export class PartyModule {}
