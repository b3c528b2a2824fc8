import { Body, Controller, HttpCode, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { VenueRole } from '@hostboard/core';
import type { ReservationView } from '@hostboard/allocator';
import { SeatingService, type VisitView } from '../seating.service.js';
import { MoveReservationDto } from './move-reservation.dto.js';

@ApiTags('seating')
@ApiBearerAuth()
@Controller('v1/venues/:venueId')
export class SeatingController {
  constructor(private readonly seating: SeatingService) {}

  @VenueRole('host')
  @Post('reservations/:reservationId/seat')
  @HttpCode(201)
  seat(
    @Param('venueId', ParseUUIDPipe) venueId: string,
    @Param('reservationId', ParseUUIDPipe) reservationId: string,
  ): Promise<{ reservation: ReservationView; visit: VisitView }> {
    return this.seating.seat(venueId, reservationId);
  }

  @VenueRole('host')
  @Post('visits/:visitId/clear')
  @HttpCode(200)
  clear(
    @Param('venueId', ParseUUIDPipe) venueId: string,
    @Param('visitId', ParseUUIDPipe) visitId: string,
  ): Promise<{ visit: VisitView }> {
    return this.seating.clear(venueId, visitId);
  }

  @VenueRole('host')
  @Post('reservations/:reservationId/move')
  @HttpCode(200)
  move(
    @Param('venueId', ParseUUIDPipe) venueId: string,
    @Param('reservationId', ParseUUIDPipe) reservationId: string,
    @Body() body: MoveReservationDto,
  ): Promise<{ reservation: ReservationView }> {
    return this.seating.move(venueId, reservationId, body.tableIds);
  }
}
