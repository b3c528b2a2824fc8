import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  entityRead,
  insertEntities,
  jsonRows,
  preparedQuery,
  readTogether,
  returningRows,
  selectEntities,
  selectEntity,
  type ChainedStep,
  type PendingInsert,
  type ScalarRead,
  type TogetherStatement,
} from '@hostboard/core';
import { ACTIVE_STATUSES, QueueEntry, type EntryStatus } from './queue-entry.entity.js';

@Injectable()
export class QueueEntryRepository {
  async insert(tx: EntityManager, entry: QueueEntry): Promise<void> {
    await insertEntities(tx, QueueEntry, [entry]);
  }

  /** `find` as a part of a combined read (readTogether). */
  findRead(tx: EntityManager, venueId: string, id: string): ScalarRead<QueueEntry | null> {
    return entityRead(tx, QueueEntry, 'venue_id = $1 AND id = $2', [venueId, id]);
  }

  /** As a part of a combined read: the id of the head of a strict queue on the day of entry `entryId`. */
  headOfEntryDayRead(venueId: string, entryId: string): ScalarRead<string | null> {
    return {
      sql: `SELECT h.id FROM queue_entries h
             WHERE h.venue_id = $1 AND h.status = 'waiting'
               AND h.business_date = (SELECT e.business_date FROM queue_entries e WHERE e.id = $2 AND e.venue_id = $1)
             ORDER BY h.received_at, h.queue_sequence LIMIT 1`,
      params: [venueId, entryId],
      parse: (value) => (typeof value === 'string' ? value : null),
    };
  }

  async find(tx: EntityManager, venueId: string, id: string): Promise<QueueEntry | null> {
    return selectEntity(tx, QueueEntry, 'venue_id = $1 AND id = $2', [venueId, id]);
  }

  /** Active entries (waiting or holding an offer) in waiting order: (received time, sequence). */
  active(tx: EntityManager, venueId: string): Promise<QueueEntry[]> {
    return tx
      .createQueryBuilder(QueueEntry, 'e')
      .where('e.venue_id = :venueId AND e.status IN (:...statuses)', { venueId, statuses: ACTIVE_STATUSES })
      .orderBy('e.received_at', 'ASC')
      .addOrderBy('e.queue_sequence', 'ASC')
      .getMany();
  }

  /**
   * How many entries are active (optionally of one business date, optionally only parties of at
   * most `maxSize`): a count over the active-order index, so a join costs the same with 10 or
   * 10,000 people waiting.
   */
  async countActive(
    tx: EntityManager,
    venueId: string,
    filter: { businessDate?: string; maxSize?: number | null } = {},
  ): Promise<number> {
    return (await readTogether(tx, { n: this.countActiveRead(venueId, filter) })).n;
  }

  /** `countActive` as a part of a combined read (readTogether). */
  countActiveRead(venueId: string, filter: { businessDate?: string; maxSize?: number | null } = {}): ScalarRead<number> {
    const params: unknown[] = [venueId, ACTIVE_STATUSES];
    let sql = 'SELECT count(*)::int FROM queue_entries WHERE venue_id = $1 AND status = ANY($2::text[])';
    if (filter.businessDate !== undefined) sql += ` AND business_date = $${params.push(filter.businessDate)}`;
    if (filter.maxSize !== undefined && filter.maxSize !== null) sql += ` AND party_size <= $${params.push(filter.maxSize)}`;
    return { sql, params, parse: (value) => Number(value ?? 0) };
  }

  /**
   * The id of the earliest active entry of this business date reached by either channel of the
   * contact (as `activeWithContact`), as a part of a combined read; null when there is none.
   */
  activeWithContactRead(
    venueId: string,
    businessDate: string,
    contact: { email: string | null; phone: string | null },
  ): ScalarRead<string | null> {
    return {
      sql: `SELECT id FROM queue_entries
             WHERE venue_id = $1 AND business_date = $2 AND status = ANY($3::text[])
               AND ((email = $4 AND $4 IS NOT NULL) OR (phone = $5 AND $5 IS NOT NULL))
             ORDER BY received_at, queue_sequence LIMIT 1`,
      params: [venueId, businessDate, ACTIVE_STATUSES, contact.email, contact.phone],
      parse: (value) => (typeof value === 'string' ? value : null),
    };
  }

