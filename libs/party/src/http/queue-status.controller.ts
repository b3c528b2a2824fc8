import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Public } from '@hostboard/core';
import { ExchangeTokenDto } from '@hostboard/queue';
import { PartyQueueService, type PartyQueueView } from '../party-queue.service.js';

@ApiTags('queue sessions')
@Controller('v1/queue-status')
export class QueueStatusController {
  constructor(private readonly party: PartyQueueService) {}

  /**
   * Where the party stands, by its queue token, without using the token (POST, so the token travels
   * in the body, never in a URL or an access log). Wrong tokens count against the address.
   */
  @Public('a party reads its own entry by its queue token, without spending it')
  @Post()
  @HttpCode(200)
  status(@Body() body: ExchangeTokenDto): Promise<PartyQueueView> {
    return this.party.status(body.token);
  }
}
