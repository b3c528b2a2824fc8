import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  DomainException,
  ErrorCode,
  HistoryWriter,
  sqlState,
  SQLSTATE,
  TransactionRunner,
  violatedConstraint,
  type Tx,
} from '@hostboard/core';
import { BoardEventWriter } from '@hostboard/board';
import { VenueClock, VenueRepository, type Venue } from '@hostboard/venue';
import { QueueEntry } from '../entries/queue-entry.entity.js';
import { QueueEntryRepository } from '../entries/queue-entry.repository.js';
import { toEntryView, type EntryView } from '../entries/queue-entry.view.js';
import { normaliseContact } from '../entries/contact.js';
import type { JoinQueueDto } from '../http/join-queue.dto.js';

export const DUPLICATE_MESSAGE = 'This contact is already in the queue for today.';
export const CONTACT_MISSING = 'A queue party needs an email or a phone number.';

export interface JoinResult {
  entry: EntryView;
  position: number;
  ahead: number;
  quotedWaitMinutes: number | null;
  approx: true;
  quote: string;
  queueToken: string | null;
}

/**
 * Joining the queue. The guards run in the spec's order, each with its own answer; the entry gets
 * its received time from the venue clock and the venue's next sequence under the venue row lock.
 */
@Injectable()
export class JoinService {
  constructor(
    private readonly tx: TransactionRunner,
    private readonly venues: VenueRepository,
    private readonly clock: VenueClock,
    private readonly entries: QueueEntryRepository,
    private readonly history: HistoryWriter,
    private readonly board: BoardEventWriter,
  ) {}

  async deskJoin(venueId: string, input: JoinQueueDto): Promise<JoinResult> {
    const contact = normaliseContact(input.email, input.phone);
    return this.tx.command<JoinResult>(
      { translate: duplicateContact, storedAs: (r) => ({ ...r, queueToken: null }) },
      async (tx) => {
        const venue = await this.venues.lock(tx.manager, venueId);
        return this.join(tx, venue, input, contact);
      },
    );
  }

  private async join(
    tx: Tx,
    venue: Venue,
    input: JoinQueueDto,
    contact: ReturnType<typeof normaliseContact>,
  ): Promise<JoinResult> {
    if (venue.seating === 'tables' && !contact.key) throw DomainException.validation(CONTACT_MISSING);
    if (!venue.queueEnabled) throw new DomainException(ErrorCode.RULE_VIOLATION, 'The queue is switched off at this venue.');
    this.assertPartySize(venue, input.partySize);
    const now = this.clock.now(venue);
    const businessDate = this.clock.localDate(venue, now);
    const contactKey = venue.oneEntryPerContact ? contact.key : null;
    const entry: QueueEntry = {
      id: randomUUID(),
      venueId: venue.id,
      name: input.name,
      partySize: input.partySize,
      email: contact.email,
      phone: contact.phone,
      contactKey,
      status: 'waiting',
      receivedAt: now,
      queueSequence: await this.entries.nextSequence(tx.manager, venue.id),
      businessDate,
      version: 1,
      quotedPosition: null,
      quotedWaitMinutes: null,
      quotedAt: null,
      createdAt: now,
    };
    const active = await this.entries.active(tx.manager, venue.id);
    const position = active.length + 1;
    entry.quotedPosition = position;
    entry.quotedAt = now;
    await this.entries.insert(tx.manager, entry);
    await this.history.append(tx.manager, {
      venueId: venue.id,
      subjectType: 'entry',
      subjectId: entry.id,
      from: null,
      to: 'waiting',
      at: now,
      operationId: `join-${entry.id}`,
    });
    await this.board.append(tx, venue.id, 'entry.joined', { entryId: entry.id, queueSequence: Number(entry.queueSequence) }, now);
    return {
      entry: toEntryView(entry),
      position,
      ahead: position - 1,
      quotedWaitMinutes: null,
      approx: true,
      quote: `position ${position} (${position - 1} ahead)`,
      queueToken: null,
    };
  }

  /** Restaurant: at most the queue cap. Pool: a whole number from 1 to the capacity. */
  private assertPartySize(venue: Venue, size: number): void {
    if (venue.seating === 'pool') {
      const capacity = venue.poolCapacity ?? 0;
      if (size > capacity)
        throw DomainException.validation(`The party size must be a whole number from 1 to ${capacity}.`, { field: 'partySize' });
      return;
    }
    if (size > 200) throw DomainException.validation('partySize must not be greater than 200', { field: 'partySize' });
    if (size > venue.queuePartyCap)
      throw DomainException.validation(`The queue accepts parties of at most ${venue.queuePartyCap}.`, { field: 'partySize' });
  }
}

/** The partial unique index refused a second active entry for this contact today. */
function duplicateContact(err: unknown): DomainException | undefined {
  if (sqlState(err) === SQLSTATE.uniqueViolation && violatedConstraint(err) === 'queue_entries_one_active_per_contact') {
    return new DomainException(ErrorCode.WAITLIST_DUPLICATE, DUPLICATE_MESSAGE);
  }
  return undefined;
}
