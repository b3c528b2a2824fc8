import { Body, Controller, HttpCode, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { VenueRole } from '@hostboard/core';
import { WalkInService, type SeatedWalkIn } from '../walk-in.service.js';
import { WalkInDto } from './walk-in.dto.js';

@ApiTags('seating')
@ApiBearerAuth()
@Controller('v1/venues/:venueId/walk-ins')
export class WalkInsController {
  constructor(private readonly walkIns: WalkInService) {}

  /** Books the tables from now for one turn and seats the party, in one command. */
  @VenueRole('host')
  @Post()
  @HttpCode(201)
  seat(@Param('venueId', ParseUUIDPipe) venueId: string, @Body() body: WalkInDto): Promise<SeatedWalkIn> {
    return this.walkIns.seat(venueId, body);
  }
}
