import { Injectable } from '@nestjs/common';
import { insertTogether, insertTogetherAtCommit, type PendingInsert, type TogetherStatement, type Tx } from '@hostboard/core';
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
    return this.appendWith(tx, venueId, type, data, at, []);
  }

  /**
   * The event and the command's other new rows in one statement (one round trip): the rows as
   * data-modifying CTEs ahead of the version bump and the event insert.
   */
  async appendWith(
    tx: Tx,
    venueId: string,
    type: string,
    data: object,
    at: Date,
    inserts: Array<PendingInsert | TogetherStatement>,
  ): Promise<number> {
    // One statement for the version bump and the event row: every command pays for this.
    const rows = await insertTogether<{ version: string }>(tx.manager, inserts, oneEvent(venueId, type, data, at));
    const version = versionOf(rows, venueId);
    const message: BoardEventMessage = { venueId, version, type, data };
    tx.afterCommit(() => this.publisher.publish([message]));
    return version;
  }

  /**
   * `appendWith` as the transaction's last statement, sent with its COMMIT (`insertTogetherAtCommit`,
   * one round trip less): for a command that holds the venue's row lock (the bump finds its row) and
   * returns right after it, with no catch of its own around it. The version is known after the commit,
   * when the event is pushed.
   */
  async appendAtCommit(
    tx: Tx,
    venueId: string,
    type: string,
    data: object,
    at: Date,
    inserts: Array<PendingInsert | TogetherStatement>,
  ): Promise<void> {
    const written = await insertTogetherAtCommit<{ version: string }>(tx.manager, inserts, oneEvent(venueId, type, data, at));
    tx.afterCommit(async () => {
      const message: BoardEventMessage = { venueId, version: versionOf(await written.rows(), venueId), type, data };
      this.publisher.publish([message]);
    });
  }

  /**
   * Several events in one statement, with the command's other new rows (as `appendWith`): one bump of
   * the version by their number, and the events take its values in the order given, so each has its
   * own version, without gaps, exactly as that many `append` calls would give. Answers the versions.
   */
  async appendAll(
    tx: Tx,
    venueId: string,
    events: Array<{ type: string; data: object }>,
    at: Date,
    inserts: PendingInsert[],
  ): Promise<number[]> {
    if (events.length === 0) {
      await insertTogether(tx.manager, inserts);
      return [];
    }
    const rows = await insertTogether<{ version: string }>(
      tx.manager,
      inserts,
      {
        with: 'bumped AS (UPDATE venues SET version = version + $2::int WHERE id = $1 RETURNING id, version)',
        sql: `INSERT INTO board_events (venue_id, version, type, data, created_at)
         SELECT b.id, b.version - $2::int + e.n, e.event->>'type', e.event->'data', $4
           FROM bumped b CROSS JOIN jsonb_array_elements($3::jsonb) WITH ORDINALITY AS e(event, n)
         RETURNING version`,
        params: [venueId, events.length, JSON.stringify(events), at],
      },
      // Its text grows with the rows (a burst of any size): prepared once, it would be used once.
      { oneOff: events.length > 1 },
    );
    if (rows.length === 0) throw new Error(`board event for unknown venue ${venueId}`);
    // The last version is the bumped one; the events before it count down from there.
    const last = Math.max(...rows.map((r) => Number(r.version)));
    const messages = events.map((e, i): BoardEventMessage => ({
      venueId,
      version: last - events.length + 1 + i,
      type: e.type,
      data: e.data,
    }));
    tx.afterCommit(() => this.publisher.publish(messages));
    return messages.map((m) => m.version);
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

/** The version bump and the event row, after a command's other new rows (`insertTogether`'s final statement). */
function oneEvent(venueId: string, type: string, data: object, at: Date): { with: string; sql: string; params: unknown[] } {
  return {
    with: 'bumped AS (UPDATE venues SET version = version + 1 WHERE id = $1 RETURNING id, version)',
    sql: `INSERT INTO board_events (venue_id, version, type, data, created_at)
         SELECT id, version, $2, $3::jsonb, $4 FROM bumped
         RETURNING version`,
    params: [venueId, type, JSON.stringify(data), at],
  };
}

function versionOf(rows: Array<{ version: string }>, venueId: string): number {
  if (rows.length === 0) throw new Error(`board event for unknown venue ${venueId}`);
  return Number(rows[0]?.version);
}
