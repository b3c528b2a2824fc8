import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  CommitThenRefuse,
  DomainException,
  ErrorCode,
  HistoryWriter,
  limitAddress,
  readTogether,
  TransactionRunner,
  type Results,
  type Tx,
} from '@hostboard/core';
import { BoardEventWriter } from '@hostboard/board';
import { GuestMessenger, OutboxWriter, queueJoinedText } from '@hostboard/outbox';
import {
  LapsedHolds,
  RunningWindowFinder,
  TablesRepository,
  VenueClock,
  VenueRepository,
  type RunningServiceWindow,
  type Venue,
} from '@hostboard/venue';
import { normaliseContact, refuseTextsAbroad, type Contact } from '../entries/contact.js';
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
  duplicateMessage,
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
  /** When the running service stops (no offer can be made after it); null when none runs. */
  serviceEndsAt: string | null;
  /** The quoted wait ends after `serviceEndsAt`: the party is told it may not be seated. */
  pastServiceEnd: boolean;
  /** Shown once: a replay of the join answers null. */
  queueToken: string | null;
}

/** What a join's lock read: the venue, and the guards' reads sent after the lock (`setupReads`). */
interface JoinLocked {
  venue: Venue;
  found: Results<ReturnType<JoinService['setupReads']>>;
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
    private readonly lapsed: LapsedHolds,
  ) {}

  /** Host+ at the desk: the venue is theirs, published or not. */
  async deskJoin(venueId: string, input: JoinInput): Promise<JoinResult> {
    return this.command(venueId, async (tx, { venue, found }) => {
      // A national phone number is read with the venue's country, so the contact is checked here.
      return this.join(tx, venue, found, input, normaliseContact(input.email, input.phone, venue.country), true);
    });
  }

  /** Anyone, by slug: an unknown or unpublished venue is the same plain NOT_FOUND. */
  async publicJoin(slug: string, input: JoinInput): Promise<JoinResult> {
    await this.limiter.fromAddress(limitAddress());
    // One statement that decides nothing (the venue is read again under its lock): no transaction of
    // its own, whose COMMIT would be a write and a round trip of its own (issue 18).
    const found = await this.tx.read((manager) => this.venues.findBySlug(manager, slug));
    // The request is checked before the venue's guards; an unknown or unpublished venue reads phones
    // as international only, which tells an outsider nothing about it.
    const contact = normaliseContact(input.email, input.phone, found?.published ? found.country : null);
    if (!found?.published) throw DomainException.notFound(VENUE_NOT_FOUND);
    refuseTextsAbroad(contact.phone, found.country);
    await this.limiter.intoVenue(found.id);
    return this.command(found.id, async (tx, locked) => {
      const venue = locked.venue;
      // Read again under the lock: it may have been unpublished since.
      if (!venue.published) throw DomainException.notFound(VENUE_NOT_FOUND);
      return this.join(tx, venue, locked.found, input, contact, false);
    });
  }

  /**
   * The guards' read, sent in the lock's own write as a statement of its own after it (so it sees
   * everything committed before the lock was granted): its parameters are known before the venue is
   * read. The running window is found from the windows once the venue's now is known; whether a day has
   * ended or a hold has lapsed is decided from the earliest waiting date and the earliest deadline, at
   * that now; the capacities are read whatever the venue seats (a pool venue's are not used).
   */
  private setupReads(venueId: string) {
    return {
      windows: this.windows.listRead(venueId),
      capacities: this.seating.seatingCapacitiesRead(venueId),
      earliestWaiting: this.entries.earliestWaitingDateRead(venueId),
      deadline: this.lapsed.deadlineRead(venueId),
    };
  }

  /**
   * A join's command: its first statement locks the venue, taking the entry's queue sequence number
   * and the Idempotency-Key's lock (`keyLock`), with the guards' reads after it. The venue it read is
   * given to the work, and to the words of a duplicate the index refused.
   */
  private command(venueId: string, fn: (tx: Tx, locked: JoinLocked) => Promise<JoinResult>): Promise<JoinResult> {
    return this.tx.command<JoinResult, JoinLocked>(
      {
        venueId,
        lock: (manager, keyLock) => this.venues.lockTakingSequenceThenRead(manager, venueId, keyLock, this.setupReads(venueId)),
        keyLockedByCommand: true,
        translate: (err, locked) => duplicateContact(err, locked?.venue),
        storedAs: (r) => ({ ...r, queueToken: null }),
      },
      fn,
    );
  }

  /**
   * `staff`: the desk is told where the existing entry stands; an anonymous caller is not (it would reveal who is queued).
   *
   * Statements (issue 18): the lock, which also takes the entry's queue sequence number
   * (`lockTakingSequence`); one read for the guards (service windows, capacities, whether a business
   * day has ended or a hold lapsed: `setupReads`), sent in the lock's write; one for the duplicate
   * check and the quote (the queue count and the floor model's inputs); and one for every new row with
   * the board event and the Idempotency-Key's answer. Each read comes after the lock, so it sees every
   * command committed before ours. On PostgreSQL the transaction's BEGIN travels with the lock and
   * its COMMIT with the last insert (lazy-begin.ts): three round trips.
   */
  private async join(
    tx: Tx,
    venue: Venue,
    found: JoinLocked['found'],
    input: JoinInput,
    contact: Contact,
    staff: boolean,
  ): Promise<JoinResult> {
    const tables = venue.seating === 'tables';
    const now = this.clock.now(venue);
    const setup = {
      running: this.windows.runningIn(found.windows, venue, now),
      // Read once: the seatable check and the quote's table kind both need the venue's capacities.
      capacities: tables ? found.capacities : undefined,
      // The business day has ended for a waiting entry of a date before the venue-local one (table venues).
      dayEnded: tables && found.earliestWaiting !== null && found.earliestWaiting < this.clock.localDate(venue, now),
      holdsLapsed:
        found.deadline !== undefined ? found.deadline !== null && found.deadline.getTime() <= now.getTime() : undefined,
    };
    // Holds that have lapsed end first (a party whose offer ran out holds nothing, and under a
    // leave-queue policy is out of the queue: it is neither counted ahead nor a duplicate), then the
    // waiting parties of an ended day leave the queue (the sweep closes those too). Both stay even
    // when this join is then refused (as when they were their own transaction before the join).
    const swept = setup.holdsLapsed ? await this.lapsed.resolveLocked(tx, venue, now) : [];
    const closed = !setup.holdsLapsed && setup.dayEnded ? await this.dayClose.closeLocked(tx, venue, now) : [];
    const changed = swept.length > 0 || closed.length > 0 || (setup.holdsLapsed === true && setup.dayEnded === true);
    try {
      return await this.joinChecked(tx, venue, input, contact, staff, now, setup.running, setup.capacities ?? []);
    } catch (err) {
      if (changed && err instanceof DomainException) {
        // This commits: the sequence number the refused join took is given back.
        await this.venues.giveBackSequence(tx.manager, venue);
        throw new CommitThenRefuse(err);
      }
      throw err;
    }
  }

  private async joinChecked(
    tx: Tx,
    venue: Venue,
    input: JoinInput,
    contact: Contact,
    staff: boolean,
    now: Date,
    running: RunningServiceWindow | null,
    capacities: number[],
  ): Promise<JoinResult> {
    if (venue.seating === 'tables') {
      assertPartySizeRange(input.partySize);
      if (!contact.key) throw DomainException.validation(CONTACT_MISSING, { field: 'email' });
    }
    if (!venue.queueEnabled) throw new DomainException(ErrorCode.RULE_VIOLATION, QUEUE_OFF);
    assertPartySize(venue, input.partySize);
    if (venue.seating === 'tables') assertSeatable(input.partySize, capacities);
    if (venue.requireServiceWindow && !running) throw new DomainException(ErrorCode.RULE_VIOLATION, NO_SERVICE_WINDOW);
    // The business date is the running window's (the day it started, past midnight too), else today.
    const businessDate = running?.businessDate ?? this.clock.localDate(venue, now);
    const contactKey = venue.oneEntryPerContact ? contact.key : null;
    const facts = {
      partySize: input.partySize,
      businessDate,
      turnMinutes: running?.window.turnMinutes ?? null,
      serviceEndsAt: running?.serviceEndsAt ?? null,
      now,
      capacities,
    };
    const found = await readTogether(tx.manager, {
      duplicate: contactKey ? this.entries.activeWithContactRead(venue.id, businessDate, contact) : undefined,
      ...this.quotes.joinReads(venue, facts),
    });
    if (found.duplicate) {
      throw new DomainException(
        ErrorCode.WAITLIST_DUPLICATE,
        duplicateMessage(venue.seating),
        staff ? { entryId: found.duplicate } : {},
      );
    }
    const standing = this.quotes.standingFrom(venue, facts, found);
    // Told with the quote when the wait runs past it, venue-local with its zone ("10:00 PM CDT").
    const serviceEnd = standing.pastServiceEnd && facts.serviceEndsAt ? this.clock.localStamp(venue, facts.serviceEndsAt) : null;
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
      queueSequence: venue.queueSequenceLast,
      businessDate,
      version: 1,
      quotedPosition: standing.position,
      quotedWaitMinutes: standing.waitMinutes,
      quotedAt: now,
      createdAt: now,
    };
    const token = this.tokens.issued(venue, entry, now);
    // Every new row in one statement with the board event (the entry first: the others refer to it).
    const rows = [
      this.entries.insertRow(entry),
      ...this.quotes.recordRow(entry, standing),
      token.insert,
      this.history.rows({
        venueId: venue.id,
        subjectType: 'entry',
        subjectId: entry.id,
        from: null,
        to: 'waiting',
        at: now,
        operationId: `join-${entry.id}`,
      }),
    ];
    if (venue.seating === 'tables' && entry.email) {
      const email = queueJoinedEmail({
        venueName: venue.name,
        partyName: entry.name,
        partySize: entry.partySize,
        position: standing.position,
        waitMinutes: standing.waitMinutes,
        joinedAt: this.clock.localStamp(venue, now),
        serviceEndsAt: serviceEnd,
      });
      rows.push(
        this.outbox.row({
          venueId: venue.id,
          to: entry.email,
          template: QUEUE_JOINED_TEMPLATE,
          ...this.guest.withQueueLink(email),
          entryId: entry.id,
          at: now,
        }),
      );
    }
    // The same facts as a text, to a party that gave a phone: in the same statement as the rest.
    if (venue.seating === 'tables' && entry.phone) {
      const body = queueJoinedText({
        venueName: venue.name,
        partySize: entry.partySize,
        position: standing.position,
        waitMinutes: standing.waitMinutes,
        joinedAt: this.clock.localStamp(venue, now),
        serviceEndsAt: serviceEnd,
        link: this.guest.queueLink,
      });
      rows.push(
        this.outbox.row({
          venueId: venue.id,
          channel: 'sms',
          to: entry.phone,
          template: QUEUE_JOINED_TEMPLATE,
          subject: '',
          body,
          entryId: entry.id,
          at: now,
        }),
      );
    }
    const result: JoinResult = {
      entry: toEntryView(entry),
      position: standing.position,
      ahead: standing.ahead,
      quotedWaitMinutes: standing.waitMinutes,
      approx: true,
      quote: standing.quote,
      serviceEndsAt: facts.serviceEndsAt?.toISOString() ?? null,
      pastServiceEnd: standing.pastServiceEnd,
      queueToken: token.token.queueToken,
    };
    // The answer travels with the rows: every check is behind us, and this is what the join returns.
    rows.push(...(tx.answerRow?.(result) ?? []));
    // The last statement, with the COMMIT (under the venue's lock; nothing here catches its error,
    // which goes to the command's translate, a contact's duplicate, or the key's replay).
    await this.board.appendAtCommit(
      tx,
      venue.id,
      'entry.joined',
      { entryId: entry.id, queueSequence: Number(entry.queueSequence) },
      now,
      rows,
    );
    return result;
  }
}
