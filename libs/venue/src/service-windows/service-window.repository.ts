import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { deleteEntities, jsonRows, selectEntities, type ScalarRead } from '@hostboard/core';
import { ServiceWindow } from './service-window.entity.js';

@Injectable()
export class ServiceWindowRepository {
  async insert(tx: EntityManager, window: ServiceWindow): Promise<void> {
    await tx.insert(ServiceWindow, window);
  }

  /** Deletes one window of the venue; answers it, or null when the venue has no such window. */
  async remove(tx: EntityManager, venueId: string, id: string): Promise<ServiceWindow | null> {
    const rows = await deleteEntities(tx, ServiceWindow, 'venue_id = $1 AND id = $2', [venueId, id]);
    return rows[0] ?? null;
  }

  list(tx: EntityManager, venueId: string): Promise<ServiceWindow[]> {
    return selectEntities(tx, ServiceWindow, 'venue_id = $1 ORDER BY created_at, id', [venueId]);
  }

  /** `list` as a part of a combined read (readTogether). */
  listRead(venueId: string): ScalarRead<ServiceWindow[]> {
    return {
      sql: `SELECT json_agg(json_build_object(
              'id', id, 'venueId', venue_id, 'days', days, 'startMinute', start_minute, 'endMinute', end_minute,
              'turnMinutes', turn_minutes, 'depositRequired', deposit_required, 'createdAt', created_at) ORDER BY created_at, id)
              FROM service_windows WHERE venue_id = $1`,
      params: [venueId],
      parse: (value) =>
        jsonRows<ServiceWindow & { createdAt: string }>(value).map((w) => ({
          ...w,
          days: w.days.map(Number),
          startMinute: Number(w.startMinute),
          endMinute: Number(w.endMinute),
          turnMinutes: Number(w.turnMinutes),
          createdAt: new Date(w.createdAt),
        })),
    };
  }
}
