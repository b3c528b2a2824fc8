import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DomainException, ErrorCode, HistoryWriter, requestContext, TransactionRunner, type Tx } from '@hostboard/core';
import { BoardEventWriter } from '@hostboard/board';
import { GuestMessenger, OutboxWriter, queueJoinedText } from '@hostboard/outbox';
import { RunningWindowFinder, TablesRepository, VenueClock, VenueRepository, type Venue } from '@hostboard/venue';
import { normaliseContact, type Contact } from '../entries/contact.js';
import { QueueEntry } from '../entries/queue-entry.entity.js';
import { QueueEntryRepository } from '../entries/queue-entry.repository.js';
import { toEntryView, type EntryView } from '../entries/queue-entry.view.js';
import { QuoteService } from '../quote/quote.service.js';
import { QueueTokenService } from '../tokens/queue-token.service.js';
import { BusinessDayCloser } from '../day-close/business-day.closer.js';
import { JoinLimiter } from './join.limiter.js';
import { QUEUE_JOINED_TEMPLATE, queueJoinedEmail } from './queue-joined.email.js';
import {
  assertPartySize,
  assertPartySizeRange,
  assertSeatable,
  CONTACT_MISSING,
  DUPLICATE_MESSAGE,
  duplicateContact,
  NO_SERVICE_WINDOW,
  QUEUE_OFF,
  VENUE_NOT_FOUND,
} from './join-rules.js';

export interface JoinInput {
  name: string;
  partySize: number;
  email?: string;
  phone?: string;
}

export interface JoinResult {
  entry: EntryView;
  position: number;
  ahead: number;
  quotedWaitMinutes: number | null;
  approx: true;
  quote: string;
  /** Shown once: a replay of the join answers null. */
  queueToken: string | null;
}

/**
 * Joining the queue. Input is validated first (the pipe, then the contact); then the spec's guards
 * in its order, each with its own answer: published (public side only), queue switched on, party
 * size within the cap, a service window running now, one active entry per contact per venue-day.
 * Everything runs under the venue row lock, so the duplicate check and the insert see one queue; the
 * partial unique index backs the rule should anything ever race past the lock.
 */
@Injectable()
export class JoinService {
  constructor(
    private readonly tx: TransactionRunner,
    private readonly venues: VenueRepository,
    private readonly clock: VenueClock,
    private readonly windows: RunningWindowFinder,
    private readonly entries: QueueEntryRepository,
    private readonly quotes: QuoteService,
    private readonly tokens: QueueTokenService,
    private readonly history: HistoryWriter,
    private readonly board: BoardEventWriter,
    private readonly outbox: OutboxWriter,
    private readonly dayClose: BusinessDayCloser,
    private readonly seating: TablesRepository,
    private readonly guest: GuestMessenger,
    private readonly limiter: JoinLimiter,
  ) {}

  /** Host+ at the desk: the venue is theirs, published or not. */
  async deskJoin(venueId: string, input: JoinInput): Promise<JoinResult> {
    await this.dayClose.closeFirst(venueId);
    return this.command(async (tx) => {
      const venue = await this.venues.lock(tx.manager, venueId);
      // A national phone number is read with the venue's country, so the contact is checked here.
      return this.join(tx, venue, input, normaliseContact(input.email, input.phone, venue.country), true);
    });
  }

  /** Anyone, by slug: an unknown or unpublished venue is the same plain NOT_FOUND. */
  async publicJoin(slug: string, input: JoinInput): Promise<JoinResult> {
    await this.limiter.fromAddress(requestContext.current()?.ip ?? 'unknown');
    const found = await this.tx.run(({ manager }) => this.venues.findBySlug(manager, slug));
    // The request is checked before the venue's guards; an unknown or unpublished venue reads phones
    // as international only, which tells an outsider nothing about it.
    const contact = normaliseContact(input.email, input.phone, found?.published ? found.country : null);
    if (!found?.published) throw DomainException.notFound(VENUE_NOT_FOUND);
    await this.dayClose.closeFirst(found.id);
    await this.limiter.intoVenue(found.id);
    return this.command(async (tx) => {
      const venue = await this.venues.lock(tx.manager, found.id);
      // Read again under the lock: it may have been unpublished since.
      if (!venue.published) throw DomainException.notFound(VENUE_NOT_FOUND);
      return this.join(tx, venue, input, contact, false);
    });
  }

