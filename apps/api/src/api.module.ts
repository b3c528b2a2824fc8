import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { AuthModule, OwnerBootstrap } from '@hostboard/auth';
import {
  AppConfig,
  AppExceptionFilter,
  Clock,
  CoreModule,
  createValidationPipe,
  HealthController,
  IdempotencyInterceptor,
  READINESS_CHECKS,
  type ReadinessCheck,
} from '@hostboard/core';
import { JobsModule, REDIS_READINESS } from '@hostboard/jobs';
import { DatabaseReadiness, PersistenceModule } from '@hostboard/persistence';
import { VenueModule } from '@hostboard/venue';
import { BoardGatewayModule, BoardModule } from '@hostboard/board';
import { BookingModule } from '@hostboard/booking';
import { OfferModule } from '@hostboard/offer';
import { OutboxModule } from '@hostboard/outbox';
import { PartyModule } from '@hostboard/party';
import { QueueModule } from '@hostboard/queue';
import { QuoteModule } from '@hostboard/quote';
import { DemoSeed } from './demo-seed.js';
import { FirstStartDemo } from './first-start.demo.js';
import { RequestDrain } from './request-drain.js';

export interface ApiModuleOptions {
  config: AppConfig;
  clock?: Clock;
}

/** The HTTP process: every domain module behind the access guard, the error filter and idempotency. */
@Module({})
export class ApiModule {
  static forRoot(options: ApiModuleOptions): DynamicModule {
    return {
      module: ApiModule,
      imports: [
        CoreModule.forRoot(options),
        PersistenceModule.forRoot(),
        JobsModule.forRoot({ role: 'api' }),
        BoardModule,
        AuthModule,
        VenueModule,
        OutboxModule,
        QueueModule,
        QuoteModule,
        OfferModule,
        PartyModule,
        BoardGatewayModule.forRoot(OfferModule),
        BookingModule,
      ],
      controllers: [HealthController],
      providers: [
        OwnerBootstrap,
        DemoSeed,
        FirstStartDemo,
        RequestDrain,
        { provide: APP_FILTER, useClass: AppExceptionFilter },
        { provide: APP_PIPE, useFactory: createValidationPipe },
        { provide: APP_INTERCEPTOR, useExisting: IdempotencyInterceptor },
        {
          provide: READINESS_CHECKS,
          inject: [DatabaseReadiness, REDIS_READINESS],
          useFactory: (db: DatabaseReadiness, redis: ReadinessCheck[]): ReadinessCheck[] => [db, ...redis],
        },
      ],
    };
  }
}
