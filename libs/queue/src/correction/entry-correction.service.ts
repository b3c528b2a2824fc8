import { Injectable } from '@nestjs/common';
import { DomainException, ErrorCode, HistoryWriter, TransactionRunner } from '@hostboard/core';
import { ReservationRepository } from '@hostboard/allocator';
import { BoardEventWriter } from '@hostboard/board';
import { GuestMessenger, OutboxWriter, queueJoinedText, type NewMessage } from '@hostboard/outbox';
import { RunningWindowFinder, TablesRepository, VenueClock, VenueRepository, type Venue } from '@hostboard/venue';
import type { EntityManager } from 'typeorm';
import { normaliseContact } from '../entries/contact.js';
import { ACTIVE_STATUSES } from '../entries/queue-entry.entity.js';
import { QueueEntryRepository } from '../entries/queue-entry.repository.js';
import type { QueueEntry } from '../entries/queue-entry.entity.js';
import { toEntryView, type EntryView } from '../entries/queue-entry.view.js';
import { QUEUE_JOINED_TEMPLATE, queueJoinedEmail } from '../join/queue-joined.email.js';
import {
  assertPartySize,
  assertPartySizeRange,
  assertSeatable,
  CONTACT_MISSING,
  duplicateMessage,
  duplicateContact,
} from '../join/join-rules.js';
import { ENTRY_NOT_IN_QUEUE } from '../tokens/token-replacement.service.js';
import { EntryCorrectionHooks } from './entry-correction.hooks.js';

export interface EntryCorrection {
  entryVersion: number;
  name?: string;
  partySize?: number;
  /** null removes that channel; absent leaves it as it is. */
  email?: string | null;
  phone?: string | null;
}

export const ENTRY_STALE = 'The entry changed since you read it; reload the queue and retry with the current version.';

/**
 * The spec's path when details were wrong: staff correct name, party size or contact of an active
 * entry. The place is kept (received time and sequence untouched), the version bumps, a changed party
 * size is held to the cap again and a changed contact to the one-entry rule again, and the history
 * names what changed. Messages not yet handed to a provider follow a corrected contact (OutboxWriter.readdress):
 * the host corrected it because the old one was wrong; what else must follow it (a live offer's
 * message) is registered with EntryCorrectionHooks.
 */
@Injectable()
export class EntryCorrectionService {
  constructor(
    private readonly tx: TransactionRunner,
    private readonly venues: VenueRepository,
    private readonly clock: VenueClock,
    private readonly entries: QueueEntryRepository,
    private readonly history: HistoryWriter,
    private readonly board: BoardEventWriter,
    private readonly seating: TablesRepository,
    private readonly outbox: OutboxWriter,
    private readonly reservations: ReservationRepository,
    private readonly hooks: EntryCorrectionHooks,
    private readonly guest: GuestMessenger,
    private readonly windows: RunningWindowFinder,
  ) {}

  async correct(venueId: string, entryId: string, input: EntryCorrection): Promise<{ entry: EntryView }> {
    // The lock's venue is also what a duplicate refused by the index is worded for.
    const lock = (m: EntityManager): Promise<Venue> => this.venues.lock(m, venueId);
    return this.tx.command({ venueId, lock, translate: duplicateContact }, async (tx, venue) => {
      const entry = await this.entries.find(tx.manager, venueId, entryId);
      if (!entry) throw DomainException.notFound('The queue entry was not found.');
      if (entry.version !== input.entryVersion) {
        throw new DomainException(ErrorCode.WAITLIST_STALE, ENTRY_STALE, { currentVersion: entry.version });
      }
      if (!ACTIVE_STATUSES.includes(entry.status))
        throw new DomainException(ErrorCode.WAITLIST_OFFER_CONFLICT, ENTRY_NOT_IN_QUEUE);

      const contact = normaliseContact(
        (input.email === undefined ? entry.email : input.email) ?? undefined,
        (input.phone === undefined ? entry.phone : input.phone) ?? undefined,
        venue.country,
        entry.phone,
      );
      const next = {
        name: input.name ?? entry.name,
        partySize: input.partySize ?? entry.partySize,
        email: contact.email,
        phone: contact.phone,
        contactKey: venue.oneEntryPerContact ? contact.key : null,
      };
      const changed = (['name', 'partySize', 'email', 'phone'] as const).filter((f) => next[f] !== entry[f]);
      if (changed.length === 0) return { entry: toEntryView(entry) };

      if (venue.seating === 'tables' && !contact.key) throw DomainException.validation(CONTACT_MISSING, { field: 'email' });
      if (next.partySize !== entry.partySize) {
        if (entry.status === 'offered') {
          // At a restaurant a withdrawal keeps the party's place; at a workshop it ends the group's turn,
          // so the advice to withdraw first would cost the group its place.
          throw new DomainException(
            ErrorCode.RULE_VIOLATION,
            venue.seating === 'pool'
              ? 'This group holds seats for its current size; its size can change only while it waits.'
              : 'Withdraw the live offer before changing the party size.',
          );
        }
        if (venue.seating === 'tables') assertPartySizeRange(next.partySize);
        assertPartySize(venue, next.partySize);
        if (venue.seating === 'tables')
          assertSeatable(next.partySize, await this.seating.seatingCapacities(tx.manager, venue.id));
      }
      if (venue.oneEntryPerContact && (next.email !== entry.email || next.phone !== entry.phone)) {
        const other = await this.entries.activeWithContact(tx.manager, venueId, entry.businessDate, contact, entry.id);
        if (other)
          throw new DomainException(ErrorCode.WAITLIST_DUPLICATE, duplicateMessage(venue.seating), { entryId: other.id });
      }

      const now = this.clock.now(venue);
      await this.entries.correct(tx.manager, entry.id, next);
      // A party holding an offer has a booking under its name and contact: it follows the correction.
      if (entry.status === 'offered')
        await this.reservations.followEntry(tx.manager, venueId, entry.id, {
          name: next.name,
          email: next.email,
          phone: next.phone,
          at: now,
        });
      for (const [channel, from, to] of [
        ['email', entry.email, next.email],
        ['sms', entry.phone, next.phone],
      ] as const) {
        if (from !== null && from !== to) await this.outbox.readdress(tx.manager, { entryId: entry.id, channel, from, to });
      }
      if (entry.status === 'waiting') await this.sendJoined(tx.manager, venue, { ...entry, ...next }, entry, now);
      if (next.email !== entry.email || next.phone !== entry.phone)
        await this.hooks.contactCorrected(tx.manager, {
          venue,
          entry: { id: entry.id, name: next.name, status: entry.status },
          before: { email: entry.email, phone: entry.phone },
          after: { email: next.email, phone: next.phone },
          at: now,
        });
      const version = entry.version + 1;
      await this.history.append(tx.manager, {
        venueId,
        subjectType: 'entry',
        subjectId: entry.id,
        from: entry.status,
        to: entry.status,
        at: now,
        operationId: `correct-entry-${entry.id}-v${version}`,
        reason: `corrected ${changed.join(', ')}`,
      });
      await this.board.append(tx, venueId, 'entry.corrected', { entryId: entry.id, version, changed }, now);
      return { entry: toEntryView({ ...entry, ...next, version }) };
    });
  }