  private command(fn: (tx: Tx) => Promise<JoinResult>): Promise<JoinResult> {
    return this.tx.command<JoinResult>({ translate: duplicateContact, storedAs: (r) => ({ ...r, queueToken: null }) }, fn);
  }

  /** `staff`: the desk is told where the existing entry stands; an anonymous caller is not (it would reveal who is queued). */
  private async join(tx: Tx, venue: Venue, input: JoinInput, contact: Contact, staff: boolean): Promise<JoinResult> {
    if (venue.seating === 'tables') {
      assertPartySizeRange(input.partySize);
      if (!contact.key) throw DomainException.validation(CONTACT_MISSING, { field: 'email' });
    }
    if (!venue.queueEnabled) throw new DomainException(ErrorCode.RULE_VIOLATION, QUEUE_OFF);
    assertPartySize(venue, input.partySize);
    // Read once: the seatable check and the quote's table kind both need the venue's capacities.
    const capacities = venue.seating === 'tables' ? await this.seating.seatingCapacities(tx.manager, venue.id) : [];
    if (venue.seating === 'tables') assertSeatable(input.partySize, capacities);
    const now = this.clock.now(venue);
    const running = await this.windows.find(tx.manager, venue, now);
    if (venue.requireServiceWindow && !running) throw new DomainException(ErrorCode.RULE_VIOLATION, NO_SERVICE_WINDOW);
    // The business date is the running window's (the day it started, past midnight too), else today.
    const businessDate = running?.businessDate ?? this.clock.localDate(venue, now);
    const contactKey = venue.oneEntryPerContact ? contact.key : null;
    if (contactKey) {
      const existing = await this.entries.activeWithContact(tx.manager, venue.id, businessDate, contact);
      if (existing)
        throw new DomainException(ErrorCode.WAITLIST_DUPLICATE, DUPLICATE_MESSAGE, staff ? { entryId: existing.id } : {});
    }

    const standing = await this.quotes.forJoin(
      tx.manager,
      venue,
      input.partySize,
      businessDate,
      running?.window.turnMinutes ?? null,
      now,
      capacities,
    );
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
      quotedPosition: standing.position,
      quotedWaitMinutes: standing.waitMinutes,
      quotedAt: now,
      createdAt: now,
    };
    await this.entries.insert(tx.manager, entry);
    await this.quotes.record(tx.manager, entry, standing);
    const token = await this.tokens.issue(tx.manager, venue, entry, now);
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
    if (venue.seating === 'tables' && entry.email) {
      const email = queueJoinedEmail({
        venueName: venue.name,
        partyName: entry.name,
        partySize: entry.partySize,
        position: standing.position,
        waitMinutes: standing.waitMinutes,
        joinedAt: this.clock.localTime(venue, now),
      });
      await this.outbox.record(tx.manager, {
        venueId: venue.id,
        to: entry.email,
        template: QUEUE_JOINED_TEMPLATE,
        ...this.guest.withQueueLink(email),
        entryId: entry.id,
        at: now,
      });
    }
    // The same facts as a text, to a party that gave a phone.
    if (venue.seating === 'tables' && entry.phone) {
      const body = queueJoinedText({
        venueName: venue.name,
        partySize: entry.partySize,
        position: standing.position,
        waitMinutes: standing.waitMinutes,
        joinedAt: this.clock.localTime(venue, now),
        link: this.guest.queueLink,
      });
      await this.guest.text(tx.manager, { venueId: venue.id, party: entry, template: QUEUE_JOINED_TEMPLATE, body, at: now });
    }
    return {
      entry: toEntryView(entry),
      position: standing.position,
      ahead: standing.ahead,
      quotedWaitMinutes: standing.waitMinutes,
      approx: true,
      quote: standing.quote,
      queueToken: token.queueToken,
    };
  }
}
