import { Injectable, type OnModuleInit } from '@nestjs/common';
import { IdempotencyStore } from '@hostboard/core';
import { JobScheduler } from './job-scheduler.js';

/** Housekeeping jobs that belong to no domain module. */
@Injectable()
export class MaintenanceHandlers implements OnModuleInit {
  constructor(
    private readonly scheduler: JobScheduler,
    private readonly idempotency: IdempotencyStore,
  ) {}

  onModuleInit(): void {
    this.scheduler.handle('idempotency-purge', async () => ((await this.idempotency.purgeExpired()) > 0 ? 'done' : 'skipped'));
  }
}
