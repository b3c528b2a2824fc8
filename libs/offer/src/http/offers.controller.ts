import { Body, Controller, Get, HttpCode, Param, ParseUUIDPipe, Post, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { VenueRole } from '@hostboard/core';
import type { PoolCounts, ReservationView, TableCounts } from '@hostboard/allocator';
import { AcceptanceService } from '../lifecycle/acceptance.service.js';
import { CancellationService, type CancelledEntry, type CancelledReservation } from '../lifecycle/cancellation.service.js';
import { PromotionService, type PromotionResult } from '../lifecycle/promotion.service.js';
import { QueueReadService, type QueueView } from '../lifecycle/queue-read.service.js';
import { SandboxClockService } from '../lifecycle/sandbox-clock.service.js';
import { SweepService } from '../lifecycle/sweep.service.js';
import { BoardSnapshotService, type BoardSnapshot } from '../lifecycle/board-snapshot.service.js';
import type { OfferView } from '../offers/offer.view.js';
import { MoveClockDto } from './move-clock.dto.js';
import { CreateOfferDto } from './create-offer.dto.js';
import { TableOfferService } from '../lifecycle/table-offer.service.js';

/** Floor acts on offers, promotions, sweeps and cancellations, and what the floor reads. */
@ApiTags('floor')
@ApiBearerAuth()
@Controller('v1/venues/:venueId')
export class FloorController {
  constructor(
    private readonly promotions: PromotionService,
    private readonly acceptance: AcceptanceService,
    private readonly cancellations: CancellationService,
    private readonly sweeps: SweepService,
    private readonly reads: QueueReadService,
    private readonly clock: SandboxClockService,
    private readonly board: BoardSnapshotService,
    private readonly tableOffers: TableOfferService,
  ) {}

  @VenueRole('host')
  @Post('promotions')
  @HttpCode(201)
  async promote(
    @Param('venueId', ParseUUIDPipe) venueId: string,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<PromotionResult> {
    const result = await this.promotions.promote(venueId);
    // Nobody to promote is an answer, not an error (like an empty sweep): 200 with the reason.
    if (!result.offer) void res.status(200);
    return result;
  }

  @VenueRole('host')
  @Post('offers')
  @HttpCode(201)
  offer(
    @Param('venueId', ParseUUIDPipe) venueId: string,
    @Body() body: CreateOfferDto,
  ): Promise<{ offer: OfferView; reservation: ReservationView }> {
    return this.tableOffers.offer(venueId, body);
  }

  @VenueRole('host')
  @Post('offers/:offerId/accept')
  @HttpCode(200)
  accept(
    @Param('venueId', ParseUUIDPipe) venueId: string,
    @Param('offerId', ParseUUIDPipe) offerId: string,
  ): Promise<{ offer: OfferView; reservation: ReservationView }> {
    return this.acceptance.accept(venueId, offerId);
  }

  @VenueRole('host')
  @Post('offers/:offerId/withdraw')
  @HttpCode(200)
  withdraw(
    @Param('venueId', ParseUUIDPipe) venueId: string,
    @Param('offerId', ParseUUIDPipe) offerId: string,
  ): Promise<{ offer: OfferView }> {
    return this.acceptance.withdraw(venueId, offerId);
  }

  @VenueRole('host')
  @Post('sweeps')
  @HttpCode(200)
  sweep(@Param('venueId', ParseUUIDPipe) venueId: string): Promise<{ expired: string[] }> {
    return this.sweeps.manualSweep(venueId);
  }

  @VenueRole('host')
  @Post('queue/:entryId/cancel')
  @HttpCode(200)
  cancelEntry(
    @Param('venueId', ParseUUIDPipe) venueId: string,
    @Param('entryId', ParseUUIDPipe) entryId: string,
  ): Promise<CancelledEntry> {
    return this.cancellations.cancelEntry(venueId, entryId);
  }

  @VenueRole('host')
  @Post('reservations/:reservationId/cancel')
  @HttpCode(200)
  cancelReservation(
    @Param('venueId', ParseUUIDPipe) venueId: string,
    @Param('reservationId', ParseUUIDPipe) reservationId: string,
  ): Promise<CancelledReservation> {
    return this.cancellations.cancelReservation(venueId, reservationId);
  }

  @VenueRole('host')
  @Get('queue')
  queue(@Param('venueId', ParseUUIDPipe) venueId: string): Promise<QueueView> {
    return this.reads.queue(venueId);
  }

  @VenueRole('host')
  @Get('board')
  snapshot(@Param('venueId', ParseUUIDPipe) venueId: string): Promise<BoardSnapshot> {
    return this.board.snapshot(venueId);
  }

  @VenueRole('host')
  @Get('counts')
  counts(@Param('venueId', ParseUUIDPipe) venueId: string): Promise<PoolCounts | TableCounts> {
    return this.reads.counts(venueId);
  }

  @VenueRole('manager')
  @Post('clock')
  @HttpCode(200)
  moveClock(
    @Param('venueId', ParseUUIDPipe) venueId: string,
    @Body() body: MoveClockDto,
  ): Promise<{ now: string; expired: string[] }> {
    return this.clock.advance(venueId, new Date(body.now));
  }
}
