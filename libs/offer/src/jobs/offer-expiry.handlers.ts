import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { DateTime } from 'luxon';
import pLimit, { type LimitFunction } from 'p-limit';
import { AppConfig, Clock, databaseUnreachable, TransactionRunner } from '@hostboard/core';
import { JobScheduler } from '@hostboard/jobs';
import { SweepService } from '../lifecycle/sweep.service.js';

/** How many times an expiry job that fired before its offer's deadline is scheduled again. */
export const EXPIRY_RECHECKS = 3;

/**
 * Expiry on time: a delayed job keyed by an offer's id, due at its deadline, for each offer of a live
 * venue made while no earlier hold of the venue was live (TableOfferService); the others are
 * triggered by the chain: each sweep a job starts schedules the job of the venue's earliest live hold
 * after it (`sweepSoon`), so every live hold has a job due at or before its deadline. The job is only
 * a trigger: its handler sweeps the venue under the lock, which is safe to run twice or late;
 * correctness never rests on it (every decision sweeps first).
 */
@Injectable()
export class OfferExpiryHandlers implements OnModuleInit {
  private readonly logger = new Logger(OfferExpiryHandlers.name);
  /** Per venue: the sweep running now, and the one waiting to start that later jobs share. */
  private readonly sweeps = new Map<string, { running?: Promise<string[]>; waiting?: Promise<string[]> }>();
  /**
   * Sweeps of different venues running at once. Each is a transaction under a venue lock; past a
   * few, they only take turns on the database's cores, and every job behind them waits longer. 500
   * expiries falling due over 1.8 s at 20 venues, on two cores, the worker's first burst: p99 398–501 ms
   * with up to 20 at once (the pool's size, before), 249 ms with 8, 97–129 ms with 4, 68 ms with 2,
   * 175 ms with 1 (docs/benchmarks.md, ninth round). A sweep that waits for its turn also gathers
   * more of its venue's due offers.
   */
  private readonly sweepsAtOnce: LimitFunction;

  constructor(
    private readonly scheduler: JobScheduler,
    private readonly sweep: SweepService,
    private readonly tx: TransactionRunner,
    private readonly clock: Clock,
    config: AppConfig,
  ) {
    this.sweepsAtOnce = pLimit(config.EXPIRY_SWEEPS_AT_ONCE);
  }

  onModuleInit(): void {
    this.scheduler.handle('offer-expiry', async ({ venueId, offerId, recheck = 0, pool }) => {
      const expired = await this.sweepSoon(venueId, !pool);
      if (expired.includes(offerId)) return 'done';
      // Mostly the offer was expired by a sweep another job started: one read, no transaction (in an
      // expiry burst that is common, and the job need not take a transaction for it).
      const rows: Array<{ expires_at: Date }> = await this.tx.read((m) =>
        m.query("SELECT expires_at FROM offers WHERE id = $1 AND state = 'live'", [offerId]),
      );
      const due = rows[0]?.expires_at;
      if (!due) return 'skipped';
      if (due.getTime() <= this.clock.now().getTime()) {
        // Due now, though not when the sweep read the clock: the job fired a moment early (a timer,
        // another machine's clock). Sweep once more rather than leave it to the safety net.
        return (await this.sweepSoon(venueId, !pool)).includes(offerId) ? 'done' : 'skipped';
      }
      // Fired well before its deadline by this process's clock: try again then, under a new job id
      // each time (BullMQ ignores an add whose id exists), a few times; the safety sweep covers the rest.
      if (recheck < EXPIRY_RECHECKS) {
        const next = { venueId, offerId, recheck: recheck + 1, ...(pool && { pool }) };
        await this.scheduler.schedule('offer-expiry', next, { jobId: `${offerId}-again-${next.recheck}`, runAt: due });
      }
      return 'skipped';
    });
    this.scheduler.onStoreReturned((why) => this.requeueLive(why));
    this.scheduler.handle('safety-sweep', async () => {
      const now = this.clock.now();
      const due: Array<{ venue_id: string }> = await this.tx.run((t) =>
        t.manager.query(
          `SELECT DISTINCT o.venue_id FROM offers o JOIN venues v ON v.id = o.venue_id
            WHERE o.state = 'live' AND o.expires_at <= $1 AND NOT v.sandbox`,
          [now],
        ),
      );
      // Also the table venues whose oldest waiting party is from before their local today: a business
      // day may have ended there, and nobody may come to the board to trigger the close.
      const waiting: Array<{ venue_id: string; time_zone: string; oldest: string }> = await this.tx.run((t) =>
        t.manager.query(
          `SELECT e.venue_id, v.time_zone, min(e.business_date)::text AS oldest
             FROM queue_entries e JOIN venues v ON v.id = e.venue_id
            WHERE e.status = 'waiting' AND v.seating = 'tables' AND NOT v.sandbox
            GROUP BY e.venue_id, v.time_zone`,
        ),
      );
      // And the table venues where a confirmed or seated party holds tables from a turn that started
      // before their local today, or early today where a window runs past midnight (it may belong to
      // yesterday): the next day's service may have opened with nobody at the board to release them.
      // The sweep's own read decides (EndedDayTables); this only finds where to look.
      const held: Array<{ venue_id: string }> = await this.tx.run((t) =>
        t.manager.query(
          `SELECT h.venue_id FROM (
             SELECT r.venue_id, min(lower(rt.slot)) AS earliest
               FROM reservations r JOIN reservation_tables rt ON rt.reservation_id = r.id AND rt.active
              WHERE r.state IN ('CONFIRMED', 'SEATED') AND r.kind = 'tables'
              GROUP BY r.venue_id) h
             JOIN venues v ON v.id = h.venue_id
            WHERE NOT v.sandbox
              AND (timezone(v.time_zone, h.earliest)::date < timezone(v.time_zone, $1::timestamptz)::date
                   OR EXISTS (SELECT 1 FROM service_windows w WHERE w.venue_id = v.id AND w.end_minute <= w.start_minute
                                 AND extract(hour FROM timezone(v.time_zone, h.earliest)) * 60
                                     + extract(minute FROM timezone(v.time_zone, h.earliest)) < w.end_minute))`,
          [now],
        ),
      );
      const venues = new Set(due.map((v) => v.venue_id));
      for (const w of waiting) {
        if (w.oldest < (DateTime.fromJSDate(now, { zone: w.time_zone }).toISODate() ?? '')) venues.add(w.venue_id);
      }
      for (const h of held) venues.add(h.venue_id);
      let failed = 0;
      let unreachable: Error | undefined;
      for (const venueId of venues) {
        // One venue whose sweep fails (a lock held too long, a bad row) must not leave the rest unswept.
        await this.sweep.sweepFirst(venueId).catch((err: unknown) => {
          failed++;
          // The database lost mid-sweep: its watch logs that once, not a line per venue.
          if (databaseUnreachable(err)) unreachable ??= err as Error;
          else this.logger.warn(`safety sweep of venue ${venueId} failed: ${(err as Error).message}`);
        });
      }
      // Only the database's outage: fail as it did (the job's failure is then not logged either).
      if (failed > 0 && unreachable !== undefined && failed === venues.size) throw unreachable;
      if (failed > 0) throw new Error(`the safety sweep failed at ${failed} of ${venues.size} venue(s)`);
      if (venues.size > 0)
        this.logger.log(`safety sweep visited ${venues.size} venue(s) with due offers, ended days or tables held from one`);
      return venues.size > 0 ? 'done' : 'skipped';
    });
  }

