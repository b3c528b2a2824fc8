import { Body, Controller, Get, HttpCode, Param, ParseUUIDPipe, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { linkNextPage, pageLimit, VenueRole } from '@hostboard/core';
import type { ReservationView } from '@hostboard/allocator';
import { BookingService, type CreatedBooking } from '../booking.service.js';
import { CreateReservationDto } from './create-reservation.dto.js';
import { ReservationsQueryDto } from './reservations-query.dto.js';

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
  async list(
    @Param('venueId', ParseUUIDPipe) venueId: string,
    @Query() query: ReservationsQueryDto,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<ReservationView[]> {
    const page = await this.bookings.list(venueId, { limit: pageLimit(query), before: query.before, state: query.state });
    linkNextPage(req, res, page.next);
    return page.items;
  }
}
