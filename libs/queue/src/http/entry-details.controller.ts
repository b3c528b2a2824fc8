import { Body, Controller, HttpCode, Param, ParseUUIDPipe, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { VenueRole } from '@hostboard/core';
import { EntryDetailsService, type EntryDetails } from '../details/entry-details.service.js';
import { EntryDetailsDto } from './entry-details.dto.js';

@ApiTags('queue')
@ApiBearerAuth()
@Controller('v1/venues/:venueId/queue')
export class EntryDetailsController {
  constructor(private readonly details: EntryDetailsService) {}

  /** Staff-only note and tags of a party (replaced whole); the board shows them on the party's row. */
  @VenueRole('host')
  @Put(':entryId/details')
  @HttpCode(200)
  set(
    @Param('venueId', ParseUUIDPipe) venueId: string,
    @Param('entryId', ParseUUIDPipe) entryId: string,
    @Body() body: EntryDetailsDto,
  ): Promise<EntryDetails> {
    return this.details.set(venueId, entryId, body);
  }
}
