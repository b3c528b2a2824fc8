import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ServiceWindow } from './service-window.entity.js';

@Injectable()
export class ServiceWindowRepository {
  async insert(tx: EntityManager, window: ServiceWindow): Promise<void> {
    await tx.insert(ServiceWindow, window);
  }

  list(tx: EntityManager, venueId: string): Promise<ServiceWindow[]> {
    return tx.find(ServiceWindow, { where: { venueId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }
}
