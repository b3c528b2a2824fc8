import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { TogetherStatement } from '@hostboard/core';
import { QueueTokenRepository } from '../tokens/queue-token.repository.js';
import { QueueSessionRepository } from './queue-session.repository.js';

/**
 * What a party holds for one entry: its open queue token and its queue sessions. When the entry is
 * cancelled (staff, the party leaving, its booking cancelled), both stop working in the same
 * transaction: the token answers TOKEN_INVALID like a replaced one, and live sessions end.
 */
@Injectable()
export class EntryCredentials {
  constructor(
    private readonly tokens: QueueTokenRepository,
    private readonly sessions: QueueSessionRepository,
  ) {}

  async revoke(tx: EntityManager, entryId: string, now: Date): Promise<void> {
    await this.tokens.replaceOpen(tx, entryId, now);
    await this.sessions.endForEntry(tx, entryId, now);
  }

  /** `revoke` to travel with a command's new rows (insertTogether): the same two updates. */
  revokeStatements(entryId: string, now: Date): TogetherStatement[] {
    return [this.tokens.replaceOpenStatement(entryId, now), this.sessions.endForEntryStatement(entryId, now)];
  }
}
