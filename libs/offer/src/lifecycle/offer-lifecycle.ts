import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  chainedQuery,
  HistoryWriter,
  Metrics,
  type HistoryChange,
  type PendingInsert,
  type TogetherStatement,
  type Tx,
} from '@hostboard/core';
import { ReservationRepository, type Reservation } from '@hostboard/allocator';
import { BoardEventWriter } from '@hostboard/board';
import { GuestMessenger, type Announcement, type AnnouncementTo } from '@hostboard/outbox';
import { BusinessDayCloser, QueueEntryRepository, type EntryParty, type EntryStatus, type QueueEntry } from '@hostboard/queue';
import { VenueClock, type Venue } from '@hostboard/venue';
import type { Offer } from '../offers/offer.entity.js';
import { OfferRepository, type EndedOffer } from '../offers/offer.repository.js';
import { OfferExpiryScheduler } from '../jobs/offer-expiry.scheduler.js';

export type OfferEnding = 'expired' | 'withdrawn' | 'cancelled';

/**
 * Offers a sweep ends per round of statements. Its one insert carries about 53 parameters per table
 * offer (three history rows, an email and a text), and PostgreSQL takes at most 65,535 in one
 * statement: a venue with more due at once than this takes another round, in deadline order.
 */
const EXPIRY_BATCH = 500;

/**
 * The offers ended, by deadline; and whether one of their parties went back to waiting from a date
 * before the venue-local one (its day may have ended: the sweep then closes it).
 */
export interface EndedOffers {
  ids: string[];
  returnedFromEarlierDate: boolean;
}

/** The one row of the statement that ends offers: the ended offers by deadline, the holds it released, and (table venues) their parties. */
interface EndedLists {
  ended: Array<{ id: string; entry_id: string; reservation_id: string; expires_at: string }>;
  released: Array<{ id: string; pool_seats: number }>;
  parties: Array<{ id: string; name: string; email: string | null; phone: string | null; business_date: string }>;
  /** Ended before their deadlines (withdrawn, cancelled): those with no later live hold at the venue, whose jobs may go. */
  unchained: string[];
}

/**
 * Ends live offers and everything that hangs on them, once: the offer, its held reservation (seats
 * or tables released) and the entry. Every step is guarded by the current state, so a second call
 * for the same offer (a retried expiry, a late job) changes nothing and answers false.
 *
 * One offer (a withdrawal, a cancellation, a lapse found at acceptance) and every offer due in a
 * sweep go the same way, in a fixed number of statements however many end together: when a burst
 * of offers falls due, the sweep that holds the venue lock is short, so the expiries behind it
 * are on time.
 */
@Injectable()
export class OfferLifecycle {
  constructor(
    private readonly offers: OfferRepository,
    private readonly reservations: ReservationRepository,
    private readonly entries: QueueEntryRepository,
    private readonly clock: VenueClock,
    private readonly history: HistoryWriter,
    private readonly board: BoardEventWriter,
    private readonly expiryJobs: OfferExpiryScheduler,
    private readonly guest: GuestMessenger,
    private readonly days: BusinessDayCloser,
    private readonly metrics: Metrics,
  ) {}

  /** `by`, when given, goes into the board event: who ended it (a party leaving from its phone, or staff). */
  async end(
    tx: Tx,
    venue: Venue,
    offer: Offer,
    ending: OfferEnding,
    now: Date,
    operationId: string,
    by?: 'party' | 'staff',
  ): Promise<boolean> {
    return (await this.endAll(tx, venue, { ids: [offer.id] }, ending, now, () => operationId, by)).ids.length > 0;
  }

