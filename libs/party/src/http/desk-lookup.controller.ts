import { Body, Controller, HttpCode, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { VenueRole } from '@hostboard/core';
import { DeskLookupService } from '../desk-lookup.service.js';
import type { PartyQueueView } from '../party-queue.service.js';
import { DeskLookupDto } from './desk-lookup.dto.js';

@ApiTags('queue')
@ApiBearerAuth()
@Controller('v1/venues/:venueId/queue')
export class DeskLookupController {
  constructor(private readonly lookups: DeskLookupService) {}

  /** The party a queue token belongs to, with its live offer; the token is not spent. */
  @VenueRole('host')
  @Post('lookup')
  @HttpCode(200)
  lookup(@Param('venueId', ParseUUIDPipe) venueId: string, @Body() body: DeskLookupDto): Promise<PartyQueueView> {
    return this.lookups.lookup(venueId, body.token);
  }
}
