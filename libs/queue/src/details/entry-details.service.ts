import { Injectable } from '@nestjs/common';
import { DomainException, ErrorCode, TransactionRunner } from '@hostboard/core';
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

export interface DetailsChange {
  note?: string | null;
  noteWas?: string | null;
  tags?: EntryTag[];
  tagsWas?: EntryTag[];
}

export const NOTHING_TO_SAVE = 'Send a note or tags to save.';
/** A seat pool (a workshop) seats groups in one pool: there is no table to bring a high chair to. */
export const POOL_HIGH_CHAIR = 'A seat pool has no tables to bring a high chair to: the high-chair tag is for table venues only.';
/** The tag that means something only at a table (the board's tags.ts `tablesOnly`). */
const HIGH_CHAIR: EntryTag = 'high-chair';
/** `details.note` says what the other screen saved. */
export const NOTE_CHANGED_ELSEWHERE = 'The note was changed on another screen while this one was open.';

const noteOf = (text: string | null): string | null => (text?.trim() ? text.trim() : null);

/**
 * The tags after a screen's change. With what the screen read (`was`), only the tags its host added
 * or removed are applied to what is stored, so a tag another screen added since stays; without it,
 * the list replaces what is stored. One of each, in the catalogue's order.
 */
function tagsAfter(stored: EntryTag[], sent: EntryTag[], was: EntryTag[] | undefined): EntryTag[] {
  if (was === undefined) return ENTRY_TAGS.filter((t) => sent.includes(t));
  const added = (t: EntryTag): boolean => sent.includes(t) && !was.includes(t);
  const removed = (t: EntryTag): boolean => was.includes(t) && !sent.includes(t);
  return ENTRY_TAGS.filter((t) => (stored.includes(t) || added(t)) && !removed(t));
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

  async set(venueId: string, entryId: string, input: DetailsChange): Promise<EntryDetails> {
    if (input.note === undefined && input.tags === undefined)
      throw DomainException.validation(NOTHING_TO_SAVE, { field: 'note' });
    return this.tx.command({ venueId }, async (tx) => {
      const venue = await this.venues.lock(tx.manager, venueId);
      const entry = await this.entries.find(tx.manager, venueId, entryId);
      if (!entry) throw DomainException.notFound('The queue entry was not found.');
      const stored = { note: entry.staffNote ?? null, tags: (entry.staffTags ?? []) as EntryTag[] };
      const note = input.note === undefined ? stored.note : noteOf(input.note);
      // Another screen saved a different note since this one read it: neither is lost silently.
      if (
        input.note !== undefined &&
        input.noteWas !== undefined &&
        noteOf(input.noteWas) !== stored.note &&
        note !== stored.note
      ) {
        throw new DomainException(ErrorCode.CONFLICT, NOTE_CHANGED_ELSEWHERE, { field: 'note', note: stored.note });
      }
      const tags = input.tags === undefined ? stored.tags : tagsAfter(stored.tags, input.tags, input.tagsWas);
      // Only a tag this change would add is refused: a group that carries it from before (taken before
      // this refusal) keeps it through other changes, and can have it taken off.
      if (venue.seating === 'pool' && tags.includes(HIGH_CHAIR) && !stored.tags.includes(HIGH_CHAIR))
        throw DomainException.validation(POOL_HIGH_CHAIR, {
          field: 'tags',
          fields: [{ field: 'tags', message: POOL_HIGH_CHAIR }],
        });
      await tx.manager.update(QueueEntry, { id: entry.id }, { staffNote: note, staffTags: tags });
      const details = { entryId: entry.id, note, tags };
      await this.board.append(tx, venueId, 'entry.details', details, this.clock.now(venue));
      return details;
    });
  }
}
