import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Patch, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { VenueRole } from '@hostboard/core';
import { TablesService } from '../tables/tables.service.js';
import type { CombinationView, TableView } from '../tables/tables.view.js';
import { CreateCombinationDto } from './create-combination.dto.js';
import { CreateTableDto } from './create-table.dto.js';
import { UpdateTableDto } from './update-table.dto.js';

@ApiTags('tables')
@ApiBearerAuth()
@Controller('v1/venues/:venueId')
export class TablesController {
  constructor(private readonly tables: TablesService) {}

  @VenueRole('manager')
  @Post('tables')
  @HttpCode(201)
  createTable(@Param('venueId', ParseUUIDPipe) venueId: string, @Body() body: CreateTableDto): Promise<TableView> {
    return this.tables.createTable(venueId, body);
  }

  @VenueRole('host')
  @Get('tables')
  listTables(@Param('venueId', ParseUUIDPipe) venueId: string): Promise<TableView[]> {
    return this.tables.listTables(venueId);
  }

  /** Rename, change the capacity, or place the table on the floor plan. */
  @VenueRole('manager')
  @Patch('tables/:tableId')
  updateTable(
    @Param('venueId', ParseUUIDPipe) venueId: string,
    @Param('tableId', ParseUUIDPipe) tableId: string,
    @Body() body: UpdateTableDto,
  ): Promise<TableView> {
    return this.tables.updateTable(venueId, tableId, body);
  }

  /** Take a free table out of service; repeating answers the retired table unchanged. */
  @VenueRole('manager')
  @Post('tables/:tableId/retire')
  @HttpCode(200)
  retireTable(
    @Param('venueId', ParseUUIDPipe) venueId: string,
    @Param('tableId', ParseUUIDPipe) tableId: string,
  ): Promise<TableView> {
    return this.tables.retireTable(venueId, tableId);
  }

  @VenueRole('manager')
  @Post('combinations')
  @HttpCode(201)
  createCombination(
    @Param('venueId', ParseUUIDPipe) venueId: string,
    @Body() body: CreateCombinationDto,
  ): Promise<CombinationView> {
    return this.tables.createCombination(venueId, body);
  }

  @VenueRole('manager')
  @Delete('combinations/:combinationId')
  removeCombination(
    @Param('venueId', ParseUUIDPipe) venueId: string,
    @Param('combinationId', ParseUUIDPipe) combinationId: string,
  ): Promise<CombinationView> {
    return this.tables.removeCombination(venueId, combinationId);
  }

  @VenueRole('host')
  @Get('combinations')
  listCombinations(@Param('venueId', ParseUUIDPipe) venueId: string): Promise<CombinationView[]> {
    return this.tables.listCombinations(venueId);
  }
}