  /**
   * A waiting party whose phone or email the host corrected (a mistyped number: the stranger at it
   * had the queueing text) is sent the queueing message at the corrected one, with the quote it was
   * given at the desk, as the board shows it: the join's words, position when it joined included. Not
   * when that contact already had it, or has it on its way (a message not yet taken followed the
   * correction: OutboxWriter.readdress), so a number corrected to a typo and back is not texted twice.
   */
  /**
   * The service end the join told the party with its quote ("Service ends at 10:00 PM, before this wait
   * is over"), or null when the quoted wait ended inside the service: found again from the window that
   * ran when they joined, as the join found it (QuoteService: joined at + quoted wait past the end).
   */
  private async serviceEndTold(tx: EntityManager, venue: Venue, entry: QueueEntry): Promise<string | null> {
    if (entry.quotedWaitMinutes === null) return null;
    const running = await this.windows.find(tx, venue, entry.receivedAt);
    if (!running) return null;
    const waitEnds = entry.receivedAt.getTime() + entry.quotedWaitMinutes * 60_000;
    return waitEnds > running.serviceEndsAt.getTime() ? this.clock.localStamp(venue, running.serviceEndsAt) : null;
  }

  private async sendJoined(tx: EntityManager, venue: Venue, now: QueueEntry, was: QueueEntry, at: Date): Promise<void> {
    if (venue.seating !== 'tables' || now.quotedPosition === null) return;
    const joinedAt = this.clock.localStamp(venue, now.receivedAt);
    const facts = {
      venueName: venue.name,
      partySize: now.partySize,
      position: now.quotedPosition,
      waitMinutes: now.quotedWaitMinutes,
      joinedAt,
      serviceEndsAt: await this.serviceEndTold(tx, venue, now),
    };
    const messages: NewMessage[] = [];
    if (now.phone !== null && now.phone !== was.phone)
      messages.push({
        venueId: venue.id,
        channel: 'sms',
        to: now.phone,
        template: QUEUE_JOINED_TEMPLATE,
        subject: '',
        body: queueJoinedText({ ...facts, link: this.guest.queueLink }),
        entryId: now.id,
        at,
      });
    if (now.email !== null && now.email !== was.email)
      messages.push({
        venueId: venue.id,
        to: now.email,
        template: QUEUE_JOINED_TEMPLATE,
        ...this.guest.withQueueLink(queueJoinedEmail({ ...facts, partyName: now.name })),
        entryId: now.id,
        at,
      });
    const unsent: NewMessage[] = [];
    for (const m of messages) {
      const had = await this.outbox.hasEntryMessage(tx, {
        entryId: now.id,
        template: QUEUE_JOINED_TEMPLATE,
        channel: m.channel ?? 'email',
        to: m.to,
      });
      if (!had) unsent.push(m);
    }
    if (unsent.length > 0) await this.outbox.recordAll(tx, unsent);
  }
}
