import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Public } from '@hostboard/core';
import { QueueSessionService, type OpenedSession } from '../sessions/queue-session.service.js';
import { ExchangeSessionDto } from './exchange-token.dto.js';

@ApiTags('queue sessions')
@Controller('v1/queue-sessions')
export class QueueSessionsController {
  constructor(private readonly sessions: QueueSessionService) {}

  /**
   * Exchanges a queue token, once, for a 60-minute session of that entry (rate-limited per address);
   * with the page's `key`, the same token and key again within minutes open the same session.
   */
  @Public('a party exchanges its one-time queue token')
  @Post()
  @HttpCode(201)
  exchange(@Body() body: ExchangeSessionDto): Promise<OpenedSession> {
    return this.sessions.exchange(body.token, body.key);
  }
}
