import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { BUSINESS_DAY_ENDED } from '../day-close/business-day.closer.js';

/** One business date's figures as counted in the database; `businessDate` null is the whole range. */
export interface DayFiguresRow {
  businessDate: string | null;
  joined: number;
  people: number;
  seated: number;
  peopleSeated: number;
  noShow: number;
  left: number;
  removed: number;
  offerEnded: number;
  dayClosed: number;
  stillWaiting: number;
  toSeat: number;
  offersMade: number;
  offersAccepted: number;
  offersExpired: number;
  offersWithdrawn: number;
  offersCancelled: number;
  waitCount: number;
  waitMedianMinutes: number | null;
  waitP90Minutes: number | null;
  waitLongestMinutes: number | null;
}

/**
 * Each entry's final outcome, from its status and the history row that moved it into that status:
 * - seated;
 * - still waiting: waiting or offered when read (a day not closed yet);
 * - to be seated: confirmed when read, its table kept for it (the board's To be seated);
 * - day closed: expired with the day close's reason; any other expiry is an offer that ran out or
 *   was withdrawn with the place not kept;
 * - cancelled by the party itself (history actor `party:…`, its token's session): left;
 * - cancelled by staff while holding or having confirmed a table, through the reservation's cancel
 *   (the board's No-show), or from confirmed however it was done: a no-show;
 * - any other staff cancellation: removed by the host.
 * The CASE has an ELSE for each status, so every entry falls in exactly one outcome.
 */
const OUTCOME = `
  CASE
    WHEN e.status = 'seated' THEN 'seated'
    WHEN e.status IN ('waiting', 'offered') THEN 'stillWaiting'
    WHEN e.status = 'confirmed' THEN 'toSeat'
    WHEN e.status = 'expired' AND last.reason = $4 THEN 'dayClosed'
    WHEN e.status = 'expired' THEN 'offerEnded'
    WHEN last.actor LIKE 'party:%' THEN 'left'
    WHEN last.from_state = 'confirmed' OR (last.from_state = 'offered' AND last.operation_id LIKE 'cancel-reservation-%') THEN 'noShow'
    ELSE 'removed'
  END`;

@Injectable()
export class DayReportRepository {
  /**
   * The figures of each business date of `from`..`to` (inclusive) with at least one entry, and of the
   * whole range (the grouping set's total row), in one read. Offers are counted by the business date
   * of the entry they were made to; the wait is from join to the first visit of the entry's table.
   */
  async dayFigures(tx: EntityManager, venueId: string, from: string, to: string): Promise<DayFiguresRow[]> {
    const rows: Array<Record<string, string | number | null>> = await tx.query(
      `WITH per_entry AS (
         SELECT e.business_date, e.party_size, ${OUTCOME} AS outcome,
                o.made, o.accepted, o.expired, o.withdrawn, o.cancelled,
                extract(epoch FROM (s.seated_at - e.received_at)) / 60 AS wait_minutes
           FROM queue_entries e
           LEFT JOIN LATERAL (
             SELECT h.from_state, h.reason, h.actor, h.operation_id
               FROM history h
              WHERE h.subject_id = e.id AND h.subject_type = 'entry'
                -- The row that moved the entry into its status: a token replaced or a contact
                -- corrected writes a row that keeps the status, and must not hide who ended it.
                AND h.to_state = e.status AND h.from_state IS DISTINCT FROM h.to_state
              ORDER BY h.at DESC, h.id DESC
              LIMIT 1) last ON true
           LEFT JOIN LATERAL (
             SELECT count(*) AS made,
                    count(*) FILTER (WHERE state = 'accepted') AS accepted,
                    count(*) FILTER (WHERE state = 'expired') AS expired,
                    count(*) FILTER (WHERE state = 'withdrawn') AS withdrawn,
                    count(*) FILTER (WHERE state = 'cancelled') AS cancelled
               FROM offers WHERE entry_id = e.id) o ON true
           LEFT JOIN LATERAL (
             SELECT min(v.opened_at) AS seated_at
               FROM reservations r JOIN visits v ON v.reservation_id = r.id
              WHERE r.entry_id = e.id) s ON e.status = 'seated'
          WHERE e.venue_id = $1 AND e.business_date BETWEEN $2 AND $3)
       SELECT CASE WHEN grouping(business_date) = 0 THEN business_date::text END AS business_date,
              count(*) AS joined,
              sum(party_size) AS people,
              count(*) FILTER (WHERE outcome = 'seated') AS seated,
              coalesce(sum(party_size) FILTER (WHERE outcome = 'seated'), 0) AS people_seated,
              count(*) FILTER (WHERE outcome = 'noShow') AS no_show,
              count(*) FILTER (WHERE outcome = 'left') AS left_queue,
              count(*) FILTER (WHERE outcome = 'removed') AS removed,
              count(*) FILTER (WHERE outcome = 'offerEnded') AS offer_ended,
              count(*) FILTER (WHERE outcome = 'dayClosed') AS day_closed,
              count(*) FILTER (WHERE outcome = 'stillWaiting') AS still_waiting,
              count(*) FILTER (WHERE outcome = 'toSeat') AS to_seat,
              sum(made) AS offers_made,
              sum(accepted) AS offers_accepted,
              sum(expired) AS offers_expired,
              sum(withdrawn) AS offers_withdrawn,
              sum(cancelled) AS offers_cancelled,
              count(wait_minutes) AS wait_count,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY wait_minutes) AS wait_median,
              percentile_cont(0.9) WITHIN GROUP (ORDER BY wait_minutes) AS wait_p90,
              max(wait_minutes) AS wait_longest
         FROM per_entry
        GROUP BY GROUPING SETS ((business_date), ())
        ORDER BY grouping(business_date), business_date`,
      [venueId, from, to, BUSINESS_DAY_ENDED],
    );
    const n = (v: string | number | null | undefined): number => Number(v ?? 0);
    const minutes = (v: string | number | null | undefined): number | null => (v === null || v === undefined ? null : Number(v));
    return rows.map((r) => ({
      businessDate: r.business_date === null ? null : String(r.business_date),
      joined: n(r.joined),
      people: n(r.people),
      seated: n(r.seated),
      peopleSeated: n(r.people_seated),
      noShow: n(r.no_show),
      left: n(r.left_queue),
      removed: n(r.removed),
      offerEnded: n(r.offer_ended),
      dayClosed: n(r.day_closed),
      stillWaiting: n(r.still_waiting),
      toSeat: n(r.to_seat),
      offersMade: n(r.offers_made),
      offersAccepted: n(r.offers_accepted),
      offersExpired: n(r.offers_expired),
      offersWithdrawn: n(r.offers_withdrawn),
      offersCancelled: n(r.offers_cancelled),
      waitCount: n(r.wait_count),
      waitMedianMinutes: minutes(r.wait_median),
      waitP90Minutes: minutes(r.wait_p90),
      waitLongestMinutes: minutes(r.wait_longest),
    }));
  }
}
