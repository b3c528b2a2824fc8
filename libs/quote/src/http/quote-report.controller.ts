import { Controller, Get, Header, Param, ParseUUIDPipe, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { VenueRole } from '@hostboard/core';
import { quoteReportCsv } from '../report/quote-report.csv.js';
import { QuoteReportService, type QuoteReport } from '../report/quote-report.service.js';
import { QuoteReportQueryDto } from './quote-report-query.dto.js';

@ApiTags('reports')
@ApiBearerAuth()
@Controller('v1/venues/:venueId/reports')
export class QuoteReportController {
  constructor(private readonly reports: QuoteReportService) {}

  @VenueRole('manager')
  @Get('quotes')
  quotes(@Param('venueId', ParseUUIDPipe) venueId: string, @Query() q: QuoteReportQueryDto): Promise<QuoteReport> {
    return this.reports.report(venueId, q.from, q.to);
  }

  /** The rows behind the report, for a spreadsheet. */
  @VenueRole('manager')
  @Get('quotes.csv')
  @Header('Content-Type', 'text/csv; charset=utf-8')
  @Header('Content-Disposition', 'attachment; filename="quotes.csv"')
  async quotesCsv(@Param('venueId', ParseUUIDPipe) venueId: string, @Query() q: QuoteReportQueryDto): Promise<string> {
    return quoteReportCsv((await this.reports.report(venueId, q.from, q.to)).entries);
  }
}
