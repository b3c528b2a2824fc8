import { Controller, Get, Param, ParseUUIDPipe, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { linkNextPage, VenueRole } from '@hostboard/core';
import { MessagesService } from '../messages.service.js';
import type { MessageView } from '../outbox.writer.js';
import { MessagesQueryDto } from './messages-query.dto.js';

@ApiTags('messages')
@ApiBearerAuth()
@Controller('v1/venues/:venueId/messages')
export class MessagesController {
  constructor(private readonly messages: MessagesService) {}

  /** Newest first; the body stays an array and the next page's URL comes in `Link: <…>; rel="next"` (RFC 8288). */
  @VenueRole('manager')
  @Get()
  async list(
    @Param('venueId', ParseUUIDPipe) venueId: string,
    @Query() query: MessagesQueryDto,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<MessageView[]> {
    const page = await this.messages.page(venueId, query);
    linkNextPage(req, res, page.next);
    return page.items;
  }
}
