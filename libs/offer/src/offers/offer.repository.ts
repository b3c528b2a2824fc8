import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  entitiesRead,
  entityRead,
  insertEntities,
  jsonRows,
  preparedQuery,
  type ChainedStep,
  type PendingInsert,
  type ScalarRead,
  type TogetherStatement,
  returningRows,
  selectEntity,
} from '@hostboard/core';
import { Reservation } from '@hostboard/allocator';
import { QueueEntry } from '@hostboard/queue';
import { Offer, type OfferState } from './offer.entity.js';

/** What ending an offer needs to know of it: what hangs on it. */
export type EndedOffer = Pick<Offer, 'id' | 'entryId' | 'reservationId'>;

@Injectable()
export class OfferRepository {
  async insert(tx: EntityManager, offer: Offer): Promise<void> {
    await insertEntities(tx, Offer, [offer]);
  }

  /** The row `insert` writes, for a command that writes it with its other rows in one statement. */
  insertRow(offer: Offer): PendingInsert<Offer> {
    return { target: Offer, rows: [offer] };
  }

  /** `find` as a part of a combined read (readTogether). */
  findRead(tx: EntityManager, venueId: string, id: string): ScalarRead<Offer | null> {
    return entityRead(tx, Offer, 'venue_id = $1 AND id = $2', [venueId, id]);
  }

  /** As a part of a combined read: the reservation offer `id` holds (read with the offer, before its id is known). */
  reservationRead(tx: EntityManager, venueId: string, id: string): ScalarRead<Reservation | null> {
    return entityRead(
      tx,
      Reservation,
      'venue_id = $1 AND id = (SELECT reservation_id FROM offers WHERE id = $2 AND venue_id = $1)',
      [venueId, id],
    );
  }

  /** As a part of a combined read: the queue entry offer `id` was made to (read with the offer, before its id is known). */
  entryRead(tx: EntityManager, venueId: string, id: string): ScalarRead<QueueEntry | null> {
    return entityRead(tx, QueueEntry, 'venue_id = $1 AND id = (SELECT entry_id FROM offers WHERE id = $2 AND venue_id = $1)', [
      venueId,
      id,
    ]);
  }

  /** As a part of a combined read: the reservation held by entry `entryId`'s live offer, if it has one. */
  liveReservationForEntryRead(tx: EntityManager, venueId: string, entryId: string): ScalarRead<Reservation | null> {
    return entityRead(
      tx,
      Reservation,
      "venue_id = $1 AND id = (SELECT reservation_id FROM offers WHERE venue_id = $1 AND entry_id = $2 AND state = 'live')",
      [venueId, entryId],
    );
  }

  /** As a part of a combined read: the reservation (the booking) of entry `entryId`'s accepted offer, if it has one. */
  acceptedReservationForEntryRead(tx: EntityManager, venueId: string, entryId: string): ScalarRead<Reservation | null> {
    return entityRead(
      tx,
      Reservation,
      "venue_id = $1 AND id IN (SELECT reservation_id FROM offers WHERE venue_id = $1 AND entry_id = $2 AND state = 'accepted')",
      [venueId, entryId],
    );
  }

  /**
   * As a part of a combined read: the tables of the bookings `entryId` accepted (their reservations',
   * moves included), by reservation, in table id order. One, unless a hand repair left two.
   */
  acceptedTablesForEntryRead(venueId: string, entryId: string): ScalarRead<Map<string, string[]>> {
    return {
      sql: `SELECT json_agg(json_build_object('r', rt.reservation_id, 't', rt.table_id) ORDER BY rt.table_id)
              FROM reservation_tables rt
             WHERE rt.reservation_id IN (SELECT reservation_id FROM offers WHERE venue_id = $1 AND entry_id = $2 AND state = 'accepted')`,
      params: [venueId, entryId],
      parse: tablesByReservation,
    };
  }

  /** As a part of a combined read: the tables of the reservation offer `id` holds, in id order. */
  tableIdsRead(id: string): ScalarRead<string[]> {
    return {
      sql: `SELECT json_agg(table_id ORDER BY table_id) FROM reservation_tables
             WHERE reservation_id = (SELECT reservation_id FROM offers WHERE id = $1)`,
      params: [id],
      parse: (value) => jsonRows<string>(value),
    };
  }

