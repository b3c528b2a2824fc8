import { Module } from '@nestjs/common';
import { AuthModule } from '@hostboard/auth';
import { VenuesController } from './http/venues.controller.js';
import { VenueClock } from './venues/venue-clock.js';
import { VenueRepository } from './venues/venue.repository.js';
import { VenueService } from './venues/venue.service.js';

/** Venues and their policies. */
@Module({
  imports: [AuthModule],
  controllers: [VenuesController],
  providers: [VenueClock, VenueRepository, VenueService],
  exports: [VenueClock, VenueRepository, VenueService],
})
export class VenueModule {}
