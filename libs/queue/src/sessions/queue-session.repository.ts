import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { QueueSession } from './queue-session.entity.js';

@Injectable()
export class QueueSessionRepository {
  async insert(tx: EntityManager, session: QueueSession): Promise<void> {
    await tx.insert(QueueSession, session);
  }

  findByHash(tx: EntityManager, tokenHash: string): Promise<QueueSession | null> {
    return tx.findOneBy(QueueSession, { tokenHash });
  }

  async endForEntry(tx: EntityManager, entryId: string, at: Date): Promise<void> {
    await tx
      .createQueryBuilder()
      .update(QueueSession)
      .set({ endedAt: at })
      .where('entry_id = :entryId AND ended_at IS NULL', { entryId })
      .execute();
  }
}
