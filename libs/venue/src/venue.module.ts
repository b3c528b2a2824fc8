import { Module } from '@nestjs/common';
import { AuthModule } from '@hostboard/auth';
import { ServiceWindowsController } from './http/service-windows.controller.js';
import { TablesController } from './http/tables.controller.js';
import { VenuesController } from './http/venues.controller.js';
import { LapsedHolds } from './holds/lapsed-holds.js';
import { RunningWindowFinder } from './service-windows/running-window.finder.js';
import { ServiceWindowRepository } from './service-windows/service-window.repository.js';
import { ServiceWindowService } from './service-windows/service-window.service.js';
import { TablesRepository } from './tables/tables.repository.js';
import { TablesService } from './tables/tables.service.js';
import { VenueClock } from './venues/venue-clock.js';
import { VenueRepository } from './venues/venue.repository.js';
import { VenueService } from './venues/venue.service.js';

/** Venues and their policies, tables and approved combinations, service windows. */
@Module({
  imports: [AuthModule],
  controllers: [VenuesController, TablesController, ServiceWindowsController],
  providers: [
    VenueClock,
    VenueRepository,
    VenueService,
    TablesRepository,
    TablesService,
    ServiceWindowRepository,
    ServiceWindowService,
    RunningWindowFinder,
    LapsedHolds,
  ],
  exports: [
    VenueClock,
    VenueRepository,
    VenueService,
    TablesRepository,
    TablesService,
    ServiceWindowService,
    ServiceWindowRepository,
    RunningWindowFinder,
    LapsedHolds,
  ],
})
export class VenueModule {}
