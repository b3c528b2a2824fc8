import { Injectable } from '@nestjs/common';
import { DomainException, TransactionRunner } from '@hostboard/core';
import { BoardEventWriter } from '@hostboard/board';
import { VenueClock, VenueRepository } from '@hostboard/venue';
import { QueueEntry } from '../entries/queue-entry.entity.js';
import { QueueEntryRepository } from '../entries/queue-entry.repository.js';

/** The tags the floor may put on a party, as the board shows them. */
export const ENTRY_TAGS = ['high-chair', 'wheelchair', 'vip', 'allergy'] as const;
export type EntryTag = (typeof ENTRY_TAGS)[number];

export interface EntryDetails {
  entryId: string;
  note: string | null;
  tags: EntryTag[];
}

/**
 * Staff-only notes and tags on a queue entry. They are not part of what the party gave (the
 * correction route's business), so writing them keeps the entry's version: a note typed while an
 * offer is being made must not make that offer stale. Never shown to the party or sent in a message.
 */
@Injectable()
export class EntryDetailsService {
  constructor(
    private readonly tx: TransactionRunner,
    private readonly venues: VenueRepository,
    private readonly clock: VenueClock,
    private readonly entries: QueueEntryRepository,
    private readonly board: BoardEventWriter,
  ) {}

  async set(venueId: string, entryId: string, input: { note: string | null; tags: EntryTag[] }): Promise<EntryDetails> {
    return this.tx.command({}, async (tx) => {
      const venue = await this.venues.lock(tx.manager, venueId);
      const entry = await this.entries.find(tx.manager, venueId, entryId);
      if (!entry) throw DomainException.notFound('The queue entry was not found.');
      const note = input.note?.trim() ? input.note.trim() : null;
      // One of each, in the catalogue's order, whatever order the tablet sent them in.
      const tags = ENTRY_TAGS.filter((t) => input.tags.includes(t));
      await tx.manager.update(QueueEntry, { id: entry.id }, { staffNote: note, staffTags: tags });
      const details = { entryId: entry.id, note, tags };
      await this.board.append(tx, venueId, 'entry.details', details, this.clock.now(venue));
      return details;
    });
  }
}
