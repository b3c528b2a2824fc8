import { Controller, Get, Param, ParseUUIDPipe, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { VenueRole } from '@hostboard/core';
import { ReportRangeQueryDto } from '@hostboard/quote';
import { dayReportCsv } from '../report/day-report.csv.js';
import { DayReportService, type DayReport } from '../report/day-report.service.js';

@ApiTags('reports')
@ApiBearerAuth()
@Controller('v1/venues/:venueId/reports')
export class DayReportController {
  constructor(private readonly reports: DayReportService) {}

  @VenueRole('manager')
  @Get('days')
  days(@Param('venueId', ParseUUIDPipe) venueId: string, @Query() q: ReportRangeQueryDto): Promise<DayReport> {
    return this.reports.report(venueId, q.from, q.to);
  }

  /** One line per business date, for a spreadsheet. The CSV type is set only on success: a refusal stays JSON. */
  @VenueRole('manager')
  @Get('days.csv')
  async daysCsv(
    @Param('venueId', ParseUUIDPipe) venueId: string,
    @Query() q: ReportRangeQueryDto,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<string> {
    const csv = dayReportCsv(await this.reports.report(venueId, q.from, q.to));
    // The dates are validated digits and dashes: the file name is a plain token, needing no quotes.
    void res.type('text/csv; charset=utf-8').header('Content-Disposition', `attachment; filename=days-${q.from}-${q.to}.csv`);
    return csv;
  }
}
