import { Body, Controller, Get, HttpCode, Param, ParseUUIDPipe, Patch, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { linkNextPage, pageLimit, SignedIn, VenueRole, type HistoryView } from '@hostboard/core';
import { CurrentStaff, type StaffIdentity } from '@hostboard/auth';
import { VenueService, type VenueReadView } from '../venues/venue.service.js';
import type { VenueView } from '../venues/venue.view.js';
import { CreateVenueDto } from './create-venue.dto.js';
import { HistoryQueryDto } from './history-query.dto.js';
import { UpdateVenueDto } from './update-venue.dto.js';

@ApiTags('venues')
@ApiBearerAuth()
@Controller('v1/venues')
export class VenuesController {
  constructor(private readonly venues: VenueService) {}

  @SignedIn()
  @Post()
  @HttpCode(201)
  create(@CurrentStaff() staff: StaffIdentity, @Body() body: CreateVenueDto): Promise<VenueView> {
    return this.venues.create(staff.userId, body);
  }

  @SignedIn()
  @Get()
  mine(@CurrentStaff() staff: StaffIdentity): Promise<VenueView[]> {
    return this.venues.listForUser(staff.userId);
  }

  @VenueRole('host')
  @Get(':venueId')
  get(@Param('venueId', ParseUUIDPipe) venueId: string): Promise<VenueReadView> {
    return this.venues.get(venueId);
  }

  @VenueRole('manager')
  @Patch(':venueId')
  update(@Param('venueId', ParseUUIDPipe) venueId: string, @Body() body: UpdateVenueDto): Promise<VenueView> {
    return this.venues.update(venueId, body);
  }

  @VenueRole('host')
  @Get(':venueId/history')
  async history(
    @Param('venueId', ParseUUIDPipe) venueId: string,
    @Query() query: HistoryQueryDto,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<HistoryView[]> {
    const page = await this.venues.listHistory(venueId, {
      subjectId: query.subjectId,
      limit: pageLimit(query),
      before: query.before,
    });
    linkNextPage(req, res, page.next);
    return page.items;
  }
}
