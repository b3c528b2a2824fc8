import { Body, Controller, Get, HttpCode, Param, ParseUUIDPipe, Patch, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { SweepFirst, VenueRole } from '@hostboard/core';
import { EntryCorrectionService } from '../correction/entry-correction.service.js';
import type { EntryView } from '../entries/queue-entry.view.js';
import { EntryReadService, type EntryDetail } from '../entries/entry-read.service.js';
import { JoinService, type JoinResult } from '../join/join.service.js';
import { TokenReplacementService, type ReplacedToken } from '../tokens/token-replacement.service.js';
import { CorrectEntryDto } from './correct-entry.dto.js';
import { JoinQueueDto } from './join-queue.dto.js';

@ApiTags('queue')
@ApiBearerAuth()
@Controller('v1/venues/:venueId/queue')
export class QueueController {
  constructor(
    private readonly joins: JoinService,
    private readonly corrections: EntryCorrectionService,
    private readonly tokens: TokenReplacementService,
    private readonly reads: EntryReadService,
    private readonly sweepFirst: SweepFirst,
  ) {}

  /** One entry in any status, with its queue sequence, received time, quote at join and history (host+). */
  @VenueRole('host')
  @Get(':entryId')
  async entry(
    @Param('venueId', ParseUUIDPipe) venueId: string,
    @Param('entryId', ParseUUIDPipe) entryId: string,
  ): Promise<EntryDetail> {
    await this.sweepFirst.of(venueId);
    return this.reads.detail(venueId, entryId);
  }

  /** Desk join (host+). */
  @VenueRole('host')
  @Post()
  @HttpCode(201)
  join(@Param('venueId', ParseUUIDPipe) venueId: string, @Body() body: JoinQueueDto): Promise<JoinResult> {
    return this.joins.deskJoin(venueId, body);
  }

  /** Staff correction of name, party size or contact; the place is kept. */
  @VenueRole('host')
  @Patch(':entryId')
  async correct(
    @Param('venueId', ParseUUIDPipe) venueId: string,
    @Param('entryId', ParseUUIDPipe) entryId: string,
    @Body() body: CorrectEntryDto,
  ): Promise<{ entry: EntryView }> {
    await this.sweepFirst.of(venueId);
    return this.corrections.correct(venueId, entryId, body);
  }

  /** A new queue token for the entry; the old one stops working. */
  @VenueRole('host')
  @Post(':entryId/token')
  @HttpCode(201)
  async replaceToken(
    @Param('venueId', ParseUUIDPipe) venueId: string,
    @Param('entryId', ParseUUIDPipe) entryId: string,
  ): Promise<ReplacedToken> {
    await this.sweepFirst.of(venueId);
    return this.tokens.replace(venueId, entryId);
  }
}
