import { Injectable } from '@nestjs/common';
import {
  cursor,
  DomainException,
  ErrorCode,
  HistoryWriter,
  toPage,
  TransactionRunner,
  type Page,
  type Tx,
} from '@hostboard/core';
import { hashSecret, newSecretToken } from '@hostboard/auth';
import {
  PoolAllocator,
  Reservation,
  ReservationRepository,
  TableAllocator,
  tableTaken,
  toReservationView,
  type ReservationState,
  type ReservationView,
} from '@hostboard/allocator';
import { BoardEventWriter } from '@hostboard/board';
import { SweepService } from '@hostboard/offer';
import { normaliseContact, QueueEntryRepository, type Contact } from '@hostboard/queue';
import { RunningWindowFinder, VenueClock, VenueRepository, type Venue, type VenueTable } from '@hostboard/venue';
import type { CreateReservationDto } from './http/create-reservation.dto.js';

export type CreatedBooking = ReservationView & { bookingLink: string | null };

/**
 * Who a table turn is for: a booking's guest, or a walk-in with no contact. A walk-in's name may come
 * from its tables (`name` as a function of the rows the target check read: "Walk-in at T2").
 */
export interface TurnParty {
  name: string | ((tables: ReadonlyArray<Pick<VenueTable, 'label'>>) => string);
  partySize: number;
  email: string | null;
  phone: string | null;
  entryId: null;
}

/**
 * The guide's strict order ("Oldest group cannot fit: Stop. … do not skip it"): a registration made
 * at the desk while groups wait would take the seats the oldest of them is waiting for.
 */
export const GROUPS_WAITING =
  'Groups are waiting for seats: add this group to the queue. Seats go to the oldest waiting group first.';

/** Confirmed bookings: on a pool venue, a registration counting against the capacity. */
@Injectable()
export class BookingService {
  constructor(
    private readonly tx: TransactionRunner,
    private readonly venues: VenueRepository,
    private readonly clock: VenueClock,
    private readonly pool: PoolAllocator,
    private readonly reservations: ReservationRepository,
    private readonly history: HistoryWriter,
    private readonly board: BoardEventWriter,
    private readonly tables: TableAllocator,
    private readonly windows: RunningWindowFinder,
    private readonly sweep: SweepService,
    private readonly entries: QueueEntryRepository,
  ) {}

  async create(venueId: string, input: CreateReservationDto): Promise<CreatedBooking> {
    const link = newSecretToken();
    return this.tx.command<CreatedBooking>(
      { venueId, storedAs: (r) => ({ ...r, bookingLink: null }), translate: tableTaken, keyLockedByCommand: true },
      async (tx) => {
        const m = tx.manager;
        // "Resolve any holds that have expired before making the next allocation": the sweep's question
        // (and a pool queue's oldest waiting group) travel in the lock's own write (issue 18), and a hold
        // past its expiry is swept first, in a transaction of its own (SweepService.sweepThenDecide), so
        // it no longer keeps seats or tables from this booking.
        const locked = await this.venues.lockThenRead(m, venueId, tx.keyLock, {
          head: this.entries.oldestWaitingRead(m, venueId),
          ...this.sweep.dueAfterLockReads(venueId),
        });
        const venue = locked.venue;
        return this.sweep.sweepThenDecide(tx, venue, this.clock.now(venue), locked.found, () =>
          this.created(tx, venue, input, link, locked.found.head !== null),
        );
      },
    );
  }

  private async created(
    tx: Tx,
    venue: Venue,
    input: CreateReservationDto,
    link: string,
    groupsWaiting: boolean,
  ): Promise<CreatedBooking> {
    const venueId = venue.id;
    // A national phone number is read with the venue's country.
    const contact = normaliseContact(input.email, input.phone, venue.country);
    if (venue.seating === 'tables') return this.createOnTables(tx, venue, input, contact, link);
    if (input.start !== undefined || input.tableIds !== undefined) {
      throw DomainException.validation('This venue has a seat pool: a booking here takes no start time and no tables.', {
        fields: [
          { field: 'start', message: 'A seat pool takes no start time.' },
          { field: 'tableIds', message: 'A seat pool takes no tables.' },
        ].filter((f) => input[f.field as 'start' | 'tableIds'] !== undefined),
      });
    }
    if (input.partySize > (venue.poolCapacity ?? 0)) {
      throw DomainException.validation(`The party size must be a whole number from 1 to ${venue.poolCapacity}.`, {
        field: 'partySize',
      });
    }
    if (groupsWaiting) {
      throw new DomainException(ErrorCode.RULE_VIOLATION, GROUPS_WAITING);
    }
    const now = this.clock.now(venue);
    const r: Reservation = await this.pool.register(
      tx.manager,
      venue,
      { name: input.name, partySize: input.partySize, email: contact.email, phone: contact.phone, entryId: null },
      now,
    );
    await this.booked(tx, venueId, r, link, now, {});
    return { ...toReservationView(r), bookingLink: link };
  }

