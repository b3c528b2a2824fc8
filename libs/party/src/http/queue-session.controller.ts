import { Body, Controller, Get, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { PartySession } from '@hostboard/core';
import type { ReservationView } from '@hostboard/allocator';
import type { CancelledEntry, OfferView } from '@hostboard/offer';
import { CurrentQueueSession, QueueSessionGuard, type QueueSessionIdentity } from '@hostboard/queue';
import { PartyQueueService, type PartyQueueView } from '../party-queue.service.js';
import { AcceptOfferDto, LeaveQueueDto } from './party-acts.dto.js';

/** The party's own routes, with `Authorization: QueueSession <sessionToken>`; they open that one entry only. */
@ApiTags('queue sessions')
@PartySession('queue')
@UseGuards(QueueSessionGuard)
@Controller('v1/queue-session')
export class QueueSessionController {
  constructor(private readonly party: PartyQueueService) {}

  @Get()
  view(@CurrentQueueSession() session: QueueSessionIdentity): Promise<PartyQueueView> {
    return this.party.view(session);
  }

  @Post('leave')
  @HttpCode(200)
  leave(@CurrentQueueSession() session: QueueSessionIdentity, @Body() body: LeaveQueueDto): Promise<CancelledEntry> {
    return this.party.leave(session, body.entryId);
  }

  @Post('accept')
  @HttpCode(200)
  accept(
    @CurrentQueueSession() session: QueueSessionIdentity,
    @Body() body: AcceptOfferDto,
  ): Promise<{ offer: OfferView; reservation: ReservationView }> {
    return this.party.accept(session, body.offerId);
  }
}