  /**
   * The earliest business date (YYYY-MM-DD) of a waiting entry of the venue, null when none waits, as
   * a part of a combined read sent before the venue is known (with its lock): whether a business day
   * has ended for a waiting party, its date compared once the venue's now is known. One probe of
   * `queue_entries_waiting_date_idx`.
   */
  earliestWaitingDateRead(venueId: string): ScalarRead<string | null> {
    return {
      sql: `SELECT min(business_date)::text FROM queue_entries WHERE venue_id = $1 AND status = 'waiting'`,
      params: [venueId],
      parse: (value) => (typeof value === 'string' ? value : null),
    };
  }

  /**
   * Whether any entry still waits from a business date before the venue-local date, worked out in the
   * statement: the date (IANA zone) of the venue's own now (a sandbox's simulated clock, else
   * `wallNow`); table venues only. One probe of `queue_entries_waiting_date_idx`.
   */
  anyWaitingBeforeLocalDateRead(venueId: string, wallNow: Date): ScalarRead<boolean> {
    return {
      sql: `SELECT coalesce(
              (SELECT min(e.business_date) FROM queue_entries e WHERE e.venue_id = $1 AND e.status = 'waiting')
                < (SELECT timezone(v.time_zone, CASE WHEN v.sandbox AND v.clock_now IS NOT NULL THEN v.clock_now ELSE $2::timestamptz END)::date
                     FROM venues v WHERE v.id = $1 AND v.seating = 'tables'),
              false)`,
      params: [venueId, wallNow],
      parse: (value) => value === true,
    };
  }

  /** The row `insert` writes, for a join that writes it together with its other rows. */
  insertRow(entry: QueueEntry): PendingInsert<QueueEntry> {
    return { target: QueueEntry, rows: [entry] };
  }

  /** Active entries of one business date, in waiting order. */
  activeOfDay(tx: EntityManager, venueId: string, businessDate: string): Promise<QueueEntry[]> {
    return tx
      .createQueryBuilder(QueueEntry, 'e')
      .where('e.venue_id = :venueId AND e.business_date = :businessDate AND e.status IN (:...statuses)', {
        venueId,
        businessDate,
        statuses: ACTIVE_STATUSES,
      })
      .orderBy('e.received_at', 'ASC')
      .addOrderBy('e.queue_sequence', 'ASC')
      .getMany();
  }

  /**
   * The earliest active entry of this business date reached by either channel of the contact (the same
   * email, or the same phone), other than `exceptId`: the one-entry rule compares people, not just the
   * one key the unique index holds.
   */
  activeWithContact(
    tx: EntityManager,
    venueId: string,
    businessDate: string,
    contact: { email: string | null; phone: string | null },
    exceptId?: string,
  ): Promise<QueueEntry | null> {
    const channels: string[] = [];
    if (contact.email) channels.push('e.email = :email');
    if (contact.phone) channels.push('e.phone = :phone');
    if (channels.length === 0) return Promise.resolve(null);
    const q = tx
      .createQueryBuilder(QueueEntry, 'e')
      .where('e.venue_id = :venueId AND e.business_date = :businessDate', { venueId, businessDate })
      .andWhere('e.status IN (:...statuses)', { statuses: ACTIVE_STATUSES })
      .andWhere(`(${channels.join(' OR ')})`, { email: contact.email, phone: contact.phone })
      .orderBy('e.received_at', 'ASC')
      .addOrderBy('e.queue_sequence', 'ASC')
      .limit(1);
    if (exceptId) q.andWhere('e.id <> :exceptId', { exceptId });
    return q.getOne();
  }

  /** Corrects a party's details in place, bumping the version; the place (received time, sequence) is untouched. */
  async correct(
    tx: EntityManager,
    id: string,
    changes: Pick<QueueEntry, 'name' | 'partySize' | 'email' | 'phone' | 'contactKey'>,
  ): Promise<void> {
    await tx
      .createQueryBuilder()
      .update(QueueEntry)
      .set({ ...changes, version: () => 'version + 1' })
      .where('id = :id', { id })
      .execute();
  }

