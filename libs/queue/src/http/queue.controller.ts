import { Body, Controller, HttpCode, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { VenueRole } from '@hostboard/core';
import { JoinService, type JoinResult } from '../join/join.service.js';
import { JoinQueueDto } from './join-queue.dto.js';

@ApiTags('queue')
@ApiBearerAuth()
@Controller('v1/venues/:venueId/queue')
export class QueueController {
  constructor(private readonly joins: JoinService) {}

  /** Desk join (host+). */
  @VenueRole('host')
  @Post()
  @HttpCode(201)
  join(@Param('venueId', ParseUUIDPipe) venueId: string, @Body() body: JoinQueueDto): Promise<JoinResult> {
    return this.joins.deskJoin(venueId, body);
  }
}