  /**
   * `end` of one offer read live under the venue lock, with its reservation and entry read there too,
   * so every guarded step's outcome is known: the same changes, history, message and board event,
   * with the command's `answer`, in one statement sent with the COMMIT (`extra`: the command's own
   * changes, after these and before the event). Nothing in the command may follow it or catch its
   * error (the commit's). Not for an expiry (its history is the system's, at the deadline: `end`).
   */
  async endReadAtCommit(
    tx: Tx,
    venue: Venue,
    read: { offer: Offer; reservation: Reservation | null; entry: QueueEntry | null; laterLive: boolean },
    ending: 'withdrawn' | 'cancelled',
    now: Date,
    operationId: string,
    by: 'party' | 'staff' | undefined,
    answer: unknown,
    extra: TogetherStatement[] = [],
  ): Promise<void> {
    const { offer, reservation, entry } = read;
    const { reservationTo, entryTo } = endingTargets(venue, ending);
    const rows: Array<PendingInsert | TogetherStatement> = [this.offers.endStatement(offer.id, ending, now)];
    const base = { venueId: venue.id, at: now, operationId, reason: ending };
    const changes: HistoryChange[] = [{ ...base, subjectType: 'offer', subjectId: offer.id, from: 'live', to: ending }];
    // Each step as its guard in `endAll` would find it, read under this lock.
    const released = reservation?.id === offer.reservationId && reservation.state === 'HELD';
    if (released) {
      rows.push(this.reservations.transitionStatement(offer.reservationId, ['HELD'], reservationTo, now, ending));
      changes.push({ ...base, subjectType: 'reservation', subjectId: offer.reservationId, from: 'HELD', to: reservationTo });
      if (reservation.kind === 'pool') venue.poolHeld -= reservation.partySize;
    }
    const party = entry?.id === offer.entryId ? entry : null;
    if (party?.status === 'offered') rows.push(this.entries.transitionStatement(offer.entryId, ['offered'], entryTo));
    changes.push({ ...base, subjectType: 'entry', subjectId: offer.entryId, from: 'offered', to: entryTo });
    // Its job is removed unless a later hold of the venue is live (read under this lock): the job may
    // be theirs (an offer made while this one was live added none; OfferExpiryScheduler). A pool's
    // promotions each have their own job: nothing hangs on one there.
    if (!read.laterLive || venue.seating !== 'tables') this.expiryJobs.afterCommit(tx, venue, { cancel: offer.id });
    const ended: EndedOffer = { id: offer.id, entryId: offer.entryId, reservationId: offer.reservationId };
    const parties: EntryParty[] = venue.seating === 'tables' && party ? [party] : [];
    const placeKept = entryTo === 'waiting';
    const localDate = placeKept && parties.length > 0 ? this.clock.localDate(venue, now) : undefined;
    const fromEarlierDate = localDate !== undefined && parties.some((p) => p.businessDate < localDate);
    const messages = await this.announcements(tx.manager, venue, [ended], parties, ending, placeKept, fromEarlierDate, now, by);
    rows.push(this.history.rows(...changes), messages, ...extra, ...(tx.answerRow?.(answer) ?? []));
    await this.board.appendAtCommit(
      tx,
      venue.id,
      `offer.${ending}`,
      {
        offerId: offer.id,
        entryId: offer.entryId,
        reservationId: offer.reservationId,
        entryStatus: entryTo,
        ...(by ? { by } : {}),
      },
      now,
      rows,
    );
  }

  /** Inside the venue lock: expires every live offer due at `now`; answers their ids, in deadline order. */
  async expireDue(tx: Tx, venue: Venue, now: Date, operationId: (offerId: string) => string): Promise<EndedOffers> {
    const expired: EndedOffers = { ids: [], returnedFromEarlierDate: false };
    for (;;) {
      const batch = await this.endAll(tx, venue, { dueAt: now, limit: EXPIRY_BATCH }, 'expired', now, operationId);
      expired.ids.push(...batch.ids);
      expired.returnedFromEarlierDate ||= batch.returnedFromEarlierDate;
      if (batch.ids.length < EXPIRY_BATCH) return expired;
    }
  }