  /** The first `limit` active entries in waiting order (the board shows the head of a long queue). */
  activeHead(tx: EntityManager, venueId: string, limit: number): Promise<QueueEntry[]> {
    // Plain SQL (a prepared statement in a transaction): the board reads up to `limit` rows on every load.
    return selectEntities(
      tx,
      QueueEntry,
      'venue_id = $1 AND status = ANY($2::text[]) ORDER BY received_at, queue_sequence LIMIT $3',
      [venueId, ACTIVE_STATUSES, limit],
    );
  }

  /** `oldestWaiting` (without a size) as a part of a combined read: the head of a pool queue. */
  oldestWaitingRead(tx: EntityManager, venueId: string): ScalarRead<QueueEntry | null> {
    return entityRead(tx, QueueEntry, "venue_id = $1 AND status = 'waiting' ORDER BY received_at, queue_sequence", [venueId]);
  }

  /** How many of the venue's entries hold an offer now (a pool's groups holding seats). */
  async countOffered(tx: EntityManager, venueId: string): Promise<number> {
    const [row] = await preparedQuery<{ n: number }>(
      tx,
      "SELECT count(*)::int AS n FROM queue_entries WHERE venue_id = $1 AND status = 'offered'",
      [venueId],
    );
    return row?.n ?? 0;
  }

  /** The oldest waiting entry, or the oldest whose party fits `maxSize` (first-fit policies). */
  oldestWaiting(tx: EntityManager, venueId: string, maxSize?: number): Promise<QueueEntry | null> {
    const q = tx
      .createQueryBuilder(QueueEntry, 'e')
      .where("e.venue_id = :venueId AND e.status = 'waiting'", { venueId })
      .orderBy('e.received_at', 'ASC')
      .addOrderBy('e.queue_sequence', 'ASC')
      .limit(1);
    if (maxSize !== undefined) q.andWhere('e.party_size <= :maxSize', { maxSize });
    return q.getOne();
  }

  /**
   * Ends the waiting entries of business dates before `date` (their day is over): status `expired`,
   * version bumped. Guarded by the status, so a repeat closes nothing. Answers what it closed.
   */
  async closeWaitingBefore(
    tx: EntityManager,
    venueId: string,
    date: string,
  ): Promise<Array<{ id: string; businessDate: string }>> {
    const rows = returningRows<{ id: string; business_date: string | Date }>(
      await tx.query(
        `UPDATE queue_entries SET status = 'expired', version = version + 1
          WHERE venue_id = $1 AND status = 'waiting' AND business_date < $2
          RETURNING id, business_date::text AS business_date`,
        [venueId, date],
      ),
    );
    return rows.map((r) => ({ id: r.id, businessDate: String(r.business_date) }));
  }

  /**
   * The history reason of the entry's last move to `expired` (its business day's close, or an offer
   * that ended its place), or null: the party's page says which ended it.
   */
  /** `expiredReason` as a part of a combined read (readTogether). */
  expiredReasonRead(venueId: string, entryId: string): ScalarRead<string | null> {
    return {
      sql: `SELECT reason FROM history
             WHERE subject_id = $1 AND venue_id = $2 AND subject_type = 'entry' AND to_state = 'expired'
             ORDER BY at DESC, id DESC LIMIT 1`,
      params: [entryId, venueId],
      parse: (value) => (typeof value === 'string' ? value : null),
    };
  }

  /**
   * The active entries up to entry `entryId` in waiting order (its id and party size each), the entry
   * itself last when it is active: of its business date at a table venue, of the whole queue at a
   * pool venue. A part of a combined read that reads the venue and the entry too, so both are found
   * in the statement; what a party's place is counted from (QuoteService.positionIn).
   */
  lineToRead(venueId: string, entryId: string): ScalarRead<Array<{ id: string; partySize: number }>> {
    return {
      sql: `SELECT json_agg(json_build_object('id', e.id, 'partySize', e.party_size) ORDER BY e.received_at, e.queue_sequence)
              FROM queue_entries me
              JOIN venues v ON v.id = me.venue_id
              JOIN queue_entries e ON e.venue_id = me.venue_id AND e.status = ANY($3::text[])
               AND (v.seating = 'pool' OR e.business_date = me.business_date)
               AND (e.received_at, e.queue_sequence) <= (me.received_at, me.queue_sequence)
             WHERE me.venue_id = $1 AND me.id = $2`,
      params: [venueId, entryId, ACTIVE_STATUSES],
      parse: (value) =>
        jsonRows<{ id: string; partySize: number }>(value).map((e) => ({ id: e.id, partySize: Number(e.partySize) })),
    };
  }

