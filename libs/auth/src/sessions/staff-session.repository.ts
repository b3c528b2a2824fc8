import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { StaffSession } from './staff-session.entity.js';

@Injectable()
export class StaffSessionRepository {
  async insert(tx: EntityManager, session: Omit<StaffSession, 'id' | 'endedAt'>): Promise<void> {
    await tx.insert(StaffSession, { ...session, endedAt: null });
  }

  findByTokenHash(tx: EntityManager, tokenHash: string): Promise<StaffSession | null> {
    return tx.findOneBy(StaffSession, { tokenHash });
  }

  /** Ends a session once; a second logout changes nothing. */
  async end(tx: EntityManager, id: string, at: Date): Promise<void> {
    await tx
      .createQueryBuilder()
      .update(StaffSession)
      .set({ endedAt: at })
      .where('id = :id AND ended_at IS NULL', { id })
      .execute();
  }
}
