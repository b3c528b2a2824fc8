import { Injectable } from '@nestjs/common';
import type { Tx } from '@hostboard/core';
import { JobScheduler } from '@hostboard/jobs';
import type { Venue } from '@hostboard/venue';
import type { Offer } from '../offers/offer.entity.js';

/** Schedules and removes an offer's expiry job, after the offer's transaction commits. */
@Injectable()
export class OfferExpiryScheduler {
  constructor(private readonly scheduler: JobScheduler) {}

  /** Sandbox venues expire when their clock is moved instead: nothing is scheduled for them. */
  afterCommit(
    tx: Tx,
    venue: Pick<Venue, 'sandbox'>,
    action: { schedule: Pick<Offer, 'id' | 'venueId' | 'expiresAt'> } | { cancel: string },
  ): void {
    if (venue.sandbox) return;
    tx.afterCommit(async () => {
      if ('schedule' in action) {
        const o = action.schedule;
        await this.scheduler.schedule('offer-expiry', { venueId: o.venueId, offerId: o.id }, { jobId: o.id, runAt: o.expiresAt });
      } else {
        await this.scheduler.cancel(action.cancel);
      }
    });
  }
}
