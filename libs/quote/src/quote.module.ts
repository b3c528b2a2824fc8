import { Module } from '@nestjs/common';
import { AllocatorModule } from '@hostboard/allocator';
import { AuthModule } from '@hostboard/auth';
import { VenueModule } from '@hostboard/venue';
import { FloorStateRepository } from './estimates/floor-state.repository.js';
import { QuoteEstimator } from './estimates/quote-estimator.service.js';
import { QuoteReportController } from './http/quote-report.controller.js';
import { QuoteReportRepository } from './report/quote-report.repository.js';
import { QuoteReportService } from './report/quote-report.service.js';

/** Wait quotes: both models on every join (the spec's formula and the floor-aware one) and their report. */
@Module({
  imports: [VenueModule, AllocatorModule, AuthModule],
  controllers: [QuoteReportController],
  providers: [FloorStateRepository, QuoteEstimator, QuoteReportRepository, QuoteReportService],
  exports: [QuoteEstimator],
})
export class QuoteModule {}