  /**
   * After Redis returned (a restarted one has lost every delayed job): the expiry job of every live
   * offer of a live venue again, under its id, so each expires at its deadline rather than at the next
   * safety sweep (up to SAFETY_SWEEP_MS late, its table shown held meanwhile). One query (the live
   * offers' partial index), added in batches; a job that survived is left as it is, and an offer past
   * its deadline gets a job due now. The handler expires nothing early and nothing twice.
   */
  private async requeueLive(why: string): Promise<void> {
    const live: Array<{ id: string; venue_id: string; expires_at: Date; seating: string }> = await this.tx.read((m) =>
      m.query(
        `SELECT o.id, o.venue_id, o.expires_at, v.seating FROM offers o JOIN venues v ON v.id = o.venue_id
          WHERE o.state = 'live' AND NOT v.sandbox`,
      ),
    );
    await this.scheduler.scheduleMany(
      live.map((o) => ({
        name: 'offer-expiry' as const,
        payload: { venueId: o.venue_id, offerId: o.id, ...(o.seating === 'pool' && { pool: true as const }) },
        options: { jobId: o.id, runAt: o.expires_at },
      })),
    );
    if (live.length > 0) this.logger.log(`re-queued ${live.length} offer expiries ${why}`);
  }

  /**
   * The venue's sweep, then the job of its earliest live hold (under that offer's id: a job already
   * there, its own, is left as it is): the offers made while an earlier hold was live have no job of
   * their own, and this is their trigger. Table venues only: a pool's promotion always schedules its
   * own. A failure to schedule fails the job, which is tried again.
   */
  private async sweepThenChain(venueId: string, chain: boolean): Promise<string[]> {
    const expired = await this.sweep.sweepFirst(venueId);
    // A pool venue's job (each of its holds has its own): no read for a next one.
    if (!chain) return expired;
    const next: Array<{ id: string; expires_at: Date }> = await this.tx.read((m) =>
      m.query(
        `SELECT o.id, o.expires_at FROM offers o JOIN venues v ON v.id = o.venue_id
          WHERE o.venue_id = $1 AND o.state = 'live' AND NOT v.sandbox AND v.seating = 'tables'
          ORDER BY o.expires_at, o.id LIMIT 1`,
        [venueId],
      ),
    );
    const o = next[0];
    if (o) await this.scheduler.schedule('offer-expiry', { venueId, offerId: o.id }, { jobId: o.id, runAt: o.expires_at });
    return expired;
  }

  /**
   * Coalesces the expiry jobs of one venue, and bounds the sweeps of all venues: offers promoted in a
   * burst fall due in a burst, and each sweep takes the venue lock and expires everything due. A job
   * whose venue has a sweep waiting to start shares it (it will see the job's offer as due); one that
   * arrives while its venue's sweep runs queues the next, which starts after that one ends. So at
   * most one runs and one waits per venue, and at most `sweepsAtOnce` run in all.
   */
  private sweepSoon(venueId: string, chain: boolean): Promise<string[]> {
    const slot = this.sweeps.get(venueId) ?? {};
    this.sweeps.set(venueId, slot);
    if (slot.waiting) return slot.waiting;
    const before = slot.running?.catch(() => []) ?? Promise.resolve([]);
    const sweep: Promise<string[]> = before
      .then(() =>
        this.sweepsAtOnce(() => {
          // From here on it reads what is due: a job that arrives now needs the next sweep.
          if (slot.waiting === sweep) slot.waiting = undefined;
          slot.running = sweep;
          return this.sweepThenChain(venueId, chain);
        }),
      )
      .finally(() => {
        if (slot.running === sweep) slot.running = undefined;
        if (!slot.running && !slot.waiting && this.sweeps.get(venueId) === slot) this.sweeps.delete(venueId);
      });
    slot.waiting = sweep;
    return sweep;
  }
}
