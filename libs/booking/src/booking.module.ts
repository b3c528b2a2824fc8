import { Module } from '@nestjs/common';
import { AllocatorModule } from '@hostboard/allocator';
import { AuthModule } from '@hostboard/auth';
import { OfferModule } from '@hostboard/offer';
import { QueueModule } from '@hostboard/queue';
import { VenueModule } from '@hostboard/venue';
import { BookingService } from './booking.service.js';
import { BookingSessionsController } from './http/booking-sessions.controller.js';
import { ReservationsController } from './http/reservations.controller.js';
import { SeatingController } from './http/seating.controller.js';
import { WalkInsController } from './http/walk-ins.controller.js';
import { SeatingService } from './seating.service.js';
import { WalkInService } from './walk-in.service.js';
import { BookingSessionGuard } from './sessions/booking-session.guard.js';
import { BookingSessionService } from './sessions/booking-session.service.js';

/** Confirmed bookings and registrations, booking links and sessions, seating and visits. */
@Module({
  imports: [VenueModule, AllocatorModule, QueueModule, OfferModule, AuthModule],
  controllers: [ReservationsController, SeatingController, WalkInsController, BookingSessionsController],
  providers: [BookingService, SeatingService, WalkInService, BookingSessionService, BookingSessionGuard],
  exports: [BookingService, SeatingService, WalkInService],
})
export class BookingModule {}