  /** A new confirmed booking's link, its history row and its board event. */
  private async booked(tx: Tx, venueId: string, r: Reservation, link: string, now: Date, event: { tableIds?: string[] }) {
    await tx.manager.update(Reservation, { id: r.id }, { bookingLinkHash: hashSecret(link) });
    await this.history.append(tx.manager, {
      venueId,
      subjectType: 'reservation',
      subjectId: r.id,
      from: null,
      to: 'CONFIRMED',
      at: now,
      operationId: `book-${r.id}`,
    });
    await this.board.append(tx, venueId, 'reservation.created', { reservationId: r.id, state: r.state, ...event }, now);
  }

  /**
   * A confirmed booking on tables for one turn of the service window running at `start` (the
   * governing window): the same target rules and refusals as an offer.
   */
  private async createOnTables(
    tx: Tx,
    venue: Venue,
    input: CreateReservationDto,
    contact: Contact,
    link: string,
  ): Promise<CreatedBooking> {
    if (input.start === undefined || input.tableIds === undefined)
      throw DomainException.validation('A table booking needs a start time and its tables.', {
        fields: [
          { field: 'start', message: 'A table booking needs a start time.' },
          { field: 'tableIds', message: 'A table booking needs its tables.' },
        ].filter((f) => input[f.field as 'start' | 'tableIds'] === undefined),
      });
    const now = this.clock.now(venue);
    const party = { name: input.name, partySize: input.partySize, email: contact.email, phone: contact.phone, entryId: null };
    const r = await this.reserveTurn(tx, venue, party, input.tableIds, new Date(input.start), now);
    await this.booked(tx, venue.id, r, link, now, { tableIds: input.tableIds });
    return { ...toReservationView(r, [...input.tableIds].sort()), bookingLink: link };
  }

  /**
   * Tables confirmed for one turn of the service window running at `start` (the governing window),
   * after the same target rules and refusals as an offer: a desk booking and a walk-in (booked from
   * now and seated in the same command) ask the same questions in the same order and words.
   */
  async reserveTurn(tx: Tx, venue: Venue, party: TurnParty, tableIds: string[], start: Date, now: Date): Promise<Reservation> {
    const m = tx.manager;
    if (party.partySize > 200) throw DomainException.validation('partySize must not be greater than 200', { field: 'partySize' });
    const window = await this.windows.find(m, venue, start);
    if (!window) throw new DomainException(ErrorCode.RULE_VIOLATION, 'No service window runs at that time.');
    if (window.window.depositRequired) {
      throw new DomainException(
        ErrorCode.PAID_BOOKING_UNAVAILABLE,
        'This service requires a deposit; no free booking during the pilot.',
      );
    }
    const tables = await this.tables.assertTarget(m, venue.id, tableIds, party.partySize);
    const name = typeof party.name === 'function' ? party.name(tables) : party.name;
    const end = new Date(start.getTime() + window.window.turnMinutes * 60_000);
    // A booking starting now cannot take a table someone is sitting at; a later one cannot run into a
    // seated party's turn (which starts when it sat down, even before the time it had booked).
    await this.tables.assertNotOccupiedDuring(m, venue.id, tableIds, start, end, now);
    await this.tables.assertFree(m, venue.id, tableIds, start, end, now);
    return this.tables.reserve(m, venue, { ...party, name }, tableIds, { start, end }, 'CONFIRMED', now, null);
  }

  /**
   * Newest first, a page at a time (`before`: the cursor of the previous page's Link header). Lapsed
   * holds are swept first, as the board's reads do: a hold past its expiry reads EXPIRED, not HELD.
   */
  async list(
    venueId: string,
    query: { limit: number; before?: string; state?: ReservationState },
  ): Promise<Page<ReservationView>> {
    const beforeId = cursor.decode(query.before);
    if (beforeId !== null && !UUID.test(beforeId))
      throw DomainException.validation('before must be a cursor from a Link header', { field: 'before' });
    await this.sweep.sweepFirst(venueId);
    return this.tx.run(async ({ manager }) => {
      const page = toPage(
        await this.reservations.page(manager, venueId, query.limit + 1, beforeId, query.state),
        query.limit,
        (r) => cursor.encode(r.id),
      );
      const tables = await this.tables.tableIdsOf(
        manager,
        page.items.filter((r) => r.kind === 'tables').map((r) => r.id),
      );
      return { items: page.items.map((r) => toReservationView(r, tables.get(r.id) ?? [])), next: page.next };
    });
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
