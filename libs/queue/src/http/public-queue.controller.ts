import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Public } from '@hostboard/core';
import { JoinService, type JoinResult } from '../join/join.service.js';
import { JoinQueueDto } from './join-queue.dto.js';

@ApiTags('queue')
@Controller('v1/public/venues/:slug/queue')
export class PublicQueueController {
  constructor(private readonly joins: JoinService) {}

  /** A party joins a published venue's queue; an unpublished venue does not exist here. */
  @Public('a party joins the queue of a published venue')
  @Post()
  @HttpCode(201)
  join(@Param('slug') slug: string, @Body() body: JoinQueueDto): Promise<JoinResult> {
    return this.joins.publicJoin(slug, body);
  }
}
