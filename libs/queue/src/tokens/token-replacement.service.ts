import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DomainException, ErrorCode, HistoryWriter, TransactionRunner } from '@hostboard/core';
import { VenueClock, VenueRepository } from '@hostboard/venue';
import { ACTIVE_STATUSES, type EntryStatus } from '../entries/queue-entry.entity.js';
import { QueueEntryRepository } from '../entries/queue-entry.repository.js';
import { QueueSessionRepository } from '../sessions/queue-session.repository.js';
import { QueueTokenService } from './queue-token.service.js';

export interface ReplacedToken {
  /** Shown once: a replay answers null. */
  queueToken: string | null;
  expiresAt: string;
}

export const ENTRY_NOT_IN_QUEUE = 'This entry is no longer in the queue.';

/**
 * Whose link the desk may replace: a party in the queue, and one that confirmed its table and is on
 * its way (its page shows the table and lets it cancel; a phone whose session ran out is told to ask
 * the desk for a new code, so the desk must be able to give one).
 */
const REPLACEABLE: EntryStatus[] = [...ACTIVE_STATUSES, 'confirmed'];

/**
 * Staff replace a party's queue token (lost, or handed to the wrong person): the old token and any
 * session opened with it answer TOKEN_INVALID from now on; the new one dies at the same midnight.
 */
@Injectable()
export class TokenReplacementService {
  constructor(
    private readonly tx: TransactionRunner,
    private readonly venues: VenueRepository,
    private readonly clock: VenueClock,
    private readonly entries: QueueEntryRepository,
    private readonly tokens: QueueTokenService,
    private readonly sessions: QueueSessionRepository,
    private readonly history: HistoryWriter,
  ) {}

  async replace(venueId: string, entryId: string): Promise<ReplacedToken> {
    return this.tx.command<ReplacedToken>({ venueId, storedAs: (r) => ({ ...r, queueToken: null }) }, async ({ manager }) => {
      const venue = await this.venues.lock(manager, venueId);
      const entry = await this.entries.find(manager, venueId, entryId);
      if (!entry) throw DomainException.notFound('The queue entry was not found.');
      if (!REPLACEABLE.includes(entry.status)) throw new DomainException(ErrorCode.WAITLIST_OFFER_CONFLICT, ENTRY_NOT_IN_QUEUE);
      const now = this.clock.now(venue);
      const issued = await this.tokens.replace(manager, venue, entry, now);
      await this.sessions.endForEntry(manager, entry.id, now);
      await this.history.append(manager, {
        venueId,
        subjectType: 'entry',
        subjectId: entry.id,
        from: entry.status,
        to: entry.status,
        at: now,
        // Its own id: a sandbox clock stands still, so two replacements can share an instant.
        operationId: `replace-token-${entry.id}-${randomUUID()}`,
        reason: 'queue token replaced',
      });
      return { queueToken: issued.queueToken, expiresAt: issued.expiresAt.toISOString() };
    });
  }
}