  async expiredReason(tx: EntityManager, venueId: string, entryId: string): Promise<string | null> {
    const rows: Array<{ reason: string | null }> = await tx.query(
      `SELECT reason FROM history
        WHERE subject_id = $1 AND venue_id = $2 AND subject_type = 'entry' AND to_state = 'expired'
        ORDER BY at DESC, id DESC LIMIT 1`,
      [entryId, venueId],
    );
    return rows[0]?.reason ?? null;
  }

  /** The oldest waiting entry of one business date: the head of a strict queue. */
  oldestWaitingOfDay(tx: EntityManager, venueId: string, businessDate: string): Promise<QueueEntry | null> {
    return tx
      .createQueryBuilder(QueueEntry, 'e')
      .where("e.venue_id = :venueId AND e.status = 'waiting' AND e.business_date = :businessDate", { venueId, businessDate })
      .orderBy('e.received_at', 'ASC')
      .addOrderBy('e.queue_sequence', 'ASC')
      .limit(1)
      .getOne();
  }

  /**
   * Moves an entry from one of `from` to `to`, bumping its version. Guarded by the current state:
   * answers false (and changes nothing) when the entry is no longer in `from`.
   */
  async transition(tx: EntityManager, id: string, from: EntryStatus[], to: EntryStatus): Promise<boolean> {
    const { sql, params } = this.transitionStatement(id, from, to);
    const rows = await preparedQuery<{ id: string }>(tx, sql, params);
    return rows.length > 0;
  }

  /**
   * The queue entry a reservation came from (null when it came from none), as a part of a combined
   * read: read under the venue lock, its status tells a command whether `transitionStatement` applies.
   */
  ofReservationRead(tx: EntityManager, venueId: string, reservationId: string): ScalarRead<QueueEntry | null> {
    return entityRead(
      tx,
      QueueEntry,
      'venue_id = $1 AND id = (SELECT r.entry_id FROM reservations r WHERE r.id = $2 AND r.venue_id = $1)',
      [venueId, reservationId],
    );
  }

  /** `transition` to travel with a command's new rows (insertTogether), when the caller knows it applies. */
  transitionStatement(id: string, from: EntryStatus[], to: EntryStatus): TogetherStatement {
    return {
      sql: 'UPDATE queue_entries SET status = $2, version = version + 1 WHERE id = $1 AND status = ANY($3::text[]) RETURNING id',
      params: [id, to, from],
    };
  }

  /**
   * `transition` for the entries of the offers a previous step of the same statement ended (`source`,
   * a step whose RETURNING has entry_id), bumping their versions; one no longer in `from` is left alone.
   */
  moveStep(source: string, venueId: string, from: EntryStatus[], to: EntryStatus): ChainedStep {
    return {
      name: 'moved',
      sql: `UPDATE queue_entries SET status = $2, version = version + 1
             WHERE venue_id = $1 AND id = ANY(ARRAY(SELECT entry_id FROM ${source})) AND status = ANY($3::text[])
         RETURNING id`,
      params: [venueId, to, from],
    };
  }

  /**
   * What a guest message needs of the entries of `source`'s offers (a step whose RETURNING has
   * entry_id), moved or not: read as they were before the statement, and none of these fields
   * changes with a move. Under the step's name: id, name, email, phone, business_date (text).
   */
  partiesStep(source: string, venueId: string): ChainedStep {
    return {
      name: 'parties',
      sql: `SELECT id, name, email, phone, business_date::text AS business_date FROM queue_entries
             WHERE venue_id = $1 AND id = ANY(ARRAY(SELECT entry_id FROM ${source}))`,
      params: [venueId],
    };
  }
}

/** What a guest message about an entry needs: the party, its contacts and its business date. */
export type EntryParty = Pick<QueueEntry, 'id' | 'name' | 'email' | 'phone' | 'businessDate'>;
