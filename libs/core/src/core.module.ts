import { Global, Module, type DynamicModule } from '@nestjs/common';
import { AppConfig } from './config/app-config.js';
import { Clock, SystemClock } from './clock/clock.js';
import { HistoryWriter } from './history/history.writer.js';
import { IdempotencyStore } from './idempotency/idempotency.store.js';
import { IdempotencyInterceptor } from './idempotency/idempotency.interceptor.js';
import { Metrics } from './health/metrics.js';
import { SweepFirst } from './sweep/sweep-first.hook.js';
import { TransactionRunner } from './transaction/transaction.runner.js';

export interface CoreModuleOptions {
  config: AppConfig;
  /** Tests pass a controllable clock; the app the system clock. */
  clock?: Clock;
}

/** Configuration, the clock, transactions, idempotency, history and the sweep-first hook: shared by every module. */
@Global()
@Module({})
export class CoreModule {
  static forRoot(options: CoreModuleOptions): DynamicModule {
    return {
      module: CoreModule,
      providers: [
        { provide: AppConfig, useValue: options.config },
        { provide: Clock, useValue: options.clock ?? new SystemClock() },
        Metrics,
        IdempotencyStore,
        IdempotencyInterceptor,
        TransactionRunner,
        HistoryWriter,
        SweepFirst,
      ],
      exports: [
        AppConfig,
        Clock,
        Metrics,
        IdempotencyStore,
        IdempotencyInterceptor,
        TransactionRunner,
        HistoryWriter,
        SweepFirst,
      ],
    };
  }
}