  /**
   * Two statements, however many offers: one ends the offers, releases their reservations, moves
   * their entries and (table venues) reads their parties, each step guarded by the current state; the
   * other inserts every history row, guest message and board event (one event per offer, each with
   * its own version). A third reads the business date when a kept place may belong to an ended day.
   */
  private async endAll(
    tx: Tx,
    venue: Venue,
    which: { ids: string[] } | { dueAt: Date; limit: number },
    ending: OfferEnding,
    now: Date,
    operationId: (offerId: string) => string,
    by?: 'party' | 'staff',
  ): Promise<EndedOffers> {
    const m = tx.manager;
    const reason = ending === 'expired' ? 'WAITLIST_OFFER_EXPIRED' : ending;
    const { reservationTo, entryTo } = endingTargets(venue, ending);
    // Table venues only announce: those are the venues whose parties were told of the offer.
    const announced = venue.seating === 'tables';
    const steps = [
      this.offers.endLiveStep(venue.id, which, ending, now),
      this.reservations.releaseStep('ended', ['HELD'], reservationTo, now, reason),
      this.entries.moveStep('ended', venue.id, ['offered'], entryTo),
      ...(announced ? [this.entries.partiesStep('ended', venue.id)] : []),
    ];
    // One row of three lists, each step read once: joined row by row, steps whose size the planner
    // cannot know made a sweep of 200 offers take 800 ms in the database.
    const [found] = await chainedQuery<EndedLists>(m, steps, {
      sql: `SELECT (SELECT coalesce(json_agg(json_build_object('id', id, 'entry_id', entry_id, 'reservation_id', reservation_id, 'expires_at', expires_at)
                                    ORDER BY expires_at, id), '[]') FROM ended) AS ended,
                   (SELECT coalesce(json_agg(json_build_object('id', id, 'pool_seats', CASE WHEN kind = 'pool' THEN party_size ELSE 0 END)), '[]')
                      FROM released) AS released,
                   ${announced ? `(SELECT coalesce(json_agg(parties), '[]') FROM parties)` : `'[]'::json`} AS parties,
                   ${
                     // The statement's snapshot still shows the offers it ends as live: they are left out.
                     ending === 'expired'
                       ? `'[]'::json`
                       : `(SELECT coalesce(json_agg(e.id), '[]') FROM ended e
                            WHERE NOT EXISTS (SELECT 1 FROM offers o
                                               WHERE o.venue_id = (SELECT x.venue_id FROM offers x WHERE x.id = e.id)
                                                 AND o.state = 'live' AND o.expires_at >= e.expires_at
                                                 AND o.id NOT IN (SELECT id FROM ended)))`
                   } AS unchained`,
      params: [],
    });
    if (!found || found.ended.length === 0) return { ids: [], returnedFromEarlierDate: false };
    const ended: EndedOffer[] = found.ended.map((r) => ({ id: r.id, entryId: r.entry_id, reservationId: r.reservation_id }));
    if (ending === 'expired' && !venue.sandbox) {
      // How late each hold was released: `now` is the sweep's clock (its `resolved_at` is the deadline).
      const lags = found.ended.map((r) => (now.getTime() - Date.parse(r.expires_at)) / 1000);
      tx.afterCommit(() => lags.forEach((lag) => this.metrics.holdExpiryLag.observe(Math.max(0, lag))));
    }
    const released = new Map(found.released.map((r) => [r.id, r.pool_seats]));
    const parties: EntryParty[] = found.parties.map((p) => ({
      id: p.id,
      name: p.name,
      email: p.email,
      phone: p.phone,
      businessDate: p.business_date,
    }));
    // The pool counters follow the reservations in the database (a trigger, checked there); the venue
    // read under the lock follows them here, as the trigger does: released held seats are free again.
    venue.poolHeld -= [...released.values()].reduce((sum, seats) => sum + seats, 0);
    // A lapse happened at the hold's deadline, whenever a sweep got to it (a late job, a worker
    // down, a sandbox clock moved past it): the history records the change at that time, as the
    // workshop ledger does (an expiry is listed at its deadline), not at the sweep's. Never later
    // than `now`.
    const lapsedAt = new Map(found.ended.map((r) => [r.id, new Date(Math.min(Date.parse(r.expires_at), now.getTime()))]));
    const unchained = new Set(found.unchained);
    const changes: HistoryChange[] = [];
    for (const o of ended) {
      // A lapse is the clock's doing, whichever request swept it (a host's offer, a party's accept):
      // the history says `system`, as for a business day's close, not "the host expired it".
      const actor = ending === 'expired' ? 'system' : undefined;
      const at = ending === 'expired' ? (lapsedAt.get(o.id) ?? now) : now;
      const base = { venueId: venue.id, at, operationId: operationId(o.id), reason, actor };
      changes.push({ ...base, subjectType: 'offer', subjectId: o.id, from: 'live', to: ending });
      if (released.has(o.reservationId))
        changes.push({ ...base, subjectType: 'reservation', subjectId: o.reservationId, from: 'HELD', to: reservationTo });
      changes.push({ ...base, subjectType: 'entry', subjectId: o.entryId, from: 'offered', to: entryTo });
      // Its job is removed unless a later hold of the venue is live: the job may be theirs (an offer
      // made while this one was live added none; OfferExpiryScheduler).
      // (A pool's promotions each have their own job: nothing hangs on one there.)
      if (ending !== 'expired' && (unchained.has(o.id) || !announced)) this.expiryJobs.afterCommit(tx, venue, { cancel: o.id });
    }
    const placeKept = entryTo === 'waiting';
    // A party back to waiting from a date before the venue-local one may belong to a day that has
    // ended (the running business date is never later than the local one): its message must not
    // promise a place, and the sweep closes it.
    const localDate = placeKept && parties.length > 0 ? this.clock.localDate(venue, now) : undefined;
    const returnedFromEarlierDate = localDate !== undefined && parties.some((p) => p.businessDate < localDate);
    const messages = await this.announcements(m, venue, ended, parties, ending, placeKept, returnedFromEarlierDate, now, by);
    await this.board.appendAll(
      tx,
      venue.id,
      ended.map((o) => ({
        type: `offer.${ending}`,
        data: { offerId: o.id, entryId: o.entryId, reservationId: o.reservationId, entryStatus: entryTo, ...(by ? { by } : {}) },
      })),
      now,
      [this.history.rows(...changes), messages],
    );
    return { ids: ended.map((o) => o.id), returnedFromEarlierDate };
  }

