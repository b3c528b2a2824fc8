import { Module } from '@nestjs/common';
import { PoolAllocator } from './pool.allocator.js';
import { ReservationRepository } from './reservation.repository.js';
import { TableAllocator } from './tables/table.allocator.js';
import { TableFloorReader } from './tables/table-floor.reader.js';
import { VenueModule } from '@hostboard/venue';

/** The only place that decides seats and tables. */
@Module({
  imports: [VenueModule],
  providers: [PoolAllocator, ReservationRepository, TableAllocator, TableFloorReader],
  exports: [PoolAllocator, ReservationRepository, TableAllocator, TableFloorReader],
})
export class AllocatorModule {}
