import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Public } from '@hostboard/core';
import { ExchangeTokenDto } from '@hostboard/queue';
import { PartyQueueService, type AcceptedByToken, type PartyQueueView } from '../party-queue.service.js';
import { AcceptByTokenDto } from './party-acts.dto.js';

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

  /**
   * Accepts the party's offer by its queue token, spending the token for a session only once the
   * accept succeeded: a tap that reached the server just after the hold lapsed is refused and
   * spends nothing, so the link goes on working on every phone of the party.
   */
  @Public('a party accepts its own offer with its queue token, spending it only when the accept succeeds')
  @Post('accept')
  @HttpCode(200)
  accept(@Body() body: AcceptByTokenDto): Promise<AcceptedByToken> {
    return this.party.acceptByToken(body.token, body.offerId, body.key);
  }
}
