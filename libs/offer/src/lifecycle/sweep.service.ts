import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Clock, CommitThenRetry, readTogether, SweepFirst, TransactionRunner, type ScalarRead, type Tx } from '@hostboard/core';
import { BusinessDayCloser } from '@hostboard/queue';
import {
  LapsedHolds,
  ServiceWindowRepository,
  VenueClock,
  VenueRepository,
  type ServiceWindow,
  type Venue,
} from '@hostboard/venue';
import { OfferRepository } from '../offers/offer.repository.js';
import { EndedDayTables, type HeldTablesFacts } from './ended-day-tables.js';
import { OfferLifecycle } from './offer-lifecycle.js';

/** The sweep's lock-free question, in parts a combined read carries (a type, so it fits `readTogether`). */
type DueReads = {
  due: ScalarRead<boolean>;
  dayEnded: ScalarRead<boolean>;
  heldTables: ScalarRead<HeldTablesFacts | null>;
  windows: ScalarRead<ServiceWindow[]>;
};
type DueFound = { [K in keyof DueReads]: ReturnType<DueReads[K]['parse']> };

/** The sweep's question asked after the venue lock (`dueAfterLockReads`): the earliest deadline instead of "due at the read's now". */
export type DueAfterLockReads = Omit<DueReads, 'due'> & { deadline: ScalarRead<Date | null> };
export type DueAfterLockFound = { [K in keyof DueAfterLockReads]: ReturnType<DueAfterLockReads[K]['parse']> };

/** The deterministic id of "expire offer X": a second expiry is recognised as the same operation. */
export const expiryOperationId = (offerId: string): string => `expire-offer-${offerId}`;

/**
 * Resolves lapsed holds and ended business days (waiting parties leave the queue; tables still held by
 * an earlier day's confirmed or seated parties are released once the next day's service runs). It runs
 * before every offer, acceptance, promotion, withdrawal, cancellation and desk booking: the command
 * asks under its own lock, in the lock's write, whether anything is due, and when it is, the sweep
 * commits in a transaction of its own and the command decides in a new one (`sweepThenDecide`), so no
 * decision sees a stale hold; before the board's and the lists' reads and from the expiry jobs, in its
 * own committed transaction (`sweepFirst`). Jobs only make expiry visible on time.
 */
@Injectable()
export class SweepService implements OnModuleInit {
  constructor(
    private readonly tx: TransactionRunner,
    private readonly venues: VenueRepository,
    private readonly clock: VenueClock,
    private readonly offers: OfferRepository,
    private readonly lifecycle: OfferLifecycle,
    private readonly wallClock: Clock,
    private readonly dayClose: BusinessDayCloser,
    private readonly lapsedHolds: LapsedHolds,
    private readonly readsFirst: SweepFirst,
    private readonly endedDayTables: EndedDayTables,
    private readonly windows: ServiceWindowRepository,
  ) {}

  /**
   * A join resolves lapsed holds too, inside its own transaction under the venue lock (LapsedHolds);
   * the reads of modules below this one (history, messages, reports, a party's sheet) sweep first
   * through core's SweepFirst.
   */
  onModuleInit(): void {
    this.lapsedHolds.register({
      deadlineRead: (venueId) => this.offers.earliestDeadlineRead(venueId),
      resolveLocked: (tx, venue, now) => this.sweepLocked(tx, venue, now),
    });
    this.readsFirst.register((venueId) => this.sweepFirst(venueId));
  }

  /**
   * Inside a transaction that holds the venue lock: expires every live offer due at `now`, then
   * closes the waiting entries of ended business days (after the expiry, so an offer of that day
   * that lapsed and returned its party to waiting is closed in the same sweep). `dayEnded` is what a
   * lock-free read just found (`sweepFirst`); when it found no ended day, the close runs only if an
   * expiry returned a party of an earlier date to waiting. Without it, the close always looks.
   * `tablesHeld` likewise says whether the read found tables held from an earlier business day
   * (EndedDayTables); without it, the release always looks.
   */
  async sweepLocked(tx: Tx, venue: Venue, now: Date, dayEnded?: boolean, tablesHeld?: boolean): Promise<string[]> {
    return (await this.swept(tx, venue, now, dayEnded, tablesHeld)).expired;
  }

  /** `sweepLocked`, answering too whether it changed anything (an offer expired, a day closed, a table released). */
  private async swept(
    tx: Tx,
    venue: Venue,
    now: Date,
    dayEnded?: boolean,
    tablesHeld?: boolean,
  ): Promise<{ expired: string[]; changed: boolean }> {
    // All of them at once, in a fixed number of statements: a burst of offers falls due together,
    // and every expiry behind this lock waits for the whole sweep.
    const expired = await this.lifecycle.expireDue(tx, venue, now, expiryOperationId);
    const closed = dayEnded !== false || expired.returnedFromEarlierDate ? await this.dayClose.closeLocked(tx, venue, now) : [];
    const released = tablesHeld !== false ? await this.endedDayTables.releaseLocked(tx, venue, now) : [];
    return { expired: expired.ids, changed: expired.ids.length > 0 || closed.length > 0 || released.length > 0 };
  }