  async find(tx: EntityManager, venueId: string, id: string): Promise<Offer | null> {
    return selectEntity(tx, Offer, 'venue_id = $1 AND id = $2', [venueId, id]);
  }

  liveForEntry(tx: EntityManager, entryId: string): Promise<Offer | null> {
    return tx.findOneBy(Offer, { entryId, state: 'live' });
  }

  /** `liveForEntry` as a part of a combined read (readTogether). */
  liveForEntryRead(tx: EntityManager, venueId: string, entryId: string): ScalarRead<Offer | null> {
    return entityRead(tx, Offer, "venue_id = $1 AND entry_id = $2 AND state = 'live'", [venueId, entryId]);
  }

  /** The offer an entry accepted, if it did (an entry is confirmed once, so there is at most one). */
  acceptedForEntry(tx: EntityManager, entryId: string): Promise<Offer | null> {
    return tx.findOneBy(Offer, { entryId, state: 'accepted' });
  }

  /** `acceptedForEntry` as a part of a combined read (readTogether). */
  acceptedForEntryRead(tx: EntityManager, venueId: string, entryId: string): ScalarRead<Offer | null> {
    return entityRead(tx, Offer, "venue_id = $1 AND entry_id = $2 AND state = 'accepted'", [venueId, entryId]);
  }

  /** `live` as a part of a combined read (readTogether), in the same order. */
  liveRead(tx: EntityManager, venueId: string): ScalarRead<Offer[]> {
    return entitiesRead(tx, Offer, "venue_id = $1 AND state = 'live'", [venueId], 'x.expires_at, x.id');
  }

  /** As a part of a combined read: the tables of every live offer's reservation, by reservation, in table id order. */
  liveTablesRead(venueId: string): ScalarRead<Map<string, string[]>> {
    return {
      sql: `SELECT json_agg(json_build_object('r', rt.reservation_id, 't', rt.table_id) ORDER BY rt.table_id)
              FROM reservation_tables rt
             WHERE rt.reservation_id IN (SELECT reservation_id FROM offers WHERE venue_id = $1 AND state = 'live')`,
      params: [venueId],
      parse: tablesByReservation,
    };
  }

  live(tx: EntityManager, venueId: string): Promise<Offer[]> {
    return tx.find(Offer, { where: { venueId, state: 'live' }, order: { expiresAt: 'ASC' } });
  }

  /**
   * Whether any live offer of the venue is due, by the venue's own clock (the simulated one of a
   * sandbox, else `wallNow`): a part of the sweep's one lock-free question. The earliest deadline is
   * one probe of `offers_live_expiry_idx` whatever the statistics say; a deadline compared with a
   * value the planner cannot see left it free to scan every live offer instead.
   */
  anyDueRead(venueId: string, wallNow: Date): ScalarRead<boolean> {
    return {
      sql: `SELECT coalesce(
         (SELECT min(o.expires_at) FROM offers o WHERE o.venue_id = $1 AND o.state = 'live')
           <= (SELECT CASE WHEN v.sandbox THEN v.clock_now ELSE $2::timestamptz END FROM venues v WHERE v.id = $1),
         false)`,
      params: [venueId, wallNow],
      parse: (value) => value === true,
    };
  }

  /**
   * The earliest deadline of the venue's live offers (null when none is live), as a part of a combined
   * read: a decision that reads it after the venue lock compares it with its own now (`isDue`), so it
   * knows exactly whether a hold has lapsed at the instant it decides. The same index probe as `anyDueRead`.
   */
  earliestDeadlineRead(venueId: string): ScalarRead<Date | null> {
    return {
      sql: `SELECT min(o.expires_at) FROM offers o WHERE o.venue_id = $1 AND o.state = 'live'`,
      params: [venueId],
      parse: (value) =>
        value === null || value === undefined ? null : value instanceof Date ? value : new Date(value as string),
    };
  }

  /**
   * As a part of a combined read: whether another live offer of the venue is due no earlier than offer
   * `id`. Its expiry job may be theirs (an offer made while an earlier hold is live adds none: the
   * earlier one's run schedules the next), so ending offer `id` leaves its job (OfferExpiryScheduler).
   */
  laterLiveRead(venueId: string, id: string): ScalarRead<boolean> {
    return {
      sql: `SELECT EXISTS (SELECT 1 FROM offers o WHERE o.venue_id = $1 AND o.state = 'live' AND o.id <> $2
                       AND o.expires_at >= (SELECT expires_at FROM offers WHERE id = $2))`,
      params: [venueId, id],
      parse: (value) => value === true,
    };
  }

