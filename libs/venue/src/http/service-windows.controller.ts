import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { VenueRole } from '@hostboard/core';
import { ServiceWindowService } from '../service-windows/service-window.service.js';
import type { ServiceWindowListing, ServiceWindowView } from '../service-windows/service-window.view.js';
import { CreateServiceWindowDto } from './create-service-window.dto.js';

@ApiTags('service windows')
@ApiBearerAuth()
@Controller('v1/venues/:venueId/service-windows')
export class ServiceWindowsController {
  constructor(private readonly windows: ServiceWindowService) {}

  @VenueRole('manager')
  @Post()
  @HttpCode(201)
  create(@Param('venueId', ParseUUIDPipe) venueId: string, @Body() body: CreateServiceWindowDto): Promise<ServiceWindowListing> {
    return this.windows.create(venueId, body);
  }

  @VenueRole('manager')
  @Delete(':windowId')
  @HttpCode(200)
  remove(
    @Param('venueId', ParseUUIDPipe) venueId: string,
    @Param('windowId', ParseUUIDPipe) windowId: string,
  ): Promise<ServiceWindowView> {
    return this.windows.remove(venueId, windowId);
  }

  @VenueRole('host')
  @Get()
  list(@Param('venueId', ParseUUIDPipe) venueId: string): Promise<ServiceWindowListing[]> {
    return this.windows.list(venueId);
  }
}
