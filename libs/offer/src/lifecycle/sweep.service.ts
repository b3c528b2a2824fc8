import { Injectable } from '@nestjs/common';
import { Clock, readTogether, TransactionRunner, type Tx } from '@hostboard/core';
import { BusinessDayCloser } from '@hostboard/queue';
import { VenueClock, VenueRepository, type Venue } from '@hostboard/venue';
import { OfferRepository } from '../offers/offer.repository.js';
import { OfferLifecycle } from './offer-lifecycle.js';

/** The deterministic id of "expire offer X": a second expiry is recognised as the same operation. */
export const expiryOperationId = (offerId: string): string => `expire-offer-${offerId}`;

/**
 * Resolves lapsed holds and ended business days. It runs before every offer, promotion and acceptance in its own committed
 * transaction, so no decision sees a stale hold; jobs only make expiry visible on time.
 */
@Injectable()
export class SweepService {
  constructor(
    private readonly tx: TransactionRunner,
    private readonly venues: VenueRepository,
    private readonly clock: VenueClock,
    private readonly offers: OfferRepository,
    private readonly lifecycle: OfferLifecycle,
    private readonly wallClock: Clock,
    private readonly dayClose: BusinessDayCloser,
  ) {}

  /**
   * Inside a transaction that holds the venue lock: expires every live offer due at `now`, then
   * closes the waiting entries of ended business days (after the expiry, so an offer of that day
   * that lapsed and returned its party to waiting is closed in the same sweep).
   */
  async sweepLocked(tx: Tx, venue: Venue, now: Date): Promise<string[]> {
    // All of them at once, in a fixed number of statements: a burst of offers falls due together,
    // and every expiry behind this lock waits for the whole sweep.
    const expired = await this.lifecycle.expireDue(tx, venue, now, expiryOperationId);
    await this.dayClose.closeLocked(tx, venue, now);
    return expired;
  }

  /**
   * The sweep before a decision: its own transaction, committed before the decision starts. Most
   * decisions find nothing due, so a lock-free read asks first; what it misses by a hair is what a
   * sweep committed a moment earlier would have missed too, and the decision checks its own deadline.
   */
  async sweepFirst(venueId: string): Promise<string[]> {
    const wallNow = this.wallClock.now();
    const found = await this.tx.read((m) =>
      readTogether(m, {
        due: this.offers.anyDueRead(venueId, wallNow),
        dayEnded: this.dayClose.anyToCloseRead(venueId, wallNow),
      }),
    );
    if (!found.due && !found.dayEnded) return [];
    return this.tx.run(async (tx) => {
      const venue = await this.venues.lock(tx.manager, venueId);
      return this.sweepLocked(tx, venue, this.clock.now(venue));
    });
  }

  /** "Sweep expired offers" by hand (replay-safe); an empty list is a normal answer. */
  async manualSweep(venueId: string): Promise<{ expired: string[] }> {
    return this.tx.command({}, async (tx) => {
      const venue = await this.venues.lock(tx.manager, venueId);
      return { expired: await this.sweepLocked(tx, venue, this.clock.now(venue)) };
    });
  }
}
