import { Injectable } from '@nestjs/common';
import type { ScalarRead, Tx } from '@hostboard/core';
import type { Venue } from '../venues/venue.entity.js';

/**
 * What the offer module does, for the commands of modules below it, about holds that have lapsed
 * (offers live there, and depend on this module).
 */
export interface LapsedHoldResolver {
  /**
   * The earliest deadline of the venue's live offers (null when none), as a part of a combined read
   * sent before the venue is known (with its lock): a hold has lapsed at `now` when it is not after it.
   */
  deadlineRead(venueId: string): ScalarRead<Date | null>;
  /** Inside the caller's transaction, under the venue lock: ends every lapsed hold (and closes ended days); the offer ids. */
  resolveLocked(tx: Tx, venue: Venue, now: Date): Promise<string[]>;
}

/**
 * A hold whose deadline has passed holds nothing, even when no job or request has swept it yet (a
 * late expiry job, a worker down). A join counts the parties "still active in the queue (waiting or
 * holding an offer)" and refuses a contact with an active entry; a manager's resize or retirement
 * of a table is refused while a party holds it: each resolves lapsed holds first, under its venue
 * lock, as offers and acceptances do. The offer module registers how (it owns offers). (A read
 * sweeps first in its own transaction instead, through core's SweepFirst.)
 */
@Injectable()
export class LapsedHolds {
  private resolver: LapsedHoldResolver | null = null;

  register(resolver: LapsedHoldResolver): void {
    this.resolver = resolver;
  }

  deadlineRead(venueId: string): ScalarRead<Date | null> | undefined {
    return this.resolver?.deadlineRead(venueId);
  }

  resolveLocked(tx: Tx, venue: Venue, now: Date): Promise<string[]> {
    return this.resolver ? this.resolver.resolveLocked(tx, venue, now) : Promise.resolve([]);
  }
}
