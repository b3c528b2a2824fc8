import { Module } from '@nestjs/common';
import { VenueModule } from '@hostboard/venue';
import { QueueEntryRepository } from './entries/queue-entry.repository.js';
import { QueueController } from './http/queue.controller.js';
import { JoinService } from './join/join.service.js';

/** Queue entries and joins. */
@Module({
  imports: [VenueModule],
  controllers: [QueueController],
  providers: [QueueEntryRepository, JoinService],
  exports: [QueueEntryRepository, JoinService],
})
export class QueueModule {}
