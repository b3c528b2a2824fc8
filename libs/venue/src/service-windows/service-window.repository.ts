import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { selectEntities } from '@hostboard/core';
import { ServiceWindow } from './service-window.entity.js';

@Injectable()
export class ServiceWindowRepository {
  async insert(tx: EntityManager, window: ServiceWindow): Promise<void> {
    await tx.insert(ServiceWindow, window);
  }

  list(tx: EntityManager, venueId: string): Promise<ServiceWindow[]> {
    return selectEntities(tx, ServiceWindow, 'venue_id = $1 ORDER BY created_at, id', [venueId]);
  }
}
