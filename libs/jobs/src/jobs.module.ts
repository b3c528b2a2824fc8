import { Module, type DynamicModule, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { AppConfig, Clock, Metrics, type ReadinessCheck } from '@hostboard/core';
import { InProcessScheduler } from './in-process/in-process.scheduler.js';
import { JobScheduler } from './job-scheduler.js';
import { MaintenanceHandlers } from './maintenance.handlers.js';
import { SweepHealth } from './sweep-health.js';

export const REDIS_READINESS = Symbol('REDIS_READINESS');

export interface JobsModuleOptions {
  /** Whether this process runs jobs: the worker always; the api only when there is no Redis. */
  role: 'api' | 'worker';
}

class SchedulerLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(private readonly scheduler: JobScheduler) {}
  async onApplicationBootstrap(): Promise<void> {
    await this.scheduler.start();
  }
  async onApplicationShutdown(): Promise<void> {
    await this.scheduler.stop();
  }
}

/** Chooses the job runner: BullMQ with REDIS_URL, in-process timers without. */
@Module({})
export class JobsModule {
  static forRoot(options: JobsModuleOptions): DynamicModule {
    return {
      module: JobsModule,
      global: true,
      providers: [
        MaintenanceHandlers,
        { provide: SweepHealth, useFactory: () => new SweepHealth() },
        {
          provide: JobScheduler,
          inject: [AppConfig, Clock, Metrics, SweepHealth],
          useFactory: async (config: AppConfig, clock: Clock, metrics: Metrics, health: SweepHealth): Promise<JobScheduler> => {
            if (!config.REDIS_URL) return new InProcessScheduler(clock, { metrics });
            // BullMQ (174 files) is loaded only by a process that has Redis: the embedded default never
            // needs it, nor does each test app on it.
            const { BullmqScheduler } = await import('./bullmq/bullmq.scheduler.js');
            return new BullmqScheduler(clock, {
              redisUrl: config.REDIS_URL,
              consume: options.role === 'worker',
              prefix: config.JOBS_PREFIX,
              metrics,
              health,
            });
          },
        },
        {
          provide: SchedulerLifecycle,
          inject: [JobScheduler],
          useFactory: (s: JobScheduler) => new SchedulerLifecycle(s),
        },
        {
          provide: REDIS_READINESS,
          inject: [JobScheduler],
          useFactory: (s: JobScheduler): ReadinessCheck[] => s.readiness(),
        },
      ],
      exports: [JobScheduler, REDIS_READINESS, SweepHealth],
    };
  }
}