  /**
   * One message to the party per ended offer (this runs only for offers the guarded end changed,
   * so never twice): withdrawn, lapsed, left (the party itself), or removed (staff cancelled it:
   * the party did not choose to leave, and hears that the host removed it).
   */
  private async announcements(
    m: EntityManager,
    venue: Venue,
    ended: EndedOffer[],
    parties: EntryParty[],
    ending: OfferEnding,
    placeKept: boolean,
    returnedFromEarlierDate: boolean,
    now: Date,
    by?: 'party' | 'staff',
  ): Promise<PendingInsert> {
    const byId = new Map(parties.map((p) => [p.id, p]));
    const kind: Announcement =
      ending === 'expired'
        ? 'offer-lapsed'
        : ending === 'withdrawn'
          ? 'offer-withdrawn'
          : by === 'party'
            ? 'queue-left'
            : 'queue-removed';
    // An offer that ends after its business day did returns the party to a queue that closes in the
    // same sweep (no place is kept past the day), so the message must not promise one.
    const today = returnedFromEarlierDate ? await this.days.currentBusinessDate(m, venue, now) : null;
    const list: AnnouncementTo[] = [];
    for (const offer of ended) {
      const party = byId.get(offer.entryId);
      if (!party) continue;
      const kept = placeKept && !(today !== null && party.businessDate < today);
      list.push({
        venue,
        party,
        kind,
        placeKept: kept,
        at: now,
        reservationId: offer.reservationId,
        ...(kind === 'queue-removed' && { table: 'offered' as const }),
      });
    }
    return this.guest.announcementRows(list);
  }
}

/**
 * Where an ending sends the hold and the party. The policy decides where the party goes when an offer
 * lapses or is withdrawn: back to waiting with its original place (received time and sequence
 * untouched), or out of the active queue.
 */
function endingTargets(venue: Venue, ending: OfferEnding): { reservationTo: 'EXPIRED' | 'CANCELLED'; entryTo: EntryStatus } {
  return {
    reservationTo: ending === 'expired' ? 'EXPIRED' : 'CANCELLED',
    entryTo: ending === 'cancelled' ? 'cancelled' : venue.onOfferExpired === 'keep-place' ? 'waiting' : 'expired',
  };
}
