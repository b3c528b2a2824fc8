import { Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { isReported, type Tx } from '@hostboard/core';
import { JobScheduler } from '@hostboard/jobs';
import type { Venue } from '@hostboard/venue';
import type { Offer } from '../offers/offer.entity.js';

/**
 * Schedules and removes an offer's expiry job, after the offer's transaction commits, without holding
 * up the answer: the job only makes an expiry show on the board on time. The sweep before every
 * decision and the safety-net sweep expire an offer without it, and a job whose offer has ended does
 * nothing. (Waiting for the job store was one more round trip in every offer's and acceptance's
 * answer, and the slowest step of an offer on a busy machine: docs/benchmarks.md, twenty-second round.)
 */
@Injectable()
export class OfferExpiryScheduler implements BeforeApplicationShutdown {
  private readonly logger = new Logger(OfferExpiryScheduler.name);
  /** Job-store writes under way, by offer: a cancel goes after its offer's schedule, in this process. */
  private readonly writing = new Map<string, Promise<void>>();

  constructor(private readonly scheduler: JobScheduler) {}

  /**
   * Sandbox venues expire when their clock is moved instead: nothing is scheduled for them.
   *
   * An offer made while an earlier hold of its venue is live is given no job (TableOfferService): the
   * earlier hold's job runs first and schedules the job of the venue's next live hold
   * (OfferExpiryHandlers). So a job is removed (`cancel`) only when the caller read, under the venue
   * lock, that no later hold of the venue is live.
   */
  afterCommit(
    tx: Tx,
    venue: Pick<Venue, 'sandbox' | 'seating'>,
    action: { schedule: Pick<Offer, 'id' | 'venueId' | 'expiresAt'> } | { cancel: string },
  ): void {
    if (venue.sandbox) return;
    tx.afterCommit(() => {
      if ('schedule' in action) {
        const o = action.schedule;
        this.inBackground(o.id, () =>
          this.scheduler.schedule(
            'offer-expiry',
            { venueId: o.venueId, offerId: o.id, ...(venue.seating === 'pool' && { pool: true as const }) },
            { jobId: o.id, runAt: o.expiresAt },
          ),
        );
      } else {
        this.inBackground(action.cancel, () => this.scheduler.cancel(action.cancel));
      }
    });
  }

  /** Job-store writes still under way: waited for before the scheduler stops (each is bounded by its timeout). */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all([...this.writing.values()]);
  }

  /** Runs `write` after the offer's write still under way, if any; a failure is logged, not thrown. */
  private inBackground(offerId: string, write: () => Promise<unknown>): void {
    const before = this.writing.get(offerId) ?? Promise.resolve();
    const done: Promise<void> = before
      .then(write)
      .then(
        () => undefined,
        (err: Error) => {
          // One already logged where it failed (a job Redis refused, counted per outage) adds no line here.
          if (!isReported(err))
            this.logger.warn(
              `expiry job of offer ${offerId} not written (the sweeps expire the offer without it): ${err.message}`,
            );
        },
      )
      .finally(() => {
        if (this.writing.get(offerId) === done) this.writing.delete(offerId);
      });
    this.writing.set(offerId, done);
  }
}
