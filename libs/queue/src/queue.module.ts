import { Module } from '@nestjs/common';
import { AllocatorModule } from '@hostboard/allocator';
import { AuthModule } from '@hostboard/auth';
import { OutboxModule } from '@hostboard/outbox';
import { QuoteModule } from '@hostboard/quote';
import { VenueModule } from '@hostboard/venue';
import { BusinessDayCloser } from './day-close/business-day.closer.js';
import { EntryReadService } from './entries/entry-read.service.js';
import { EntryCredentials } from './sessions/entry-credentials.js';
import { EntryCorrectionHooks } from './correction/entry-correction.hooks.js';
import { EntryCorrectionService } from './correction/entry-correction.service.js';
import { EntryDetailsService } from './details/entry-details.service.js';
import { EntryDetailsController } from './http/entry-details.controller.js';
import { DayReportController } from './http/day-report.controller.js';
import { DayReportRepository } from './report/day-report.repository.js';
import { DayReportService } from './report/day-report.service.js';
import { QueueEntryRepository } from './entries/queue-entry.repository.js';
import { PublicQueueController } from './http/public-queue.controller.js';
import { QueueSessionsController } from './http/queue-sessions.controller.js';
import { QueueController } from './http/queue.controller.js';
import { JoinLimiter } from './join/join.limiter.js';
import { JoinService } from './join/join.service.js';
import { QuoteService } from './quote/quote.service.js';
import { QueueSessionGuard } from './sessions/queue-session.guard.js';
import { QueueSessionRepository } from './sessions/queue-session.repository.js';
import { QueueSessionService } from './sessions/queue-session.service.js';
import { QueueTokenRepository } from './tokens/queue-token.repository.js';
import { QueueTokenReader } from './tokens/queue-token.reader.js';
import { QueueTokenService } from './tokens/queue-token.service.js';
import { TokenReplacementService } from './tokens/token-replacement.service.js';

/** Queue entries, joins and their guards, position quotes, queue tokens and the party's sessions. */
@Module({
  imports: [VenueModule, AuthModule, OutboxModule, QuoteModule, AllocatorModule],
  controllers: [QueueController, PublicQueueController, QueueSessionsController, EntryDetailsController, DayReportController],
  providers: [
    QueueEntryRepository,
    JoinService,
    JoinLimiter,
    QuoteService,
    EntryCorrectionService,
    EntryCorrectionHooks,
    EntryDetailsService,
    QueueTokenRepository,
    QueueTokenService,
    QueueTokenReader,
    TokenReplacementService,
    QueueSessionRepository,
    QueueSessionService,
    QueueSessionGuard,
    BusinessDayCloser,
    EntryReadService,
    EntryCredentials,
    DayReportRepository,
    DayReportService,
  ],
  exports: [
    QueueEntryRepository,
    EntryCorrectionHooks,
    JoinService,
    QuoteService,
    QueueSessionService,
    QueueSessionGuard,
    BusinessDayCloser,
    EntryCredentials,
    QueueTokenReader,
    QueueTokenRepository,
  ],
})
export class QueueModule {}
