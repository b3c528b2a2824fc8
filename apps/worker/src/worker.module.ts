import { Module, type DynamicModule } from '@nestjs/common';
import { AppConfig, CoreModule } from '@hostboard/core';
import { JobsModule } from '@hostboard/jobs';
import { PersistenceModule } from '@hostboard/persistence';
import { BoardEmitterRelay, BoardModule } from '@hostboard/board';
import { OfferModule } from '@hostboard/offer';
import { OutboxModule } from '@hostboard/outbox';

/** The job process: no HTTP; the same libraries as the api, consuming BullMQ jobs. */
@Module({})
export class WorkerModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        CoreModule.forRoot({ config }),
        PersistenceModule.forRoot({ worker: true }),
        JobsModule.forRoot({ role: 'worker' }),
        BoardModule,
        OfferModule,
        OutboxModule,
      ],
      providers: [BoardEmitterRelay],
    };
  }
}

/** For main.ts, which imports the app only in the processes that run it (a static path is rewritten at build). */
export { Metrics } from '@hostboard/core';
export { SweepHealth } from '@hostboard/jobs';