  /** As a part of a combined read: the live offer that holds reservation `reservationId`, if one does. */
  liveForReservationRead(tx: EntityManager, venueId: string, reservationId: string): ScalarRead<Offer | null> {
    return entityRead(tx, Offer, "venue_id = $1 AND reservation_id = $2 AND state = 'live'", [venueId, reservationId]);
  }

  /** `laterLiveForEntryRead` for the live offer that holds reservation `reservationId` (its entry not yet known). */
  laterLiveForReservationRead(venueId: string, reservationId: string): ScalarRead<boolean> {
    return {
      sql: `SELECT EXISTS (SELECT 1 FROM offers o, (SELECT entry_id, expires_at FROM offers
                                                     WHERE venue_id = $1 AND reservation_id = $2 AND state = 'live' LIMIT 1) h
                       WHERE o.venue_id = $1 AND o.state = 'live' AND o.entry_id <> h.entry_id AND o.expires_at >= h.expires_at)`,
      params: [venueId, reservationId],
      parse: (value) => value === true,
    };
  }

  /** `laterLiveRead` for the live offer entry `entryId` holds (false when it holds none). */
  laterLiveForEntryRead(venueId: string, entryId: string): ScalarRead<boolean> {
    return {
      sql: `SELECT EXISTS (SELECT 1 FROM offers o WHERE o.venue_id = $1 AND o.state = 'live' AND o.entry_id <> $2
                       AND o.expires_at >= (SELECT expires_at FROM offers
                                             WHERE venue_id = $1 AND entry_id = $2 AND state = 'live' LIMIT 1))`,
      params: [venueId, entryId],
      parse: (value) => value === true,
    };
  }

  /** Ends a live offer; false when it was no longer live (a repeat changes nothing). */
  async end(tx: EntityManager, id: string, to: OfferState, at: Date): Promise<boolean> {
    const { sql, params } = this.endStatement(id, to, at);
    return returningRows<{ id: string }>(await preparedQuery(tx, sql, params)).length > 0;
  }

  /** `end` to travel with a command's new rows (insertTogether), when the caller read the offer live under the lock. */
  endStatement(id: string, to: OfferState, at: Date): TogetherStatement {
    return {
      sql: "UPDATE offers SET state = $2, resolved_at = $3 WHERE id = $1 AND state = 'live' RETURNING id",
      params: [id, to, at],
    };
  }

  /**
   * Ends the live offers picked (by id, or the first `limit` whose deadline has come at `dueAt`:
   * `expires_at <= dueAt`, since acceptance is valid strictly before it), guarded by the state (an
   * offer no longer live is left alone, so a repeat changes nothing): a step of the one statement that ends them with what hangs on
   * them (OfferLifecycle). Its RETURNING, under the step's name: id, entry_id, reservation_id, expires_at.
   * An expired offer's `resolved_at` is its deadline, not `at`: the hold ended then, whenever a sweep
   * got to it (a late job, a worker or Redis down, a sandbox clock moved past it), as its history
   * says; never later than `at`. Any other ending is the act's own time.
   */
  endLiveStep(venueId: string, which: { ids: string[] } | { dueAt: Date; limit: number }, to: OfferState, at: Date): ChainedStep {
    const picked =
      'ids' in which
        ? 'venue_id = $1 AND id = ANY($2::uuid[])'
        : `id IN (SELECT id FROM offers WHERE venue_id = $1 AND state = 'live' AND expires_at <= $2
                  ORDER BY expires_at, id LIMIT $5)`;
    return {
      name: 'ended',
      sql: `UPDATE offers SET state = $3, resolved_at = ${to === 'expired' ? 'least(expires_at, $4)' : '$4'}
             WHERE ${picked} AND state = 'live'
         RETURNING id, entry_id, reservation_id, expires_at`,
      params: 'ids' in which ? [venueId, which.ids, to, at] : [venueId, which.dueAt, to, at, which.limit],
    };
  }
}

/** `json_agg(json_build_object('r', reservation_id, 't', table_id) ORDER BY table_id)` as tables by reservation. */
function tablesByReservation(value: unknown): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const { r, t } of jsonRows<{ r: string; t: string }>(value)) map.set(r, [...(map.get(r) ?? []), t]);
  return map;
}
