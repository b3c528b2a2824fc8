import { Module } from '@nestjs/common';
import { AllocatorModule } from '@hostboard/allocator';
import { VenueModule } from '@hostboard/venue';
import { BookingService } from './booking.service.js';
import { ReservationsController } from './http/reservations.controller.js';

/** Confirmed bookings and registrations. */
@Module({
  imports: [VenueModule, AllocatorModule],
  controllers: [ReservationsController],
  providers: [BookingService],
  exports: [BookingService],
})
export class BookingModule {}
