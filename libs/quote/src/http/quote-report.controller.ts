import { Controller, Get, Param, ParseUUIDPipe, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { VenueRole } from '@hostboard/core';
import { quoteReportCsv } from '../report/quote-report.csv.js';
import { QuoteReportService, type QuoteReport } from '../report/quote-report.service.js';
import { ReportRangeQueryDto } from './report-range-query.dto.js';

@ApiTags('reports')
@ApiBearerAuth()
@Controller('v1/venues/:venueId/reports')
export class QuoteReportController {
  constructor(private readonly reports: QuoteReportService) {}

  @VenueRole('manager')
  @Get('quotes')
  quotes(@Param('venueId', ParseUUIDPipe) venueId: string, @Query() q: ReportRangeQueryDto): Promise<QuoteReport> {
    return this.reports.report(venueId, q.from, q.to);
  }

  /** The rows behind the report, for a spreadsheet. The CSV type is set only on success: a refusal stays JSON. */
  @VenueRole('manager')
  @Get('quotes.csv')
  async quotesCsv(
    @Param('venueId', ParseUUIDPipe) venueId: string,
    @Query() q: ReportRangeQueryDto,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<string> {
    const csv = quoteReportCsv((await this.reports.report(venueId, q.from, q.to)).entries);
    // The dates are validated digits and dashes: the file name is a plain token, needing no quotes.
    void res.type('text/csv; charset=utf-8').header('Content-Disposition', `attachment; filename=quotes-${q.from}-${q.to}.csv`);
    return csv;
  }
}
