import { Body, Controller, Get, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { PartySession, Public } from '@hostboard/core';
import type { ReservationView } from '@hostboard/allocator';
import { BookingSessionGuard, type BookingSessionRequest } from '../sessions/booking-session.guard.js';
import { tokenInvalid } from '@hostboard/queue';
import { BookingSessionService } from '../sessions/booking-session.service.js';
import { ExchangeBookingLinkDto } from './exchange-booking-link.dto.js';

@ApiTags('booking session')
@Controller('v1')
export class BookingSessionsController {
  constructor(private readonly sessions: BookingSessionService) {}

  @Public('a party exchanges its one-time booking link')
  @Post('booking-sessions')
  @HttpCode(201)
  exchange(@Body() body: ExchangeBookingLinkDto): Promise<{ sessionToken: string; reservationId: string; expiresAt: string }> {
    return this.sessions.exchange(body.token);
  }

  @PartySession('booking')
  @UseGuards(BookingSessionGuard)
  @Get('booking-session')
  mine(@Req() req: BookingSessionRequest): Promise<ReservationView> {
    if (!req.bookingSession) throw tokenInvalid();
    return this.sessions.view(req.bookingSession);
  }
}