  /**
   * The sweep before a decision: its own transaction, committed before the decision starts. Most
   * decisions find nothing due, so a lock-free read asks first; what it misses by a hair is what a
   * sweep committed a moment earlier would have missed too, and the decision checks its own deadline.
   * (An entry of an ended day can only come back to waiting through an offer's end, and every such
   * end is followed by a sweep of its own or is found by the next one's read.)
   */
  async sweepFirst(venueId: string): Promise<string[]> {
    return this.sweepFound(venueId, await this.tx.read((m) => readTogether(m, this.dueReads(venueId))));
  }

  /**
   * The lock-free question of `sweepFirst`, as parts of a combined read: a read polled often (a
   * party's page) asks it in the same statement as its own reads, and sweeps (`sweepFound`) and
   * reads again only when it answers true.
   */
  dueReads(venueId: string): DueReads {
    const wallNow = this.wallClock.now();
    return {
      due: this.offers.anyDueRead(venueId, wallNow),
      dayEnded: this.dayClose.anyToCloseRead(venueId, wallNow),
      heldTables: this.endedDayTables.factsRead(venueId, wallNow),
      // The same read as a party's view of the venue's windows: in one combined read, one of them.
      windows: this.windows.listRead(venueId),
    };
  }

  /** Whether what `dueReads` found needs a sweep. */
  anyFound(found: DueFound): boolean {
    return found.due || found.dayEnded || this.endedDayTables.anyToRelease(found.heldTables, found.windows);
  }

  /** The sweep of what `dueReads` found: nothing to do when it found nothing. */
  async sweepFound(venueId: string, found: DueFound): Promise<string[]> {
    const tablesHeld = this.endedDayTables.anyToRelease(found.heldTables, found.windows);
    if (!found.due && !found.dayEnded && !tablesHeld) return [];
    return this.tx.run(async (tx) => {
      const venue = await this.venues.lock(tx.manager, venueId);
      return this.sweepLocked(tx, venue, this.clock.now(venue), found.dayEnded, tablesHeld);
    }, venueId);
  }

  /**
   * The sweep's question for a decision that asks it after its venue lock, in the lock's own write
   * (VenueRepository.lockThenRead), instead of `sweepFirst`'s lock-free read and transaction before it.
   * Whether a hold has lapsed is answered exactly at the decision's now (`sweepThenDecide`): the earliest
   * deadline is read, not "due at the read's instant". Ended days and tables held from them are asked
   * as `sweepFirst` asks (the venue's own now, else the wall clock taken before the lock was sent).
   */
  dueAfterLockReads(venueId: string): DueAfterLockReads {
    const wallNow = this.wallClock.now();
    return {
      deadline: this.offers.earliestDeadlineRead(venueId),
      dayEnded: this.dayClose.anyToCloseRead(venueId, wallNow),
      heldTables: this.endedDayTables.factsRead(venueId, wallNow),
      windows: this.windows.listRead(venueId),
    };
  }

  /**
   * The shape of a decision that asks the sweep's question after its venue lock (`dueAfterLockReads`,
   * in the lock's own write). When anything is due at `now` (a hold whose deadline has come, an ended
   * day, tables held from one) and the sweep changes anything, the decision is sent round again
   * (CommitThenRetry): the spec wants the sweep before an offer or an acceptance "in its own committed
   * transaction", so this transaction commits with the sweep alone and the decision runs in a new one
   * that reads afresh. When nothing is due (the common case), it decides here, under this lock.
   */
  async sweepThenDecide<R>(tx: Tx, venue: Venue, now: Date, found: DueAfterLockFound, decide: () => Promise<R>): Promise<R> {
    const due = found.deadline !== null && found.deadline.getTime() <= now.getTime();
    const tablesHeld = this.endedDayTables.anyToRelease(found.heldTables, found.windows);
    if (due || found.dayEnded || tablesHeld) {
      const { changed } = await this.swept(tx, venue, now, found.dayEnded, tablesHeld);
      if (changed) throw new CommitThenRetry('the sweep of lapsed holds');
    }
    return decide();
  }

  /** "Sweep expired offers" by hand (replay-safe); an empty list is a normal answer. */
  async manualSweep(venueId: string): Promise<{ expired: string[] }> {
    return this.tx.command({ venueId }, async (tx) => {
      const venue = await this.venues.lock(tx.manager, venueId);
      return { expired: await this.sweepLocked(tx, venue, this.clock.now(venue)) };
    });
  }
}
