import { Controller, Get, Param, ParseUUIDPipe } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { VenueRole } from '@hostboard/core';
import { MessagesService } from '../messages.service.js';
import type { MessageView } from '../outbox.writer.js';

@ApiTags('messages')
@ApiBearerAuth()
@Controller('v1/venues/:venueId/messages')
export class MessagesController {
  constructor(private readonly messages: MessagesService) {}

  @VenueRole('manager')
  @Get()
  list(@Param('venueId', ParseUUIDPipe) venueId: string): Promise<MessageView[]> {
    return this.messages.list(venueId);
  }
}
