import { Body, Controller, Get, HttpCode, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { VenueRole } from '@hostboard/core';
import type { ReservationView } from '@hostboard/allocator';
import { BookingService, type CreatedBooking } from '../booking.service.js';
import { CreateReservationDto } from './create-reservation.dto.js';

@ApiTags('reservations')
@ApiBearerAuth()
@Controller('v1/venues/:venueId/reservations')
export class ReservationsController {
  constructor(private readonly bookings: BookingService) {}

  @VenueRole('host')
  @Post()
  @HttpCode(201)
  create(@Param('venueId', ParseUUIDPipe) venueId: string, @Body() body: CreateReservationDto): Promise<CreatedBooking> {
    return this.bookings.create(venueId, body);
  }

  @VenueRole('host')
  @Get()
  list(@Param('venueId', ParseUUIDPipe) venueId: string): Promise<ReservationView[]> {
    return this.bookings.list(venueId);
  }
}
