import { Injectable } from '@nestjs/common';
import { returningRows, type Tx } from '@hostboard/core';
import { BoardEvent } from './board-event.entity.js';
import { BoardPublisher, type BoardEventMessage } from './board-publisher.js';

/**
 * Appends a board event with the venue's next version, in the caller's transaction (which holds
 * the venue row lock, so versions have no gaps and no duplicates), and pushes it after commit.
 */
@Injectable()
export class BoardEventWriter {
  constructor(private readonly publisher: BoardPublisher) {}

  async append(tx: Tx, venueId: string, type: string, data: object, at: Date): Promise<number> {
    const rows = returningRows<{ version: string }>(
      await tx.manager.query('UPDATE venues SET version = version + 1 WHERE id = $1 RETURNING version', [venueId]),
    );
    const version = Number(rows[0]?.version);
    await tx.manager.insert(BoardEvent, { venueId, version: String(version), type, data, createdAt: at });
    const message: BoardEventMessage = { venueId, version, type, data };
    tx.afterCommit(() => this.publisher.publish([message]));
    return version;
  }

  async since(tx: Tx, venueId: string, afterVersion: number, limit: number): Promise<BoardEventMessage[]> {
    const rows = await tx.manager
      .createQueryBuilder(BoardEvent, 'e')
      .where('e.venue_id = :venueId AND e.version > :afterVersion', { venueId, afterVersion })
      .orderBy('e.version', 'ASC')
      .limit(limit)
      .getMany();
    return rows.map((r) => ({ venueId: r.venueId, version: Number(r.version), type: r.type, data: r.data }));
  }
}
